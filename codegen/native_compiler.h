// The host code generator behind the JIT: LLVM's target machine for this process's CPU, the
// optimisation pipeline (lean: CSE, instcombine, LICM; IEEE float: no fast-math, no FP-op fusion
// beyond the explicit llvm.fma calls contraction_emit.cpp proves exact), the back end's two tiers
// (hot: the optimising instruction selector and register allocator; cold: LLVM's fast ones), and
// the module → object / assembly / IR text steps. LLVM errors come back as Diagnostics (E-JIT-001
// no host target, E-JIT-002 compile failure naming the kernel); nothing here aborts.
#pragma once

#include "codegen/linked_function.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace tujit::codegen {

struct NativeTarget {
  std::shared_ptr<llvm::TargetMachine> machine;
  std::shared_ptr<std::mutex> machine_mu; // emit_native switches the machine's tier under it
  std::string triple, cpu, features;      // what the generated code assumes (object cache key)
};

/// How the back end compiles a module. Hot: the optimising instruction selector, register
/// allocator and schedulers, for code whose run time matters (a kernel's slice loop, a move, a
/// fetch). Cold: LLVM's fast instruction selector and register allocator and no machine-level
/// optimisation, about a third of the time, for code that runs once per kernel on small data
/// (a part of a chain, the poison shadow). Both tiers compile the same IR, and the IR fixes every
/// operation and its order, so the tier changes speed, never bits.
enum class CodegenTier { Hot, Cold };
/// The tier of a module: the module flag `tujit.codegen_tier`, 1 for cold (an emitter marks its
/// cold modules; unmarked modules are hot), shown by `tujit compile --emit llvm`.
void set_codegen_tier(llvm::Module& module, CodegenTier tier);
CodegenTier codegen_tier(const llvm::Module& module);

/// What the back end does with each tier, part of the object cache key: a change of pipeline or
/// of which code is cold changes the objects.
inline constexpr const char* kBackendPipeline =
    "IR: early-cse, instcombine, licm; hot: O2; cold: O0 fast-isel";

/// The host's target machine (E-JIT-001 when LLVM cannot generate code for this host).
Result<NativeTarget> native_target();

/// Sets the module's triple and data layout, verifies it (E-JIT-002: an emitter bug is reported,
/// never run) and runs the optimisation pipeline.
Status optimise_module(llvm::Module& module, const NativeTarget& target,
                       const std::string& kernel_name);

enum class NativeOutput { Object, Assembly };
/// Machine code of an optimised module at its tier: an ELF object or assembly text (E-JIT-002 on
/// failure).
Result<std::string> emit_native(llvm::Module& module, const NativeTarget& target,
                                NativeOutput output, const std::string& kernel_name);

/// The module as LLVM IR text.
std::string module_text(const llvm::Module& module);

/// Builds an optimised module for the host (the caller's code generator).
using ModuleBuilder =
    std::function<Result<std::unique_ptr<llvm::Module>>(const NativeTarget&, llvm::LLVMContext&)>;
/// The object of what `build` makes, compiled for the host at its tier (the host's target machine
/// is built on the first call; E-JIT-001 when LLVM cannot target the host or its vector features
/// differ from CPUID's, host_cpu.h).
Result<std::string> compile_object(const ModuleBuilder& build, const std::string& kernel_name);

/// `tujit compile --emit llvm` (module text) or `--emit asm` (host assembly) of what `build`
/// makes; `kernel_name` names the kernel in diagnostics.
Result<std::string> emit_module(const ModuleBuilder& build, bool assembly,
                                const std::string& kernel_name);

/// E-JIT-002 for `kernel_name` with LLVM's message.
Diagnostic compile_failure(const std::string& kernel_name, const std::string& what);

/// An ORC LLJIT for the host and the link step of one compiled object: the object goes into a
/// JITDylib of its own (freeing one program's code never touches another's), with this process's
/// symbols visible (the object may call memset / memcpy), and one symbol is looked up. Thread-safe;
/// a LinkedFunction's release keeps the session alive. For the tests' own modules: the JIT core
/// places its objects with object_loader.h.
class JitSession : public std::enable_shared_from_this<JitSession> {
public:
  /// A session linking objects compiled for `target` (E-JIT-001 when LLVM cannot build a JIT for
  /// this host).
  static Result<std::shared_ptr<JitSession>> create(const NativeTarget& target);
  ~JitSession();
  JitSession(const JitSession&) = delete;
  JitSession& operator=(const JitSession&) = delete;

  /// Links `object` into a fresh JITDylib `<dylib_prefix>.<n>` and looks up `symbol`
  /// (E-JIT-002 naming `kernel_name` when LLVM refuses; the JITDylib is then removed).
  Result<LinkedFunction> link(const std::string& object, const std::string& symbol,
                              const std::string& dylib_prefix, const std::string& kernel_name);

private:
  JitSession() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::mutex mu_;
  std::uint64_t dylibs_ = 0;
};

} // namespace tujit::codegen
