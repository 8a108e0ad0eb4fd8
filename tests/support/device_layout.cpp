#include "tests/support/device_layout.h"

#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tujit::testing {
namespace {

using runtime::CellState;
using runtime::DeviceImage;
using runtime::HeldAxis;
using runtime::LayoutPlan;
using runtime::LogicalTensor;

Diagnostic not_held(const ir::TensorType& type, std::string why) {
  return make_error("E-RUN-005",
                    fmt::format("the output {} cannot be read back: {}", ir::to_string(type), why),
                    std::nullopt,
                    {"an output is read back over the coordinates its mappings reach: all of an "
                     "axis, its first r coordinates, or every s-th one (docs/cli.md §6)"});
}

} // namespace

Result<DeviceImage> to_device(const LogicalTensor& t, const ir::TensorType& type,
                              std::uint64_t max_cells) {
  if (t.dtype != type.dtype)
    return make_error("E-RUN-004", fmt::format("a {} tensor cannot be laid out as {}",
                                               ir::name(t.dtype), ir::to_string(type)));
  auto cells = runtime::layout_cells(type, t.axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  DeviceImage img(t.dtype, cells->plan.spatial.size, cells->plan.outer.size,
                  cells->plan.inner.size);
  const std::uint32_t poison = runtime::poison_bits(t.dtype);
  for (std::uint64_t k = 0; k < img.cells(); ++k) {
    img.state[k] = cells->state[k];
    switch (cells->state[k]) {
    case CellState::Live:
      img.bits[k] = t.get(cells->offset[k]);
      break;
    case CellState::Top:
      img.bits[k] = poison;
      break;
    case CellState::Zero:
    case CellState::Bottom:
      img.bits[k] = 0;
      break;
    }
  }
  return img;
}

Result<LogicalTensor> from_device(const DeviceImage& image, const ir::TensorType& type,
                                  const ir::AxisTable& table, std::uint64_t max_cells) {
  auto axes = runtime::tensor_axes(type, table);
  auto cells = runtime::layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  const LayoutPlan& plan = cells->plan;
  if (image.dtype != type.dtype || image.spatial != plan.spatial.size ||
      image.outer != plan.outer.size || image.inner != plan.inner.size ||
      image.bits.size() != image.cells())
    return make_error("E-RUN-004",
                      fmt::format("the device image ({}, {} × {} × {} cells) does not match the "
                                  "layout of {} ({} × {} × {})",
                                  ir::name(image.dtype), image.spatial, image.outer, image.inner,
                                  ir::to_string(type), plan.spatial.size, plan.outer.size,
                                  plan.inner.size));
  auto t = runtime::make_logical_tensor(type.dtype, axes, max_cells);
  if (!t) return std::move(t).take_diagnostics();
  constexpr std::uint64_t kUnwritten = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> writer(t->elements(), kUnwritten); // first cell holding it
  auto cell_text = [&](std::uint64_t k) {
    std::uint64_t i = k % image.inner, o = (k / image.inner) % image.outer,
                  s = k / image.inner / image.outer;
    return plan.position_text(s, o, i);
  };
  for (std::uint64_t k = 0; k < image.cells(); ++k) {
    if (cells->state[k] != CellState::Live) continue;
    const std::uint64_t off = cells->offset[k];
    if (writer[off] == kUnwritten) {
      writer[off] = k;
      t->set(off, image.bits[k]);
    } else if (t->get(off) != image.bits[k]) {
      return make_error(
          "E-RUN-005",
          fmt::format("output element {} is held by two cells with different bits: {:#010x} at "
                      "{} and {:#010x} at {}",
                      t->coordinate_text(off), t->get(off), cell_text(writer[off]), image.bits[k],
                      cell_text(k)));
    }
  }
  for (std::uint64_t off = 0; off < writer.size(); ++off)
    if (writer[off] == kUnwritten)
      return make_error(
          "E-RUN-005",
          fmt::format("output element {} is not held by any live cell of {}",
                      t->coordinate_text(off), ir::to_string(type)),
          std::nullopt,
          {"every coordinate of the output's axes must be produced (docs/cli.md: the output is "
           "the logical tensor over the axes its mappings use); a mapping that holds only some "
           "digits of an axis leaves the others unwritten"});
  return std::move(t).value();
}

Result<LogicalTensor> from_device_held(const DeviceImage& image, const ir::TensorType& type,
                                       const ir::AxisTable& table, std::uint64_t max_cells) {
  const auto axes = runtime::tensor_axes(type, table);
  auto held = runtime::held_axes(type, axes, max_cells);
  if (!held) return std::move(held).take_diagnostics();
  if (std::all_of(held->begin(), held->end(), [](const HeldAxis& h) { return h.whole(); }))
    return from_device(image, type, table, max_cells);
  auto cells = runtime::layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  if (image.dtype != type.dtype || image.cells() != cells->state.size())
    return make_error("E-RUN-004",
                      fmt::format("the device image ({}, {} cells) does not match the layout of {}",
                                  ir::name(image.dtype), image.cells(), ir::to_string(type)));
  std::vector<ir::Axis> out_axes;
  for (const auto& h : *held) out_axes.push_back(h.axis);
  auto t = runtime::make_logical_tensor(type.dtype, out_axes, max_cells);
  if (!t) return std::move(t).take_diagnostics();
  constexpr std::uint64_t kUnwritten = std::numeric_limits<std::uint64_t>::max();
  std::vector<std::uint64_t> writer(t->elements(), kUnwritten);
  std::vector<std::uint64_t> c(axes.size());
  for (std::uint64_t k = 0; k < image.cells(); ++k) {
    if (cells->state[k] != CellState::Live) continue;
    runtime::row_major_coordinates(cells->offset[k], axes, c);
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

Result<LayoutCoverage> layout_coverage(const ir::TensorType& type,
                                       const std::vector<ir::Axis>& axes, std::uint64_t max_cells) {
  auto cells = runtime::layout_cells(type, axes, max_cells);
  if (!cells) return std::move(cells).take_diagnostics();
  auto t = runtime::make_logical_tensor(type.dtype, axes, max_cells);
  if (!t) return std::move(t).take_diagnostics();
  std::vector<bool> seen(t->elements(), false);
  for (std::uint64_t k = 0; k < cells->state.size(); ++k)
    if (cells->state[k] == CellState::Live) seen[cells->offset[k]] = true;
  LayoutCoverage cov;
  for (std::uint64_t off = 0; off < seen.size(); ++off) {
    if (seen[off]) continue;
    if (cov.unreached++ == 0) cov.first_unreached = t->coordinate_text(off);
  }
  return cov;
}

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

} // namespace tujit::testing
