// The compile backend (compile_backend.h) over LLVM: each run program kind's emitter
// (contraction_emit.cpp, partial_emit.cpp, move_emit.cpp, poison_emit.cpp), the optimisation
// pipeline and the host's back end (native_compiler.h). `tujit` loads it as libtujit_llvm.so; the
// tests and benchmarks link it in.
#include "codegen/compile_backend.h"
#include "codegen/contraction_emit.h"
#include "codegen/host_target.h"
#include "codegen/move_emit.h"
#include "codegen/native_compiler.h"
#include "codegen/partial_emit.h"
#include "codegen/poison_emit.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {
namespace {

bool host_has_fma(const NativeTarget& t) {
  return t.features.find("+fma") != std::string::npos;
}

ModuleBuilder module_builder(const ir::seq::RunProgram& program, bool checked) {
  return [&program, checked](const NativeTarget& target,
                             llvm::LLVMContext& context) -> Result<std::unique_ptr<llvm::Module>> {
    auto module =
        program.is_move() ? emit_move_module(program, checked, context)
        : is_partial(program)
            ? emit_partial_module(program, checked, context)
            : emit_contraction_module(
                  program, EmitConfig{checked, host_has_fma(target), host_dot(target.features)},
                  context);
    if (auto ok = optimise_module(*module, target, program.kernel_name); !ok)
      return ok.diagnostics();
    return module;
  };
}

ModuleBuilder poison_builder(const ir::seq::RunProgram& program) {
  return [&program](const NativeTarget& target,
                    llvm::LLVMContext& context) -> Result<std::unique_ptr<llvm::Module>> {
    auto module = emit_poison_module(program, context);
    if (auto ok = optimise_module(*module, target, program.kernel_name); !ok)
      return ok.diagnostics();
    return module;
  };
}

Result<std::string> run_object(const ir::seq::RunProgram& program, bool checked) {
  return compile_object(module_builder(program, checked), program.kernel_name);
}

Result<std::string> poison_object(const ir::seq::RunProgram& program) {
  return compile_object(poison_builder(program), program.kernel_name);
}

/// The run program's module, then (checked code) its poison shadow's.
Result<std::string> emit_text(const ir::seq::RunProgram& program, bool checked, bool assembly) {
  auto text = emit_module(module_builder(program, checked), assembly, program.kernel_name);
  if (!text || !checked) return text;
  auto shadow = emit_module(poison_builder(program), assembly, program.kernel_name);
  if (!shadow) return shadow;
  return *text + "\n" + *shadow;
}

constexpr CompileBackend kBackend{&run_object, &poison_object, &emit_text};

} // namespace
} // namespace tujit::codegen

extern "C" const tujit::codegen::CompileBackend* tujit_compile_backend() {
  return &tujit::codegen::kBackend;
}
