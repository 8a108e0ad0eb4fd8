#include "ir/seq/held_axes.h"

#include "ir/mapping/live_coordinates.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

namespace tujit::ir::seq {
namespace {

Diagnostic not_held(const std::string& what, std::string why) {
  Diagnostic d = make_error(
      "E-RUN-005", fmt::format("the output {} cannot be read back: {}", what, why), std::nullopt,
      {"an output is read back over the coordinates its mappings reach: all of an axis, its first "
       "r coordinates, or every s-th one (docs/cli.md §6)"});
  d.stage = "run";
  return d;
}

/// The distinct coordinates below `size` of axis `a` over the live positions of a dimension, in
/// increasing order (larger ones are overshoot, refused where streams are made).
std::vector<std::uint64_t> live_values(const DimCoordinates& d, std::size_t a, std::uint64_t size) {
  std::vector<bool> present(size, false);
  for (std::uint64_t p = 0; p < d.size; ++p)
    if (d.state[p] == CellState::Live && d.at(p)[a] < size) present[d.at(p)[a]] = true;
  return set_coordinates(present);
}

/// Per axis, the distinct live coordinates below its size of one dimension, increasing.
using AxisValues = std::vector<std::vector<std::uint64_t>>;

/// {a + b : a ∈ x, b ∈ y, a + b < size}, increasing.
std::vector<std::uint64_t> sums_below(const std::vector<std::uint64_t>& x,
                                      const std::vector<std::uint64_t>& y, std::uint64_t size) {
  // {0} + y is y, below size (both sets increase): no bitmap of the axis for the common case.
  const auto below = [size](const std::vector<std::uint64_t>& v) {
    return std::vector<std::uint64_t>(v.begin(), std::lower_bound(v.begin(), v.end(), size));
  };
  if (x.size() == 1 && x[0] == 0) return below(y);
  if (y.size() == 1 && y[0] == 0) return below(x);
  std::vector<bool> present(size, false);
  for (std::uint64_t a : x)
    for (std::uint64_t b : y)
      if (a + b < size) present[a + b] = true;
  return set_coordinates(present);
}

Result<std::vector<HeldAxis>> held_from_values(const std::vector<Axis>& axes,
                                               const std::array<AxisValues, 3>& dims,
                                               const std::string& what) {
  std::vector<HeldAxis> out;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    const Axis& ax = axes[a];
    // Held coordinates: every sum of one live value per dimension (the dimensions are
    // independent); sums past the axis are overshoot, refused where streams are made.
    std::vector<std::uint64_t> sums{0};
    for (const AxisValues& d : dims) sums = sums_below(sums, d[a], ax.size);
    std::vector<bool> reached(ax.size, false);
    for (std::uint64_t c : sums) reached[c] = true;
    auto h = held_axis(ax, reached, what);
    if (!h) return std::move(h).take_diagnostics();
    out.push_back(std::move(*h));
  }
  return out;
}

/// A dimension's live values from its slots' mappings, each taken alone (live_coordinates), with
/// view_coordinates' E-RUN-002.
Result<AxisValues> dim_live_values(const TensorType& type, const std::vector<Slot>& slots,
                                   const std::vector<Axis>& axes) {
  const std::size_t na = axes.size();
  AxisValues values(na, std::vector<std::uint64_t>{0});
  for (Slot slot : slots) {
    const Mapping& m = type.mapping(slot);
    const LiveCoordinates live = live_coordinates(m, axes);
    for (std::size_t c = na; c < live.columns.size(); ++c)
      if (live.beyond[c]) return slot_axis_error(slot, m, live.columns[c]);
    // A slot with no live position leaves its dimension none (no coordinate is set then).
    for (std::size_t a = 0; a < na; ++a)
      values[a] = sums_below(values[a], set_coordinates(live.held[a]), axes[a].size);
  }
  return values;
}

} // namespace

Result<HeldAxis> held_axis(const Axis& ax, const std::vector<bool>& reached,
                           const std::string& what) {
  std::vector<std::uint64_t> r;
  for (std::uint64_t i = 0; i < ax.size; ++i)
    if (reached[i]) r.push_back(i);
  if (r.empty() || r.front() != 0)
    return not_held(what, fmt::format("it never holds coordinate 0 of axis {}", ax.name));
  const std::uint64_t stride = r.size() > 1 ? r[1] : 1, k = r.size();
  for (std::uint64_t i = 0; i < k; ++i)
    if (r[i] != i * stride)
      return not_held(what, fmt::format("the coordinates of {} it holds are not evenly spaced "
                                        "from 0 (e.g. {} after {})",
                                        ax.name, r[i], i ? r[i - 1] : 0));
  HeldAxis h{ax, ax, stride};
  if (stride == 1 && k < ax.size) h.axis.size = k;
  if (stride > 1) {
    h.axis.size = k;
    h.axis.name = stride * k == ax.size ? fmt::format("{} / {}", ax.name, stride)
                                        : fmt::format("{} / {} % {}", ax.name, stride, k);
  }
  return h;
}

std::uint64_t HeldAxis::extent() const {
  return std::min(source.size, stride * axis.size);
}

Result<std::vector<HeldAxis>> held_axes(const ViewCoordinates& v, const std::string& what) {
  std::array<AxisValues, 3> dims;
  const DimCoordinates* d[3] = {&v.spatial, &v.outer, &v.inner};
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t a = 0; a < v.axes.size(); ++a)
      dims[k].push_back(live_values(*d[k], a, v.axes[a].size));
  return held_from_values(v.axes, dims, what);
}

