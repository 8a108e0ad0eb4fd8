// ContractionJit on the JIT core (jit_core.h): each run program is emitted (contraction_emit.cpp
// or move_emit.cpp), optimised, compiled to an object, cached on disk and linked into a JITDylib
// of its own, which the CompiledContraction removes when it dies.
#include "codegen/contraction_jit.h"

#include "codegen/contraction_emit.h"
#include "codegen/jit_core.h"
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

constexpr JitProgramKind kContractionKind{"tujit run object; codegen", kCodegenVersion,
                                          kContractionSymbol, "tujit.contraction"};
constexpr JitProgramKind kMoveKind{"tujit run object; codegen", kCodegenVersion, kMoveSymbol,
                                   "tujit.move"};
constexpr JitProgramKind kPoisonKind{"tujit poison shadow; codegen", kCodegenVersion, kPoisonSymbol,
                                     "tujit.poison"};

} // namespace

CompiledContraction::CompiledContraction(CompileStats stats, LinkedFunction code,
                                         LinkedFunction shadow)
    : stats_(stats), code_(std::move(code)), shadow_(std::move(shadow)) {}

CompiledContraction::~CompiledContraction() {
  if (shadow_.release) shadow_.release();
  if (code_.release) code_.release();
}

std::shared_ptr<const ContractionPlan> CompiledContraction::kept_plan() const {
  std::lock_guard<std::mutex> lock(plan_mu_);
  return plan_;
}

void CompiledContraction::keep_plan(std::shared_ptr<const ContractionPlan> plan) const {
  std::lock_guard<std::mutex> lock(plan_mu_);
  plan_ = std::move(plan);
}

Result<std::unique_ptr<ContractionJit>> ContractionJit::create(JitOptions options) {
  auto core = JitCore::create(std::move(options));
  if (!core) return core.diagnostics();
  return std::make_unique<ContractionJit>(std::make_unique<JitCore>(std::move(*core)));
}

ContractionJit::ContractionJit(std::unique_ptr<JitCore> core) : core_(std::move(core)) {}

ContractionJit::~ContractionJit() = default;

Result<std::shared_ptr<const CompiledContraction>>
ContractionJit::compile(const ir::seq::RunProgram& program) {
  // The run program's fingerprint covers ftz_results and every address stream.
  const bool move = program.is_move();
  auto object = core_->compile(move ? kMoveKind : kContractionKind, ir::seq::fingerprint(program),
                               module_builder(program, core_->checked()), program.kernel_name,
                               program.kernel_name);
  if (!object) return object.diagnostics();
  // The JIT's own poisoned set (poison_emit.h), which `--verify` compares with the analysis's.
  LinkedFunction shadow;
  if (core_->poison_shadow()) {
    auto compiled =
        core_->compile(kPoisonKind, ir::seq::fingerprint(program), poison_builder(program),
                       program.kernel_name, program.kernel_name + ".poison");
    if (!compiled) return compiled.diagnostics();
    shadow = std::move(compiled->fn);
  }
  return std::shared_ptr<const CompiledContraction>(std::make_shared<CompiledContraction>(
      object->stats, std::move(object->fn), std::move(shadow)));
}

namespace {
/// The run program's module, then (checked code) its poison shadow's.
Result<std::string> emit_text(const ir::seq::RunProgram& program, bool checked, bool assembly) {
  auto text = emit_module(module_builder(program, checked), assembly, program.kernel_name);
  if (!text || !checked) return text;
  auto shadow = emit_module(poison_builder(program), assembly, program.kernel_name);
  if (!shadow) return shadow;
  return *text + "\n" + *shadow;
}
} // namespace

Result<std::string> emit_llvm_ir(const ir::seq::RunProgram& program, bool checked) {
  return emit_text(program, checked, false);
}

Result<std::string> emit_assembly(const ir::seq::RunProgram& program, bool checked) {
  return emit_text(program, checked, true);
}

} // namespace tujit::codegen
