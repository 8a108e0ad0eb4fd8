// The compile-or-load step shared by the JITs of the small Sequencer IR programs (the Vector
// Engine pass, the sequencer write): the module a generator emits is optimised and compiled to an
// object, or the object is loaded from the on-disk cache under its key, then linked into a
// JITDylib of its own (the returned LinkedFunction frees it).
#pragma once

#include "codegen/contraction_jit.h"
#include "codegen/native_compiler.h"
#include "codegen/object_cache.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

/// One program generator: its unoptimised module for a context.
using ProgramEmitter = std::function<std::unique_ptr<llvm::Module>(llvm::LLVMContext&)>;

/// The host target, a JIT session and the object cache for one kind of program.
class ProgramJit {
public:
  /// E-JIT-001 when LLVM cannot target the host.
  static Result<std::unique_ptr<ProgramJit>> create(JitOptions options);

  /// Compiles (or loads) the program whose cache key is `key` and whose fingerprint is
  /// `fingerprint`, and links `symbol`. E-JIT-002 naming `kernel_name` when LLVM fails.
  Result<LinkedFunction> compile(const ProgramEmitter& emit, std::uint64_t fingerprint,
                                 const std::string& key, const std::string& symbol,
                                 const std::string& kernel_name, CompileStats& stats);

  const JitOptions& options() const { return options_; }
  /// "LLVM 19.1.7; x86_64-…; cpu znver4; features …" for cache keys.
  std::string target_text() const;

  /// `tujit compile --emit llvm|asm` of an emitted module.
  static Result<std::string> emit_text(const ProgramEmitter& emit, bool assembly,
                                       const std::string& kernel_name);

private:
  ProgramJit(JitOptions options, NativeTarget target, std::shared_ptr<JitSession> session);
  JitOptions options_;
  NativeTarget target_;
  std::shared_ptr<JitSession> session_;
  std::optional<ObjectCache> cache_;
};

} // namespace tujit::codegen