Result<std::vector<HeldAxis>> held_axes(const TensorType& type, const std::vector<Axis>& axes,
                                        std::uint64_t max_positions) {
  const ViewDims view = view_dims(type.kind);
  std::array<AxisValues, 3> dims;
  const std::vector<Slot>* slots[3] = {&view.spatial, &view.outer, &view.inner};
  // Every dimension within the limits before any is evaluated, as view_coordinates does: a kernel
  // too large to run is refused before the per-axis coordinate sets below are allocated.
  for (const std::vector<Slot>* d : slots)
    if (auto size = dimension_size(type, *d, max_positions); !size)
      return std::move(size).take_diagnostics();
  for (std::size_t k = 0; k < 3; ++k) {
    auto values = dim_live_values(type, *slots[k], axes);
    if (!values) return std::move(values).take_diagnostics();
    dims[k] = std::move(*values);
  }
  return held_from_values(axes, dims, to_string(type));
}

std::vector<Axis> held_tensor_axes(const std::vector<HeldAxis>& held) {
  std::vector<Axis> v;
  for (const auto& h : held) v.push_back(h.axis);
  return v;
}

std::vector<std::uint64_t> held_strides(const std::vector<HeldAxis>& held) {
  std::vector<std::uint64_t> v;
  for (const auto& h : held) v.push_back(h.stride);
  return v;
}

namespace {

/// The live spatial positions among `slices` (every position when null), with their bases.
std::vector<std::uint64_t> live_bases(const TensorStreams& s,
                                      const std::vector<std::uint64_t>* slices) {
  std::vector<std::uint64_t> bases;
  const auto take = [&](std::uint64_t sp) {
    if (const CellAddress b = s.spatial.at(sp); b.state == CellState::Live)
      bases.push_back(b.offset);
  };
  if (slices != nullptr)
    for (std::uint64_t sp : *slices) take(sp);
  else
    for (std::uint64_t sp = 0; sp < s.spatial.size(); ++sp) take(sp);
  return bases;
}

} // namespace

std::optional<std::uint64_t> dense_block(const CellStreams& c) {
  if (!c.separable || !c.outer.is_affine() || !c.inner.is_affine()) return std::nullopt;
  if (c.outer.base() != 0 || c.inner.base() != 0) return std::nullopt;
  std::vector<AddressLoop> loops;
  for (const AddressTable* t : {&c.outer, &c.inner})
    for (const AddressLoop& l : t->loops())
      if (l.size > 1) loops.push_back(l);
  std::sort(loops.begin(), loops.end(),
            [](const AddressLoop& a, const AddressLoop& b) { return a.stride < b.stride; });
  std::uint64_t n = 1;
  for (const AddressLoop& l : loops) {
    if (l.stride != static_cast<std::int64_t>(n)) return std::nullopt;
    n *= l.size;
  }
  return n;
}

std::optional<StreamCoverage> block_coverage(const TensorStreams& s, std::uint64_t elements,
                                             const std::vector<std::uint64_t>* slices) {
  const auto n = dense_block(s.cells);
  if (!n) return std::nullopt;
  std::vector<std::uint64_t> bases = live_bases(s, slices);
  std::sort(bases.begin(), bases.end());
  StreamCoverage cov;
  std::uint64_t covered = 0, end = 0;
  bool gap = false;
  for (std::uint64_t b : bases) {
    if (b < end || b > elements || *n > elements - b) return std::nullopt; // overlap or outside
    if (b > end && !gap) {
      cov.first_unreached = end;
      gap = true;
    }
    end = b + *n;
    covered += *n;
  }
  if (!gap && end < elements) cov.first_unreached = end;
  cov.unreached = elements - covered;
  return cov;
}

StreamCoverage walked_coverage(const TensorStreams& s, std::uint64_t elements,
                               const std::vector<std::uint64_t>* slices) {
  StreamCoverage cov;
  // Every offset a live cell writes, counted once per cell. The per-slice cells are expanded once
  // into offsets (kNotLive where a cell is not live) so that the walk over every slice is a
  // gather, not an address evaluation per cell.
  constexpr std::uint64_t kNotLive = ~std::uint64_t{0};
  const CellStreams& c = s.cells;
  std::vector<std::uint64_t> cell(c.outer_size * c.inner_size);
  for (std::uint64_t o = 0, k = 0; o < c.outer_size; ++o)
    for (std::uint64_t i = 0; i < c.inner_size; ++i, ++k) {
      const CellAddress a = c.at(o, i);
      cell[k] = a.state == CellState::Live ? a.offset : kNotLive;
    }
  std::vector<std::uint8_t> seen(elements, 0);
  for (const std::uint64_t base : live_bases(s, slices))
    for (const std::uint64_t off : cell) {
      if (off == kNotLive || base + off >= elements) continue; // refused where made
      std::uint8_t& e = seen[base + off];
      cov.duplicated += e;
      e = 1;
    }
  const auto first = std::find(seen.begin(), seen.end(), std::uint8_t{0});
  if (first != seen.end()) {
    cov.first_unreached = static_cast<std::uint64_t>(first - seen.begin());
    cov.unreached = static_cast<std::uint64_t>(std::count(first, seen.end(), std::uint8_t{0}));
  }
  return cov;
}

StreamCoverage stream_coverage(const TensorStreams& s, std::uint64_t elements,
                               const std::vector<std::uint64_t>* slices) {
  if (auto blocks = block_coverage(s, elements, slices)) return *blocks;
  return walked_coverage(s, elements, slices);
}

} // namespace tujit::ir::seq
