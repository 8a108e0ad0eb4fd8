#include "runtime/engine/result_diff.h"

#include <fmt/format.h>

namespace tujit::runtime {

std::optional<std::string> first_tensor_difference(const LogicalTensor& x, const LogicalTensor& y,
                                                   std::string_view what) {
  if (x.dtype != y.dtype || x.axes != y.axes)
    return fmt::format("the {}s differ in type or shape: {} {} vs {} {}", what, ir::name(x.dtype),
                       axes_text(x.axes), ir::name(y.dtype), axes_text(y.axes));
  for (std::uint64_t i = 0; i < x.elements(); ++i)
    if (x.get(i) != y.get(i))
      return fmt::format("{} element ({}) holds 0x{:08X} vs 0x{:08X}", what, x.coordinate_text(i),
                         x.get(i), y.get(i));
  return std::nullopt;
}

std::optional<std::string> first_difference(const RunResult& a, const RunResult& b) {
  if (auto d = first_tensor_difference(a.output, b.output)) return d;
  if (auto d = first_poison_difference(a.poison, b.poison)) return d;
  if (a.simulated_macs != b.simulated_macs)
    return fmt::format("the simulated MAC counts differ: {} vs {}", a.simulated_macs,
                       b.simulated_macs);
  return std::nullopt;
}

} // namespace tujit::runtime
