#include "runtime/layout/held_readback.h"

#include "runtime/layout/layout.h"

#include <fmt/format.h>

#include <unordered_set>

namespace tujit::runtime {

Result<std::vector<HeldAxis>>
held_axes(const ir::TensorType& type, const std::vector<ir::Axis>& axes, std::uint64_t max_cells) {
  auto cells = layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  std::vector<std::vector<bool>> reached(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) reached[a].assign(axes[a].size, false);
  std::vector<std::uint64_t> c(axes.size());
  for (std::uint64_t k = 0; k < cells->state.size(); ++k) {
    if (cells->state[k] != CellState::Live) continue;
    row_major_coordinates(cells->offset[k], axes, c);
    for (std::size_t a = 0; a < axes.size(); ++a) reached[a][c[a]] = true;
  }
  std::vector<HeldAxis> out;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    auto h = ir::seq::held_axis(axes[a], reached[a], ir::to_string(type));
    if (!h) return std::move(h).take_diagnostics();
    out.push_back(std::move(*h));
  }
  return out;
}

Result<std::vector<HeldAxis>> operand_held_axes(const ir::TensorType& type,
                                                const std::vector<ir::Axis>& axes,
                                                std::uint64_t max_cells) {
  auto held = held_axes(type, axes, max_cells);
  const auto refuse = [&](const std::string& why) {
    return make_error("E-RUN-006", fmt::format("{} {}", ir::to_string(type), why));
  };
  if (!held) return refuse(held.diagnostics().front().message);
  auto cells = layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  std::uint64_t box = 1;
  for (const auto& h : *held) box *= h.axis.size;
  std::unordered_set<std::uint64_t> distinct;
  for (std::uint64_t k = 0; k < cells->state.size(); ++k)
    if (cells->state[k] == CellState::Live) distinct.insert(cells->offset[k]);
  if (distinct.size() != box)
    return refuse(fmt::format("holds {} logical elements, not the {} combinations of the "
                              "coordinates it holds per axis",
                              distinct.size(), box));
  return held;
}

} // namespace tujit::runtime
