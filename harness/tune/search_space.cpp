#include "harness/tune/search_space.h"

#include "ir/target/rngd.h"

#include <algorithm>
#include <numeric>

namespace tujit::tune {

namespace {

constexpr const target::TensorUnitDescription& kTu = target::kRngd;

std::vector<std::uint64_t> divisors(std::uint64_t n) {
  std::vector<std::uint64_t> small, large;
  for (std::uint64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    small.push_back(d);
    if (d != n / d) large.push_back(n / d);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

std::uint64_t next_pow2(std::uint64_t n) {
  std::uint64_t p = 1;
  while (p < n) p *= 2;
  return p;
}

std::uint64_t factorial(std::uint64_t n) {
  std::uint64_t f = 1;
  for (std::uint64_t i = 2; i <= n; ++i) f *= i;
  return f;
}

// Every combination of one value per listed axis from its options whose product stays ≤ limit,
// in odometer order (the last axis fastest).
template <class F>
void products(const std::vector<std::size_t>& axes,
              const std::vector<std::vector<std::uint64_t>>& options, std::uint64_t limit,
              std::uint64_t* over, const F& f) {
  std::vector<std::uint64_t> pick(axes.size(), 1);
  const auto rec = [&](auto&& self, std::size_t i, std::uint64_t product) -> void {
    if (i == axes.size()) {
      f(pick, product);
      return;
    }
    for (std::uint64_t v : options[i]) {
      if (product * v > limit) {
        ++*over;
        continue;
      }
      pick[i] = v;
      self(self, i + 1, product * v);
    }
  };
  rec(rec, 0, 1);
}

// The TRF rows OutTime walks for a Time order and PackSize: TRF-axis Time digits (the innermost
// one less its packed cells) and the time broadcasts (candidate.h).
std::uint8_t row_count(const Problem& p, const Choice& c) {
  std::uint8_t r = 0;
  for (std::size_t a = 0; a < p.axes.size(); ++a) {
    const AxisPieces& x = c.pieces[a];
    if (p.axes[a].role == AxisRole::Col) {
      if (x.time > 1) ++r;
      continue;
    }
    if (!p.in_trf(a) || x.time <= 1) continue;
    const bool innermost = c.time_count > 0 && c.time_order[c.time_count - 1] == a;
    if (!(innermost && x.time == c.pack_size)) ++r;
  }
  return r;
}

// Calls f(choice with time order and PackSize set) for each legal pair, in order; counts the
// PackSize-2 choices without an even innermost Time digit into *odd_pack.
template <class F>
void for_time_and_pack(const Problem& p, const Block& b, std::uint64_t* odd_pack, const F& f) {
  Choice c = b.base;
  c.time_count = 0;
  for (std::size_t a = 0; a < p.axes.size(); ++a)
    if (p.in_stream(a) && c.pieces[a].time > 1)
      c.time_order[c.time_count++] = static_cast<std::uint8_t>(a);
  do {
    for (std::uint8_t ps = 1; ps <= kTu.max_pack_size; ++ps) {
      if (ps > 1) {
        const bool even =
            c.time_count > 0 && c.pieces[c.time_order[c.time_count - 1]].time % ps == 0;
        if (!even) {
          if (odd_pack) ++*odd_pack;
          continue;
        }
      }
      c.pack_size = ps;
      c.row_count = row_count(p, c);
      f(c);
    }
  } while (std::next_permutation(c.time_order.begin(), c.time_order.begin() + c.time_count));
}

constexpr std::uint64_t kModes = 2;

} // namespace

SearchSpace make_search_space(const Problem& p) {
  SearchSpace s;
  const std::size_t n = p.axes.size();
  std::vector<std::size_t> spatial_axes, col_axes, stream_axes;
  for (std::size_t a = 0; a < n; ++a) {
    if (p.in_output(a)) spatial_axes.push_back(a);
    if (p.axes[a].role == AxisRole::Col) col_axes.push_back(a);
    if (p.in_stream(a)) stream_axes.push_back(a);
  }
  const std::uint64_t max_slices =
      std::uint64_t{kTu.clusters_per_chip} * kTu.slices_per_cluster; // 2 × 256
  const std::uint64_t fe = ir::flit_elements(p.stream_type);
  std::uint64_t over_slices = 0, over_lanes = 0, over_packet = 0, no_cluster = 0, odd_pack = 0;

  std::vector<std::vector<std::uint64_t>> spatial_opts;
  for (std::size_t a : spatial_axes) spatial_opts.push_back(divisors(p.axes[a].axis.size));
  products(spatial_axes, spatial_opts, max_slices, &over_slices,
           [&](const std::vector<std::uint64_t>& sp, std::uint64_t live) {
             Choice base;
             for (std::size_t a = 0; a < n; ++a) base.pieces[a] = AxisPieces{};
             bool cluster_placed = live <= kTu.slices_per_cluster;
             for (std::size_t i = 0; i < spatial_axes.size(); ++i) {
               AxisPieces& x = base.pieces[spatial_axes[i]];
               x.slice = sp[i];
               if (!cluster_placed && sp[i] % 2 == 0) {
                 x.cluster = 2;
                 x.slice = sp[i] / 2;
                 cluster_placed = true;
               }
             }
             if (!cluster_placed) {
               ++no_cluster;
               return;
             }
             std::vector<std::vector<std::uint64_t>> lane_opts;
             for (std::size_t a : col_axes)
               lane_opts.push_back(
                   divisors(p.axes[a].axis.size / base.pieces[a].slice / base.pieces[a].cluster));
             products(col_axes, lane_opts, kTu.lanes, &over_lanes,
                      [&](const std::vector<std::uint64_t>& ln, std::uint64_t lanes) {
                        if (next_pow2(lanes) > kTu.lanes) {
                          ++over_lanes;
                          return;
                        }
                        Choice with_lanes = base;
                        for (std::size_t i = 0; i < col_axes.size(); ++i) {
                          AxisPieces& x = with_lanes.pieces[col_axes[i]];
                          x.lane = ln[i];
                          x.time = p.axes[col_axes[i]].axis.size / (x.cluster * x.slice * x.lane);
                        }
                        std::vector<std::vector<std::uint64_t>> packet_opts;
                        for (std::size_t a : stream_axes) {
                          const AxisPieces& x = with_lanes.pieces[a];
                          packet_opts.push_back(
                              divisors(p.axes[a].axis.size / (x.cluster * x.slice)));
                        }
                        products(stream_axes, packet_opts, fe, &over_packet,
                                 [&](const std::vector<std::uint64_t>& pk, std::uint64_t) {
                                   Block b;
                                   b.base = with_lanes;
                                   for (std::size_t i = 0; i < stream_axes.size(); ++i) {
                                     AxisPieces& x = b.base.pieces[stream_axes[i]];
                                     x.packet = pk[i];
                                     x.time = p.axes[stream_axes[i]].axis.size /
                                              (x.cluster * x.slice * x.packet);
                                   }
                                   b.live_slices = live;
                                   for (std::size_t a : stream_axes)
                                     b.stream_flits *= b.base.pieces[a].time;
                                   b.trf_cells = next_pow2(lanes);
                                   for (std::size_t a = 0; a < n; ++a) {
                                     const AxisPieces& x = b.base.pieces[a];
                                     if (p.in_trf(a)) b.trf_cells *= x.time * x.packet;
                                   }
                                   s.blocks.push_back(b);
                                 });
                      });
           });
  // Most live slices first, then fewest stream flits (the stream's flits bound the cycles), then
  // the smallest TRF share (the ranking's tie-break): a budget-limited run meets the fast kernels
  // early, and the bound skips more. Ties keep the generation order.
  std::stable_sort(s.blocks.begin(), s.blocks.end(), [](const Block& a, const Block& b) {
    if (a.live_slices != b.live_slices) return a.live_slices > b.live_slices;
    if (a.stream_flits != b.stream_flits) return a.stream_flits < b.stream_flits;
    return a.trf_cells < b.trf_cells;
  });
  for (Block& b : s.blocks) {
    b.first_index = s.size;
    b.count = 0;
    for_time_and_pack(p, b, &odd_pack,
                      [&](const Choice& c) { b.count += factorial(c.row_count) * kModes; });
    s.size += b.count;
  }
  const auto note = [&](const char* code, std::uint64_t v) {
    if (v > 0) s.pruned[code] += v;
  };
  note("E-HW-002", over_slices);
  note("E-HW-001", no_cluster);
  note("E-OUTER-002", over_lanes);
  note("E-HW-004", over_packet);
  note("E-OUTER-005", odd_pack);
  return s;
}

std::uint64_t expand(const Problem& p, const Block& block,
                     const std::function<bool(const Choice&)>& emit) {
  std::uint64_t index = block.first_index, emitted = 0;
  bool go = true;
  for_time_and_pack(p, block, nullptr, [&](const Choice& tp) {
    if (!go) return;
    Choice c = tp;
    std::iota(c.row_order.begin(), c.row_order.begin() + c.row_count, std::uint8_t{0});
    do {
      for (ir::LaneMode mode : {ir::LaneMode::Interleaved, ir::LaneMode::Sequential}) {
        c.mode = mode;
        c.index = index++;
        ++emitted;
        if (!emit(c)) {
          go = false;
          return;
        }
      }
    } while (std::next_permutation(c.row_order.begin(), c.row_order.begin() + c.row_count));
  });
  return emitted;
}

Choice choice_at(const Problem& p, const SearchSpace& space, std::uint64_t index) {
  auto it = std::upper_bound(space.blocks.begin(), space.blocks.end(), index,
                             [](std::uint64_t i, const Block& b) { return i < b.first_index; });
  Choice found;
  if (it == space.blocks.begin()) return found;
  expand(p, *(it - 1), [&](const Choice& c) {
    found = c;
    return c.index < index;
  });
  return found;
}

} // namespace tujit::tune
