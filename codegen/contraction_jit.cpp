// ContractionJit on the JIT core (jit_core.h): each run program's object comes from the cache or
// from the compile backend (compile_backend.h: emitted by contraction_emit.cpp, move_emit.cpp or
// partial_emit.cpp, optimised, compiled), is cached on disk and placed by the object loader
// (object_loader.h) in memory of its own, which the CompiledContraction frees when it dies.
#include "codegen/contraction_jit.h"

#include "codegen/compile_backend.h"
#include "codegen/contraction_emit.h"
#include "codegen/jit_core.h"
#include "codegen/move_emit.h"
#include "codegen/poison_emit.h"

namespace tujit::codegen {
namespace {

constexpr JitProgramKind kContractionKind{"tujit run object; codegen", kCodegenVersion,
                                          kContractionSymbol};
constexpr JitProgramKind kMoveKind{"tujit run object; codegen", kCodegenVersion, kMoveSymbol};
constexpr JitProgramKind kPoisonKind{"tujit poison shadow; codegen", kCodegenVersion,
                                     kPoisonSymbol};

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
  const bool checked = core_->checked();
  // The backend is loaded only when an object must be made (a cache miss).
  auto object = core_->compile(
      move ? kMoveKind : kContractionKind, ir::seq::fingerprint(program),
      [&]() -> Result<std::string> {
        auto backend = compile_backend();
        if (!backend) return backend.diagnostics();
        return (*backend)->run_object(program, checked);
      },
      program.kernel_name);
  if (!object) return object.diagnostics();
  // The JIT's own poisoned set (poison_emit.h), which `--verify` compares with the analysis's.
  LinkedFunction shadow;
  if (core_->poison_shadow()) {
    auto compiled = core_->compile(
        kPoisonKind, ir::seq::fingerprint(program),
        [&]() -> Result<std::string> {
          auto backend = compile_backend();
          if (!backend) return backend.diagnostics();
          return (*backend)->poison_object(program);
        },
        program.kernel_name);
    if (!compiled) return compiled.diagnostics();
    shadow = std::move(compiled->fn);
  }
  return std::shared_ptr<const CompiledContraction>(std::make_shared<CompiledContraction>(
      object->stats, std::move(object->fn), std::move(shadow)));
}

Result<std::string> emit_llvm_ir(const ir::seq::RunProgram& program, bool checked) {
  auto backend = compile_backend();
  if (!backend) return backend.diagnostics();
  return (*backend)->emit_text(program, checked, false);
}

Result<std::string> emit_assembly(const ir::seq::RunProgram& program, bool checked) {
  auto backend = compile_backend();
  if (!backend) return backend.diagnostics();
  return (*backend)->emit_text(program, checked, true);
}

} // namespace tujit::codegen
