#include "ir/seq/view_streams.h"

#include "ir/mapping/map_table.h"

#include <algorithm>

namespace tujit::ir::seq {
namespace {

/// One factor of a view dimension: its positions as addresses into the logical tensor, and the
/// largest coordinate per axis over its live positions.
struct Factor {
  AddressTable table;
  bool any_live = false;
  std::vector<std::uint64_t> max;
};

/// A view dimension's factors, major first.
using Factors = std::vector<Factor>;

/// The factors of a mapping, major first: its pairs split down to their non-pair operands.
void split_pairs(const Mapping& m, std::vector<const Mapping*>& out) {
  if (m.kind() != Mapping::Kind::Pair) {
    out.push_back(&m);
    return;
  }
  split_pairs(m.lhs(), out);
  split_pairs(m.rhs(), out);
}

/// A factor's positions (map_table), offset row-major by `stride`; nullopt when a position is out
/// of bounds or a live one holds a coordinate on an axis outside `axes` (the general walk reports
/// it when the position meets live positions of the other factors of its slot).
std::optional<Factor> evaluate(const Mapping& m, const std::vector<Axis>& axes,
                               const std::vector<std::uint64_t>& stride) {
  const std::size_t na = axes.size();
  const MappedTable t = map_table(m, axes);
  Factor f;
  f.max.assign(na, 0);
  std::vector<CellAddress> cells(t.size);
  for (std::uint64_t p = 0; p < t.size; ++p) {
    if (t.kind[p] == Cell::Kind::OutOfBounds) return std::nullopt;
    if (t.kind[p] == Cell::Kind::Padding) {
      cells[p] = {0, cell_state_of(t.padding[p])};
      continue;
    }
    const std::uint64_t* c = t.at(p);
    for (std::size_t col = na; col < t.columns.size(); ++col)
      if (c[col] != 0) return std::nullopt;
    std::uint64_t offset = 0;
    for (std::size_t a = 0; a < na; ++a) {
      offset += c[a] * stride[a];
      f.max[a] = std::max(f.max[a], c[a]);
    }
    cells[p] = {offset, CellState::Live};
    f.any_live = true;
  }
  f.table = AddressTable::explicit_cells(std::move(cells));
  return f;
}

std::optional<Factors> factors(const TensorType& type, const std::vector<Slot>& slots,
                               const std::vector<Axis>& axes,
                               const std::vector<std::uint64_t>& stride,
                               std::uint64_t max_positions) {
  auto size = dimension_size(type, slots, max_positions);
  if (!size || *size == 0) return std::nullopt;
  std::vector<const Mapping*> ms;
  for (Slot s : slots) split_pairs(type.mapping(s), ms);
  Factors d;
  for (const Mapping* m : ms) {
    auto f = evaluate(*m, axes, stride);
    if (!f) return std::nullopt;
    d.push_back(std::move(*f));
  }
  return d;
}

/// A position of the dimension is live when each factor's is.
bool any_live(const Factors& d) {
  return std::all_of(d.begin(), d.end(), [](const Factor& f) { return f.any_live; });
}

/// Per axis, the largest coordinate of a live position: the sum of the factors' largest (0 when
/// no position is live).
std::vector<std::uint64_t> max_live(const Factors& d, std::size_t na) {
  std::vector<std::uint64_t> m(na, 0);
  if (!any_live(d)) return m;
  for (const Factor& f : d)
    for (std::size_t a = 0; a < na; ++a) m[a] += f.max[a];
  return m;
}

/// The dimension's table, as AddressTable::explicit_cells makes it from every position. Affine
/// factors give an affine dimension: their loops innermost first, size-1 loops dropped and a loop
/// merged into the one inside it when it continues it (stride = size · inner stride), which is the
/// form explicit_cells finds (it grows each loop while the offsets keep one stride). Otherwise
/// every position is expanded from the factors' addresses, major first.
AddressTable table(const Factors& d) {
  const bool affine =
      std::all_of(d.begin(), d.end(), [](const Factor& f) { return f.table.is_affine(); });
  if (affine) {
    std::uint64_t base = 0;
    std::vector<AddressLoop> loops;
    for (auto f = d.rbegin(); f != d.rend(); ++f) {
      base += f->table.base();
      for (const AddressLoop& l : f->table.loops()) {
        if (l.size == 1) continue;
        if (!loops.empty() &&
            static_cast<std::uint64_t>(l.stride) ==
                static_cast<std::uint64_t>(loops.back().stride) * loops.back().size) {
          loops.back().size *= l.size;
          continue;
        }
        loops.push_back(l);
      }
    }
    return AddressTable::affine(base, std::move(loops));
  }
  std::vector<CellAddress> cells(1); // the empty product: one live position at offset 0
  for (const Factor& f : d) {
    const std::uint64_t n = f.table.size();
    std::vector<CellAddress> next(cells.size() * n);
    for (std::uint64_t i = 0, k = 0; i < cells.size(); ++i)
      for (std::uint64_t j = 0; j < n; ++j, ++k) {
        const CellAddress a = cells[i];
        const CellAddress b = f.table.at(j);
        // docs/mapping.md §2 combine: a non-live major wins, then a non-live minor.
        next[k] = a.state != CellState::Live   ? CellAddress{0, a.state}
                  : b.state != CellState::Live ? CellAddress{0, b.state}
                                               : CellAddress{a.offset + b.offset, CellState::Live};
      }
    cells = std::move(next);
  }
  return AddressTable::explicit_cells(std::move(cells));
}

} // namespace

std::optional<TensorStreams> factored_streams(const std::string& tensor, const TensorType& type,
                                              const std::vector<Axis>& axes,
                                              const std::vector<Axis>& tensor_axes,
                                              std::uint64_t max_positions) {
  const std::size_t na = axes.size();
  if (tensor_axes.size() != na) return std::nullopt;
  const std::vector<std::uint64_t> stride = row_major_strides(tensor_axes);
  const ViewDims dims = view_dims(type.kind);
  auto s = factors(type, dims.spatial, axes, stride, max_positions);
  if (!s) return std::nullopt;
  auto o = factors(type, dims.outer, axes, stride, max_positions);
  if (!o) return std::nullopt;
  auto i = factors(type, dims.inner, axes, stride, max_positions);
  if (!i) return std::nullopt;
  // tensor_streams' checks: some live cell reaches the sum of each dimension's largest live
  // coordinate; past the axis (overshoot, or digits summing into a whole-axis padding) or past
  // the tensor, the general walk decides.
  const bool live = any_live(*s) && any_live(*o) && any_live(*i);
  const auto ms = max_live(*s, na), mo = max_live(*o, na), mi = max_live(*i, na);
  for (std::size_t a = 0; a < na; ++a) {
    const std::uint64_t reach = live ? ms[a] + mo[a] + mi[a] + 1 : 0;
    if (reach > axes[a].size || reach > tensor_axes[a].size) return std::nullopt;
  }
  TensorStreams t;
  t.tensor = tensor;
  t.dtype = type.dtype;
  t.axes = tensor_axes;
  t.spatial = table(*s);
  t.cells.outer = table(*o);
  t.cells.inner = table(*i);
  t.cells.outer_size = t.cells.outer.size();
  t.cells.inner_size = t.cells.inner.size();
  return t;
}

Result<TensorStreams> view_streams(const std::string& tensor, const TensorType& type,
                                   const std::vector<Axis>& axes,
                                   const std::vector<Axis>& tensor_axes,
                                   std::uint64_t max_positions) {
  if (auto t = factored_streams(tensor, type, axes, tensor_axes, max_positions)) return *t;
  auto coords = view_coordinates(type, axes, max_positions);
  if (!coords) return std::move(coords).take_diagnostics();
  return tensor_streams(tensor, type.dtype, *coords, tensor_axes);
}

} // namespace tujit::ir::seq
