#include "harness/ci/cycle_budget.h"

#include "harness/cycles/kernel_cycles.h"

#include <fmt/format.h>

namespace tujit::ci {

std::optional<Diagnostic> check_cycle_budget(const ir::Kernel& kernel, std::uint64_t analytic_total,
                                             std::uint64_t budget, SourceSpan where) {
  if (analytic_total <= budget) return std::nullopt;
  Diagnostic d = make_error(
      "E-CYCLES-003",
      fmt::format("kernel `{}` needs {} cycles (analytic model), over its budget of {}",
                  kernel.name, analytic_total, budget),
      where,
      {fmt::format("{} cycles over budget ({:.1f} %)", analytic_total - budget,
                   100.0 * static_cast<double>(analytic_total - budget) /
                       static_cast<double>(budget)),
       "`tujit cycles` shows each stage's cycles and the bottleneck (docs/cycle-model.md)"});
  d.stage = "cycles";
  return d;
}

Result<std::uint64_t> analytic_total(const ir::verify::CheckedKernel& kernel, SourceSpan where) {
  auto timed = cycles::kernel_cycles(kernel);
  if (!timed) {
    std::vector<std::string> notes;
    for (const auto& d : timed.diagnostics()) notes.push_back(d.message);
    Diagnostic d = make_error(
        "E-CYCLES-001",
        fmt::format("kernel `{}` has a cycle budget but no command the cycle models time",
                    kernel.kernel().name),
        where, std::move(notes));
    d.stage = "cycles";
    return d;
  }
  return cycles::budget_cycles(*timed);
}

} // namespace tujit::ci
