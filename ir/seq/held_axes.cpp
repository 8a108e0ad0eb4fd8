#include "ir/seq/held_axes.h"

#include <fmt/format.h>

#include <algorithm>

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
  std::vector<std::uint64_t> v;
  for (std::uint64_t c = 0; c < size; ++c)
    if (present[c]) v.push_back(c);
  return v;
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
  std::vector<HeldAxis> out;
  for (std::size_t a = 0; a < v.axes.size(); ++a) {
    const Axis& ax = v.axes[a];
    // Held coordinates: every sum of one live value per dimension (the dimensions are
    // independent); sums past the axis are overshoot, refused where streams are made.
    std::vector<bool> reached(ax.size, false);
    reached[0] = true;
    bool any = true;
    for (const DimCoordinates* d : {&v.spatial, &v.outer, &v.inner}) {
      const auto vals = live_values(*d, a, ax.size);
      any = any && !vals.empty();
      std::vector<bool> next(ax.size, false);
      for (std::uint64_t r = 0; r < ax.size; ++r)
        if (reached[r])
          for (std::uint64_t c : vals)
            if (r + c < ax.size) next[r + c] = true;
      reached = std::move(next);
    }
    if (!any) reached.assign(ax.size, false);
    auto h = held_axis(ax, reached, what);
    if (!h) return std::move(h).take_diagnostics();
    out.push_back(std::move(*h));
  }
  return out;
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

StreamCoverage stream_coverage(const TensorStreams& s, std::uint64_t elements) {
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
  for (std::uint64_t sp = 0; sp < s.spatial.size(); ++sp) {
    const CellAddress base = s.spatial.at(sp);
    if (base.state != CellState::Live) continue;
    for (const std::uint64_t off : cell) {
      if (off == kNotLive || base.offset + off >= elements) continue; // refused where made
      std::uint8_t& e = seen[base.offset + off];
      cov.duplicated += e;
      e = 1;
    }
  }
  const auto first = std::find(seen.begin(), seen.end(), std::uint8_t{0});
  if (first != seen.end()) {
    cov.first_unreached = static_cast<std::uint64_t>(first - seen.begin());
    cov.unreached = static_cast<std::uint64_t>(std::count(first, seen.end(), std::uint8_t{0}));
  }
  return cov;
}

} // namespace tujit::ir::seq
