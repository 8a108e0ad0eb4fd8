#include "codegen/contraction_plan.h"

#include "codegen/contraction_emit.h"
#include "codegen/host_target.h"
#include "codegen/jit_run_checks.h"
#include "codegen/poison_run.h"
#include "codegen/stream_widen.h"
#include "ir/seq/field_hash.h"
#include "ir/seq/held_axes.h"

namespace tujit::codegen {
namespace {

// Whether the live slices' writes cover every output element: each live slice whose output
// position is live writes every live output cell of its table (the compiled drain, or zeros when
// an operand slice holds no live cell). Dense disjoint blocks are counted from their bases alone
// (ir/seq/held_axes.h block_coverage).
bool writes_whole_output(const ir::seq::RunProgram& rp, const std::vector<std::uint64_t>& live) {
  return ir::seq::stream_coverage(rp.output, ir::seq::element_count(rp.output.axes), &live)
             .unreached == 0;
}

/// Everything in a plan but the poisoned outputs: the program's and the inputs' types alone.
std::shared_ptr<ContractionPlan> program_parts(const ir::seq::RunProgram& rp,
                                               const runtime::RunInputs& inputs) {
  auto plan = std::make_shared<ContractionPlan>();
  plan->program = rp;
  plan->live = rp.live_slices();
  plan->shape = runtime::exec::staged_shape(rp, byte_dot(native_host_dot()));
  plan->tables = runtime::exec::program_tables(rp, kNoOutput);
  // The TRF tensor's dtype is the program's (check_input_tensors), so the plan holds for every
  // run of the program.
  plan->trf =
      runtime::exec::trf_plan(rp, plan->shape, *inputs.at(rp.contraction().trf.streams.tensor));
  plan->stream_load_bytes = stream_load_bytes(rp.input());
  plan->output_blocks = output_blocks(rp, plan->live);
  plan->writes_whole_output = writes_whole_output(rp, plan->live);
  plan->stream_parts = stream_parts(rp, plan->live);
  plan->simulated_macs = runtime::present_products(rp);
  return plan;
}

/// The plan of running `code` on `rp`: `prepared` when it was made from `rp` and the code has no
/// poison shadow to run (prepared plans take the poisoned outputs from the analysis), else a new
/// one.
Result<std::shared_ptr<const ContractionPlan>>
make_plan(const CompiledContraction& code, const ir::seq::RunProgram& rp,
          const runtime::RunInputs& inputs, std::shared_ptr<const ContractionPlan> prepared) {
  if (rp.is_move()) return run_error("E-JIT-002", "internal: not a JIT-compiled contraction");
  if (prepared && code.poison_function<PoisonFn>() == nullptr &&
      ir::seq::FieldEqual{}(prepared->program, rp))
    return prepared;
  std::shared_ptr<ContractionPlan> plan = program_parts(rp, inputs);
  auto poison = jit_poison(code, rp);
  if (!poison) return std::move(poison).take_diagnostics();
  plan->poison = std::move(*poison);
  return std::shared_ptr<const ContractionPlan>(std::move(plan));
}

} // namespace

std::shared_ptr<const ContractionPlan> prepare_plan(const ir::seq::RunProgram& rp,
                                                    const runtime::RunInputs& inputs) {
  if (rp.is_move() || inputs.count(rp.contraction().trf.streams.tensor) == 0 ||
      inputs.at(rp.contraction().trf.streams.tensor) == nullptr)
    return nullptr; // the run reports what is missing
  std::shared_ptr<ContractionPlan> plan = program_parts(rp, inputs);
  plan->poison = runtime::analyze_poison(rp);
  return plan;
}

Result<PlannedRun> planned_contraction_run(const CompiledContraction& compiled,
                                           const ir::seq::RunProgram& rp,
                                           const runtime::RunInputs& inputs,
                                           std::shared_ptr<const ContractionPlan> prepared) {
  std::shared_ptr<const ContractionPlan> kept = compiled.kept_plan();
  if (kept && ir::seq::FieldEqual{}(kept->program, rp)) {
    if (auto ok = runtime::check_input_tensors(rp, inputs); !ok) return ok.diagnostics();
    return PlannedRun{&compiled, std::move(kept)};
  }
  if (auto ok = checked_jit_run(compiled, rp, inputs); !ok) return ok.diagnostics();
  auto plan = make_plan(compiled, rp, inputs, std::move(prepared));
  if (!plan) return std::move(plan).take_diagnostics();
  compiled.keep_plan(*plan);
  return PlannedRun{&compiled, std::move(*plan)};
}

} // namespace tujit::codegen
