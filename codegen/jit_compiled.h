// The compiled programs of the LLVM back end: one owner of linked code for every program kind
// (JitCompiledProgram), the run program's (JitCompiledContraction, with its poison shadow when
// asked for) shared by the compiler (contraction_jit.cpp) and the runners
// (contraction_run.cpp, partial_run.cpp, move_run.cpp), with the checks the runners make.
// Internal to codegen/.
#pragma once

#include "codegen/contraction_emit.h"
#include "codegen/contraction_jit.h"
#include "codegen/jit_core.h"
#include "codegen/move_emit.h"
#include "codegen/native_compiler.h"
#include "codegen/poison_emit.h"

#include <memory>
#include <mutex>
#include <string>

namespace tujit::codegen {

struct ContractionPlan; // contraction_plan.h

/// A program compiled by the JIT core (jit_core.h) behind its kind's interface
/// (CompiledContraction, CompiledFetch): owns the linked code and frees it when it dies.
template <class Interface>
class JitCompiledProgram : public Interface {
public:
  JitCompiledProgram(JitObject object, bool checked, std::string kernel)
      : stats_(object.stats), fn_(std::move(object.fn)), checked_(checked),
        kernel_(std::move(kernel)) {}
  ~JitCompiledProgram() override {
    if (fn_.release) fn_.release();
  }
  JitCompiledProgram(const JitCompiledProgram&) = delete;
  JitCompiledProgram& operator=(const JitCompiledProgram&) = delete;

  const CompileStats& stats() const override { return stats_; }
  bool checked() const { return checked_; }
  const std::string& kernel_name() const { return kernel_; }

protected:
  template <typename Fn>
  Fn as() const {
    return fn_.as<Fn>();
  }

private:
  CompileStats stats_;
  LinkedFunction fn_;
  bool checked_;
  std::string kernel_;
};

class JitCompiledContraction final : public JitCompiledProgram<CompiledContraction> {
public:
  /// `shadow`: the program's poison shadow (poison_emit.h) when JitCore::poison_shadow.
  JitCompiledContraction(JitObject object, bool checked, std::string kernel,
                         LinkedFunction shadow = {})
      : JitCompiledProgram(std::move(object), checked, std::move(kernel)),
        shadow_(std::move(shadow)) {}
  ~JitCompiledContraction() override {
    if (shadow_.release) shadow_.release();
  }
  ContractionFn function() const { return as<ContractionFn>(); }
  MoveFn move_function() const { return as<MoveFn>(); }
  /// The poison shadow, or null (the run reports runtime::analyze_poison's set).
  PoisonFn poison_function() const {
    return shadow_.address != 0 ? shadow_.as<PoisonFn>() : nullptr;
  }
  /// The plan of the program this code ran last (contraction_plan.h), or null. Runs of one code
  /// may be concurrent: each takes its own reference.
  std::shared_ptr<const ContractionPlan> kept_plan() const {
    std::lock_guard<std::mutex> lock(plan_mu_);
    return plan_;
  }
  void keep_plan(std::shared_ptr<const ContractionPlan> plan) const {
    std::lock_guard<std::mutex> lock(plan_mu_);
    plan_ = std::move(plan);
  }

private:
  LinkedFunction shadow_;
  mutable std::mutex plan_mu_;
  mutable std::shared_ptr<const ContractionPlan> plan_;
};

/// What both runners check before they call compiled code (jit_run_checks.cpp): `compiled` is
/// this back end's code for exactly `rp` (its fingerprint), of the program's kind, the inputs
/// are the program's, and no two output cells hold one element (E-RUN-110: only the interpreter
/// checks such outputs). The JIT code of `rp`, or the diagnostics.
Result<const JitCompiledContraction*> checked_jit_run(const CompiledContraction& compiled,
                                                      const ir::seq::RunProgram& rp,
                                                      const runtime::RunInputs& inputs);

/// E-JIT-003: checked code stopped an out-of-bounds access of `rp`.
Diagnostic out_of_bounds_error(const ir::seq::RunProgram& rp);

} // namespace tujit::codegen
