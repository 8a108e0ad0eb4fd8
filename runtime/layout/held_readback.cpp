#include "runtime/layout/held_readback.h"

#include "runtime/layout/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace tujit::runtime {
namespace {

Diagnostic not_held(const ir::TensorType& type, std::string why) {
  return make_error("E-RUN-005",
                    fmt::format("the output {} cannot be read back: {}", ir::to_string(type), why),
                    std::nullopt,
                    {"an output is read back over the coordinates its mappings reach: all of an "
                     "axis, its first r coordinates, or every s-th one (docs/cli.md §6)"});
}

/// Coordinates of row-major `off` over `axes`.
void coordinates(std::uint64_t off, const std::vector<ir::Axis>& axes,
                 std::vector<std::uint64_t>& c) {
  for (std::size_t a = axes.size(); a-- > 0;) {
    c[a] = off % axes[a].size;
    off /= axes[a].size;
  }
}

} // namespace

Result<std::vector<HeldAxis>>
held_axes(const ir::TensorType& type, const std::vector<ir::Axis>& axes, std::uint64_t max_cells) {
  auto cells = layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  std::vector<std::vector<bool>> reached(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) reached[a].assign(axes[a].size, false);
  std::vector<std::uint64_t> c(axes.size());
  for (std::uint64_t k = 0; k < cells->state.size(); ++k) {
    if (cells->state[k] != CellState::Live) continue;
    coordinates(cells->offset[k], axes, c);
    for (std::size_t a = 0; a < axes.size(); ++a) reached[a][c[a]] = true;
  }
  std::vector<HeldAxis> out;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const ir::Axis& ax = axes[a];
    std::vector<std::uint64_t> r;
    for (std::uint64_t i = 0; i < ax.size; ++i)
      if (reached[a][i]) r.push_back(i);
    if (r.empty() || r.front() != 0)
      return not_held(type, fmt::format("it never holds coordinate 0 of axis {}", ax.name));
    const std::uint64_t stride = r.size() > 1 ? r[1] : 1, k = r.size();
    for (std::uint64_t i = 0; i < k; ++i)
      if (r[i] != i * stride)
        return not_held(type, fmt::format("the coordinates of {} it holds are not evenly spaced "
                                          "from 0 (e.g. {} after {})",
                                          ax.name, r[i], i ? r[i - 1] : 0));
    HeldAxis h{ax, ax, stride};
    if (stride == 1 && k < ax.size) h.axis.size = k;
    if (stride > 1) {
      h.axis.size = k;
      h.axis.name = stride * k == ax.size ? fmt::format("{} / {}", ax.name, stride)
                                          : fmt::format("{} / {} % {}", ax.name, stride, k);
    }
    out.push_back(std::move(h));
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

Result<LogicalTensor> from_device_held(const DeviceImage& image, const ir::TensorType& type,
                                       const ir::AxisTable& table, std::uint64_t max_cells) {
  const auto axes = tensor_axes(type, table);
  auto held = held_axes(type, axes, max_cells);
  if (!held) return std::move(held).take_diagnostics();
  if (std::all_of(held->begin(), held->end(), [](const HeldAxis& h) { return h.whole(); }))
    return from_device(image, type, table, max_cells);
  auto cells = layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  if (image.dtype != type.dtype || image.cells() != cells->state.size())
    return make_error("E-RUN-004",
                      fmt::format("the device image ({}, {} cells) does not match the layout of {}",
                                  ir::name(image.dtype), image.cells(), ir::to_string(type)));
  std::vector<ir::Axis> out_axes;
  for (const auto& h : *held) out_axes.push_back(h.axis);
  auto t = make_logical_tensor(type.dtype, out_axes, max_cells);
  if (!t) return std::move(t).take_diagnostics();
  constexpr std::uint64_t kUnwritten = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> writer(t->elements(), kUnwritten);
  std::vector<std::uint64_t> c(axes.size());
  for (std::uint64_t k = 0; k < image.cells(); ++k) {
    if (cells->state[k] != CellState::Live) continue;
    coordinates(cells->offset[k], axes, c);
    std::uint64_t off = 0;
    for (std::size_t a = 0; a < axes.size(); ++a)
      off = off * out_axes[a].size + c[a] / (*held)[a].stride;
    if (writer[off] == kUnwritten) {
      writer[off] = k;
      t->set(off, image.bits[k]);
    } else if (t->get(off) != image.bits[k]) {
      return not_held(type, fmt::format("element {} is held by two cells with different bits",
                                        t->coordinate_text(off)));
    }
  }
  for (std::uint64_t off = 0; off < writer.size(); ++off)
    if (writer[off] == kUnwritten)
      return not_held(type, fmt::format("element {} of the held coordinates is not produced",
                                        t->coordinate_text(off)));
  return std::move(t).value();
}

} // namespace tujit::runtime
