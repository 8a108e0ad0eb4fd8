#include "runtime/interp/result_diff.h"

#include <fmt/format.h>

namespace tujit::runtime {

std::optional<std::string> first_difference(const ContractionResult& a,
                                            const ContractionResult& b) {
  const DeviceImage& x = a.output;
  const DeviceImage& y = b.output;
  if (x.dtype != y.dtype || x.spatial != y.spatial || x.outer != y.outer || x.inner != y.inner ||
      x.bits.size() != y.bits.size() || x.state.size() != y.state.size())
    return fmt::format("the outputs differ in type or shape: {} [{}][{}][{}] vs {} [{}][{}][{}]",
                       ir::name(x.dtype), x.spatial, x.outer, x.inner, ir::name(y.dtype), y.spatial,
                       y.outer, y.inner);
  for (std::uint64_t i = 0; i < x.bits.size(); ++i) {
    if (x.bits[i] == y.bits[i] && x.state[i] == y.state[i]) continue;
    const std::uint64_t per_slice = x.outer * x.inner;
    return fmt::format("output cell (slice {}, T3 {}, P3 {}) holds 0x{:08X} vs 0x{:08X}{}",
                       i / per_slice, (i % per_slice) / x.inner, i % x.inner, x.bits[i], y.bits[i],
                       x.state[i] != y.state[i] ? " (cell states differ)" : "");
  }
  if (a.poison.poisoned_outputs != b.poison.poisoned_outputs ||
      a.poison.first_poisoned != b.poison.first_poisoned)
    return fmt::format("the poison reports differ: {} vs {} poisoned outputs",
                       a.poison.poisoned_outputs, b.poison.poisoned_outputs);
  if (a.simulated_macs != b.simulated_macs)
    return fmt::format("the simulated MAC counts differ: {} vs {}", a.simulated_macs,
                       b.simulated_macs);
  return std::nullopt;
}

} // namespace tujit::runtime
