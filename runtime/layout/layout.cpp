#include "runtime/layout/layout.h"

#include "runtime/layout/held_readback.h"

#include "ir/mapping/factor.h"
#include "ir/seq/address_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

namespace tujit::runtime {

namespace {

using ir::Slot;
using ir::TensorKind;

bool mul_overflows(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > std::numeric_limits<std::uint64_t>::max() / b;
}

// The cells of one image dimension in dense form (ir/seq/address_stream.h slot_coordinates).
using DenseDim = ir::seq::DimCoordinates;

Result<DenseDim> dense_dim(const LayoutDim& dim, const std::vector<ir::Axis>& axes) {
  return ir::seq::slot_coordinates(dim.slots, dim.mappings, dim.size, axes);
}

/// The normal form of the whole image: every slot's mapping paired, major first, in the order
/// the image's positions run (spatial, outer, inner).
ir::FactorList normal_form(const LayoutPlan& plan) {
  ir::FactorList l;
  for (const LayoutDim* d : {&plan.spatial, &plan.outer, &plan.inner})
    for (const ir::Mapping& m : d->mappings) l = ir::pair(l, ir::factorize(m));
  return l;
}

LayoutDim make_dim(const ir::TensorType& type, const std::vector<Slot>& slots) {
  LayoutDim d;
  for (Slot s : slots) {
    d.slots.push_back(s);
    d.mappings.push_back(type.mapping(s));
  }
  return d;
}

} // namespace

std::string LayoutPlan::position_text(std::uint64_t s, std::uint64_t o, std::uint64_t i) const {
  std::string out;
  auto put = [&](const LayoutDim& d, std::uint64_t pos) {
    std::uint64_t minor = d.size;
    for (std::size_t k = 0; k < d.mappings.size(); ++k) {
      minor /= d.mappings[k].size();
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", ir::to_string(d.slots[k]),
                         (pos / minor) % d.mappings[k].size());
    }
  };
  put(spatial, s);
  put(outer, o);
  put(inner, i);
  return out;
}

Result<LayoutPlan> layout_plan(const ir::TensorType& type) {
  LayoutPlan p;
  // The view's dimensions are the Sequencer IR's (one table of which slots make which dimension).
  const ir::seq::ViewDims dims = ir::seq::view_dims(type.kind);
  p.spatial = make_dim(type, dims.spatial);
  p.outer = make_dim(type, dims.outer);
  p.inner = make_dim(type, dims.inner);
  for (LayoutDim* d : {&p.spatial, &p.outer, &p.inner}) {
    d->size = 1;
    for (const auto& m : d->mappings) {
      if (mul_overflows(d->size, m.size()))
        return make_error("E-RUN-003", fmt::format("the layout of {} has too many cells to count",
                                                   ir::to_string(type)));
      d->size *= m.size();
    }
  }
  return p;
}

namespace {

/// An image's dimensions in dense form: spatial, outer, inner.
using DenseDims = std::array<const DenseDim*, 3>;

/// No live cell can overshoot an axis: for every axis, the largest coordinates of the three
/// dimensions sum below its size.
bool cannot_overshoot(const DenseDims& dims, const std::vector<ir::Axis>& axes) {
  const std::size_t na = axes.size();
  for (std::size_t a = 0; a < na; ++a) {
    std::uint64_t total = 0;
    for (const DenseDim* d : dims) {
      std::uint64_t mx = 0;
      for (std::uint64_t p = 0; p < d->size; ++p)
        if (d->state[p] == CellState::Live) mx = std::max(mx, d->coord[p * na + a]);
      total += mx;
    }
    if (total >= axes[a].size) return false;
  }
  return true;
}

/// When no axis can overshoot: a cell's offset is the sum of its dimensions' row-major offsets.
void fill_by_sums(const DenseDims& dims, const std::vector<ir::Axis>& axes, LayoutCells& cells) {
  const std::size_t na = axes.size();
  std::array<std::vector<std::uint64_t>, 3> lin;
  for (std::size_t k = 0; k < 3; ++k) {
    const DenseDim* d = dims[k];
    lin[k].assign(d->size, 0);
    for (std::uint64_t p = 0; p < d->size; ++p) {
      std::uint64_t off = 0;
      for (std::size_t a = 0; a < na; ++a) off = off * axes[a].size + d->coord[p * na + a];
      lin[k][p] = off;
    }
  }
  const DenseDim &ds = *dims[0], &dout = *dims[1], &din = *dims[2];
  const std::uint64_t O = dout.size, I = din.size;
  for (std::uint64_t s = 0; s < ds.size; ++s)
    for (std::uint64_t o = 0; o < O; ++o) {
      CellState so = ds.state[s] != CellState::Live ? ds.state[s] : dout.state[o];
      const std::uint64_t base = lin[0][s] + lin[1][o];
      for (std::uint64_t i = 0; i < I; ++i) {
        const std::uint64_t idx = (s * O + o) * I + i;
        const CellState st = so != CellState::Live ? so : din.state[i];
        cells.state[idx] = st;
        if (st == CellState::Live) cells.offset[idx] = base + lin[2][i];
      }
    }
}

/// Every live cell's coordinates summed axis by axis. Digits of one padded axis held in different
/// slots (`K # 64 / 32` in Time, `K # 64 % 32` in Packet) add up past the axis where the padded
/// axis is padding: the image's normal form decides those cells, as the reference decodes a
/// composite only after summing its digits (furiosa-mapping-types `Index::add_term`, `finalize`).
/// Any other coordinate past its axis is a genuine overshoot, E-RUN-002 (docs/mapping.md §2).
Status fill_by_coordinates(const DenseDims& dims, const std::vector<ir::Axis>& axes,
                           const ir::TensorType& type, const LayoutPlan& plan, LayoutCells& cells) {
  const std::size_t na = axes.size();
  const DenseDim &ds = *dims[0], &dout = *dims[1], &din = *dims[2];
  const std::uint64_t O = dout.size, I = din.size;
  std::vector<std::uint64_t> c(na);
  std::optional<ir::FactorList> whole; // built on the first overshoot
  for (std::uint64_t s = 0; s < ds.size; ++s) {
    for (std::uint64_t o = 0; o < O; ++o) {
      for (std::uint64_t i = 0; i < I; ++i) {
        const std::uint64_t idx = (s * O + o) * I + i;
        // combine: the most major non-index piece wins (docs/mapping.md §2).
        CellState st = ds.state[s];
        if (st == CellState::Live) st = dout.state[o];
        if (st == CellState::Live) st = din.state[i];
        cells.state[idx] = st;
        if (st != CellState::Live) continue;
        std::uint64_t off = 0;
        for (std::size_t a = 0; a < na; ++a) {
          c[a] = ds.coord[s * na + a] + dout.coord[o * na + a] + din.coord[i * na + a];
          if (c[a] < axes[a].size) {
            off = off * axes[a].size + c[a];
            continue;
          }
          if (!whole) whole = normal_form(plan);
          if (const ir::Cell cell = ir::eval(*whole, idx); cell.kind == ir::Cell::Kind::Padding) {
            cells.state[idx] = ir::cell_state_of(cell.padding);
            break;
          }
          return make_error(
              "E-RUN-002",
              fmt::format("the cell at {} of {} overshoots axis {}: coordinate {} is not below "
                          "its size {}",
                          plan.position_text(s, o, i), ir::to_string(type), axes[a].name, c[a],
                          axes[a].size));
        }
        if (cells.state[idx] == CellState::Live) cells.offset[idx] = off;
      }
    }
  }
  return {};
}

} // namespace

