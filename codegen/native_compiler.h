// The host code generator behind the JIT: LLVM's target machine for this process's CPU, the
// optimisation pipeline (lean: CSE, instcombine, LICM; IEEE float: no fast-math, no FP-op fusion
// beyond the explicit llvm.fma calls contraction_emit.cpp proves exact), and the module → object /
// assembly / IR text steps. LLVM errors come back as Diagnostics (E-JIT-001 no host target,
// E-JIT-002 compile failure naming the kernel); nothing here aborts.
#pragma once

#include "ir/support/diagnostic.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tujit::codegen {

struct NativeTarget {
  std::shared_ptr<llvm::TargetMachine> machine;
  std::string triple, cpu, features; // what the generated code assumes (object cache key)
};

/// The host's target machine (E-JIT-001 when LLVM cannot generate code for this host).
Result<NativeTarget> native_target();

/// Sets the module's triple and data layout, verifies it (E-JIT-002: an emitter bug is reported,
/// never run) and runs the optimisation pipeline.
Result<bool> optimise_module(llvm::Module& module, const NativeTarget& target,
                             const std::string& kernel_name);

enum class NativeOutput { Object, Assembly };
/// Machine code of an optimised module: an ELF object or assembly text (E-JIT-002 on failure).
Result<std::string> emit_native(llvm::Module& module, const NativeTarget& target,
                                NativeOutput output, const std::string& kernel_name);

/// The module as LLVM IR text.
std::string module_text(const llvm::Module& module);

/// E-JIT-002 for `kernel_name` with LLVM's message.
Diagnostic compile_failure(const std::string& kernel_name, const std::string& what);

} // namespace tujit::codegen
