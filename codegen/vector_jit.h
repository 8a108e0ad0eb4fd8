// The LLVM ORC JIT back end of a Vector Engine pass (ir/seq/vector_program.h): a VectorProgram
// becomes one native function (codegen/vector_emit.h) that runs the pass over a range of slices,
// bit-exactly like the interpreter (runtime/interp/vector_exec.h). The machinery is the fetch
// JIT's: JitOptions / CompileStats of contraction_jit.h, the pass pipeline and the linker of
// native_compiler.h, the object cache (vector objects have keys of their own), the slice-parallel
// thread pool.
#pragma once

#include "codegen/contraction_jit.h"
#include "ir/seq/vector_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

#include <memory>
#include <string>

namespace tujit::codegen {

/// One compiled vector program: owns its JIT code for as long as it lives.
class CompiledVector {
public:
  virtual ~CompiledVector() = default;
  virtual const CompileStats& stats() const = 0;
};

class VectorJit {
public:
  virtual ~VectorJit() = default;
  /// The host's LLJIT instance. E-JIT-001 when LLVM cannot target the host.
  static Result<std::unique_ptr<VectorJit>> create(JitOptions options = {});
  /// Compiles (or loads from the cache). E-JIT-002 with the kernel's name when LLVM fails.
  virtual Result<std::shared_ptr<const CompiledVector>>
  compile(const ir::seq::VectorProgram& program) = 0;
};

/// The JIT counterpart of runtime::run_vector: run_vector(program, in, /*values=*/false) gives the
/// cell states and its diagnostics, then the native code fills every value. Bit- and
/// state-identical to run_vector(program, in) for any thread count. E-JIT-002 when `compiled` was
/// not compiled from `program`; E-JIT-003 when checked code stops an out-of-range slice range.
Result<runtime::DeviceImage> run_vector_jit(const CompiledVector& compiled,
                                            const ir::seq::VectorProgram& program,
                                            const runtime::DeviceImage& in,
                                            JitRunOptions options = {});

/// `tujit compile --emit llvm` (optimised module text) and `--emit asm` of a vector program.
Result<std::string> emit_llvm_ir(const ir::seq::VectorProgram& program, bool checked = false);
Result<std::string> emit_assembly(const ir::seq::VectorProgram& program, bool checked = false);

} // namespace tujit::codegen