void row_major_coordinates(std::uint64_t off, const std::vector<ir::Axis>& axes,
                           std::vector<std::uint64_t>& c) {
  for (std::size_t a = axes.size(); a-- > 0;) {
    c[a] = off % axes[a].size;
    off /= axes[a].size;
  }
}

Result<LayoutCells> layout_cells(const ir::TensorType& type, const std::vector<ir::Axis>& axes,
                                 std::uint64_t max_cells) {
  auto plan = layout_plan(type);
  if (!plan) return std::move(plan).take_diagnostics();
  const std::uint64_t S = plan->spatial.size, O = plan->outer.size, I = plan->inner.size;
  if (mul_overflows(S, O) || mul_overflows(S * O, I) || S * O * I > max_cells)
    return make_error("E-RUN-001",
                      fmt::format("the device image of {} has {} × {} × {} cells, more than the "
                                  "limit of {}",
                                  ir::to_string(type), S, O, I, max_cells));
  auto ds = dense_dim(plan->spatial, axes);
  if (!ds) return std::move(ds).take_diagnostics();
  auto dout = dense_dim(plan->outer, axes);
  if (!dout) return std::move(dout).take_diagnostics();
  auto din = dense_dim(plan->inner, axes);
  if (!din) return std::move(din).take_diagnostics();

  LayoutCells cells;
  cells.offset.assign(S * O * I, 0);
  cells.state.assign(S * O * I, CellState::Live);
  const DenseDims dims = {&*ds, &*dout, &*din};
  if (cannot_overshoot(dims, axes)) {
    fill_by_sums(dims, axes, cells);
  } else if (auto r = fill_by_coordinates(dims, axes, type, *plan, cells); !r) {
    return std::move(r).take_diagnostics();
  }
  cells.plan = std::move(plan).value();
  return cells;
}

Result<LogicalTensor> device_view(const LogicalTensor& t, const ir::TensorType& type,
                                  std::uint64_t max_cells) {
  auto held = operand_held_axes(type, t.axes, max_cells);
  if (!held) return std::move(held).take_diagnostics();
  if (std::all_of(held->begin(), held->end(), [](const HeldAxis& h) { return h.whole(); }))
    return t;
  // Element c reads the held coordinate stride·((c / stride) mod count) of each axis.
  const std::size_t na = t.axes.size();
  LogicalTensor v = t;
  std::vector<std::uint64_t> c(na);
  for (std::uint64_t off = 0; off < t.elements(); ++off) {
    std::uint64_t rest = off, src = 0;
    for (std::size_t a = na; a-- > 0;) {
      c[a] = rest % t.axes[a].size;
      rest /= t.axes[a].size;
    }
    for (std::size_t a = 0; a < na; ++a) {
      const HeldAxis& h = (*held)[a];
      src = src * t.axes[a].size + h.stride * ((c[a] / h.stride) % h.axis.size);
    }
    v.set(off, t.get(src));
  }
  return v;
}

} // namespace tujit::runtime
