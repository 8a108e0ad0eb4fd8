// The compile path behind one table of functions (docs/design.md §2.4): emitting a run program's
// LLVM IR, optimising it and compiling it to an object for the host. Only a cache miss (or
// `tujit compile --emit`) needs it, so `tujit` keeps it, with LLVM, in a shared library it loads
// on first use (a cached run never loads LLVM, README "Performance"); the tests and benchmarks
// link it in (compile_backend.cpp).
#pragma once

#include "ir/seq/run_program.h"
#include "ir/support/diagnostic.h"

#include <string>

namespace tujit::codegen {

struct CompileBackend {
  /// The program's object (a contraction, a part of a chain or a move; checked or not).
  Result<std::string> (*run_object)(const ir::seq::RunProgram& program, bool checked);
  /// Its poison shadow's object (poison_emit.h).
  Result<std::string> (*poison_object)(const ir::seq::RunProgram& program);
  /// `tujit compile --emit llvm` (optimised IR text) or `--emit asm` (host assembly).
  Result<std::string> (*emit_text)(const ir::seq::RunProgram& program, bool checked, bool assembly);
};

/// The backend, loaded or linked (E-JIT-001 when the library cannot be loaded).
Result<const CompileBackend*> compile_backend();

/// What tells the backend's code apart beyond build_identity(): the GNU build ID of the library
/// `tujit` would load, read from its file without loading it (empty when the backend is linked
/// in, or "none" without a library). Part of the object cache key, since the library is rebuilt
/// without relinking `tujit`.
const std::string& compile_backend_identity();

} // namespace tujit::codegen

/// The library's one entry point: its table.
extern "C" const tujit::codegen::CompileBackend* tujit_compile_backend();
