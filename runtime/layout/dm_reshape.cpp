#include "runtime/layout/dm_reshape.h"

#include "runtime/device/device_image.h"
#include "runtime/layout/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace tujit::runtime {
namespace {

constexpr std::uint64_t kNoCell = std::numeric_limits<std::uint64_t>::max();

Diagnostic refused(const ir::TensorType& from, const ir::TensorType& to, std::string why) {
  Diagnostic d = run_error(
      "E-RUN-110",
      fmt::format("tujit run: the reshape of `{}` into `{}` {}", ir::to_string(from),
                  ir::to_string(to), why),
      {"a reshape restates the same DM cells; tujit hands the value on cell by cell and does not "
       "model what DM holds outside the elements a command wrote (docs/kernel-language.md §6.2)"});
  return d;
}

/// The logical tensor a reshape gives, before its values: its axes (those `to` names, each over
/// the coordinates `to` holds, a leading block as a commit's trim leaves it) and, per element
/// (row-major), the DM cell that holds it.
struct Relabel {
  std::vector<ir::Axis> axes;
  std::vector<std::uint64_t> cell;
  LayoutCells from; // `from` laid out over its axes at their sizes in the table
};

/// The Relabel of a reshape from `from` to `to`, checked: one element of `to` is not named at
/// cells holding different elements (a cell that held padding holds its own), and `to` holds a
/// leading block of each axis, every element of it in some cell.
Result<Relabel> relabel(const ir::TensorType& from, const ir::TensorType& to,
                        const ir::AxisTable& table) {
  auto f = layout_cells(from, tensor_axes(from, table));
  if (!f) return std::move(f).take_diagnostics();
  const std::vector<ir::Axis> full = tensor_axes(to, table);
  auto t = layout_cells(to, full);
  if (!t) return std::move(t).take_diagnostics();
  if (f->offset.size() != t->offset.size())
    return refused(from, to, "changes the number of DM cells (E-DM-001)");
  const std::uint64_t inner = t->plan.inner.size;
  const auto where = [&](std::uint64_t i) {
    return t->plan.position_text(i / inner, 0, i % inner);
  };
  Relabel out;
  out.axes = full;
  for (ir::Axis& a : out.axes) a.size = 0;
  std::vector<std::uint64_t> c(full.size());
  for (std::uint64_t i = 0; i < t->offset.size(); ++i) {
    if (t->state[i] != CellState::Live) continue;
    row_major_coordinates(t->offset[i], full, c);
    for (std::size_t k = 0; k < c.size(); ++k)
      out.axes[k].size = std::max(out.axes[k].size, c[k] + 1);
  }
  std::uint64_t elements = 1;
  for (const ir::Axis& a : out.axes) elements *= a.size;
  out.cell.assign(elements, kNoCell);
  for (std::uint64_t i = 0; i < t->offset.size(); ++i) {
    if (t->state[i] != CellState::Live) continue;
    row_major_coordinates(t->offset[i], full, c);
    std::uint64_t e = 0;
    for (std::size_t k = 0; k < c.size(); ++k) e = e * out.axes[k].size + c[k];
    std::uint64_t& at = out.cell[e];
    const bool held = f->state[i] == CellState::Live;
    if (at != kNoCell &&
        (!held || f->state[at] != CellState::Live || f->offset[at] != f->offset[i]))
      return refused(from, to,
                     fmt::format("names one element at {} and at {}, which hold different "
                                 "elements",
                                 where(at), where(i)));
    at = i;
  }
  if (std::find(out.cell.begin(), out.cell.end(), kNoCell) != out.cell.end())
    return refused(from, to,
                   "holds coordinates of an axis that are not its first ones; the elements "
                   "between them are in no cell");
  out.from = std::move(*f);
  return out;
}

} // namespace

Status check_dm_reshape(const ir::TensorType& from, const ir::TensorType& to,
                        const ir::AxisTable& table) {
  auto r = relabel(from, to, table);
  if (!r) return std::move(r).take_diagnostics();
  return {};
}

Result<LogicalTensor> reshape_dm_value(const LogicalTensor& value, const ir::TensorType& from,
                                       const ir::TensorType& to, const ir::AxisTable& table,
                                       std::vector<bool>& undefined) {
  auto r = relabel(from, to, table);
  if (!r) return std::move(r).take_diagnostics();
  const std::vector<ir::Axis> full = tensor_axes(from, table);
  if (full.size() != value.axes.size()) return refused(from, to, "does not hold the value's axes");
  for (std::size_t k = 0; k < full.size(); ++k)
    if (full[k].name != value.axes[k].name || value.axes[k].size > full[k].size)
      return refused(from, to, "does not hold the value's axes");
  auto out =
      make_logical_tensor(value.dtype, r->axes, kDefaultMaxElements, TensorInit::Uninitialised);
  if (!out) return std::move(out).take_diagnostics();
  std::vector<bool> result(r->cell.size(), false);
  std::vector<std::uint64_t> c(full.size());
  for (std::uint64_t e = 0; e < r->cell.size(); ++e) {
    const std::uint64_t i = r->cell[e];
    // Padding, or an element the committing command did not write: whatever DM held there.
    bool written = r->from.state[i] == CellState::Live;
    std::uint64_t at = 0;
    if (written) {
      row_major_coordinates(r->from.offset[i], full, c);
      for (std::size_t k = 0; k < full.size(); ++k) {
        written = written && c[k] < value.axes[k].size;
        at = at * value.axes[k].size + (written ? c[k] : 0);
      }
    }
    if (!written || (!undefined.empty() && undefined[at])) {
      out->set(e, poison_bits(value.dtype));
      result[e] = true;
      continue;
    }
    out->set(e, value.get(at));
  }
  undefined = std::any_of(result.begin(), result.end(), [](bool u) { return u; })
                  ? std::move(result)
                  : std::vector<bool>();
  return out;
}

} // namespace tujit::runtime
