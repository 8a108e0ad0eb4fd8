#include "harness/cycles/chain_part.h"

#include "ir/seq/lower_contraction.h"

#include <fmt/format.h>

namespace tujit::cycles {

namespace {

// A contraction stage's unit is always timed (cycle_stage).
Stage model_stage(ir::StageOp op) {
  return cycle_stage(ir::descriptor(op).unit).value_or(Stage::ContractLane);
}

Diagnostic part_error(std::string message) {
  Diagnostic d = make_error("E-CYCLES-004", std::move(message), std::nullopt,
                            {"this is a bug in tujit: the caller found no contraction chain"});
  d.stage = "cycles";
  return d;
}

} // namespace

std::vector<std::size_t> contraction_stages(const ir::Kernel& kernel, std::size_t chain) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < kernel.stages.size(); ++i)
    if (kernel.stages[i].chain == chain && ir::is_contraction(kernel.stages[i].op))
      out.push_back(i);
  return out;
}

Result<ChainPart> chain_part(const ir::verify::CheckedKernel& checked,
                             const std::vector<std::size_t>& stages) {
  const ir::Kernel& kernel = checked;
  if (stages.empty())
    return part_error(fmt::format("kernel `{}` has no contraction stage to time", kernel.name));
  const ir::Stage& head = kernel.stages[stages.front()];
  const bool outer = head.unit() == ir::StageUnit::ContractOuter;
  if (outer && !head.trf)
    return part_error(fmt::format("kernel `{}` has no contraction stage to time", kernel.name));
  ChainPart part;
  part.options = outer ? cycle_options_for(checked, head) : CycleOptions{};
  part.options.first = model_stage(head.op);
  part.options.last = model_stage(kernel.stages[stages.back()].op);
  // The same program the engines run for this part (the stage verifiers' values, one lowering).
  auto program = ir::seq::lower_contraction(checked, stages.front(), stages.back());
  if (!program) return std::move(program).take_diagnostics();
  part.program = std::move(*program);
  part.complete = part.program.whole();
  // Only a whole chain reads the half of the TRF a concurrent store refills.
  if (!part.complete) part.options.concurrent_store = false;
  return part;
}

} // namespace tujit::cycles
