#include "runtime/engine/result_diff.h"

#include <fmt/format.h>

namespace tujit::runtime {

std::optional<std::string> first_image_difference(const DeviceImage& x, const DeviceImage& y,
                                                  std::string_view what, std::string_view outer,
                                                  std::string_view inner) {
  if (x.dtype != y.dtype || x.spatial != y.spatial || x.outer != y.outer || x.inner != y.inner ||
      x.bits.size() != y.bits.size() || x.state.size() != y.state.size())
    return fmt::format("the {}s differ in type or shape: {} [{}][{}][{}] vs {} [{}][{}][{}]", what,
                       ir::name(x.dtype), x.spatial, x.outer, x.inner, ir::name(y.dtype), y.spatial,
                       y.outer, y.inner);
  for (std::uint64_t i = 0; i < x.bits.size(); ++i) {
    if (x.bits[i] == y.bits[i] && x.state[i] == y.state[i]) continue;
    const std::uint64_t per_slice = x.outer * x.inner;
    return fmt::format("{} cell (slice {}, {} {}, {} {}) holds 0x{:08X} vs 0x{:08X}{}", what,
                       i / per_slice, outer, (i % per_slice) / x.inner, inner, i % x.inner,
                       x.bits[i], y.bits[i],
                       x.state[i] != y.state[i] ? " (cell states differ)" : "");
  }
  return std::nullopt;
}

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
