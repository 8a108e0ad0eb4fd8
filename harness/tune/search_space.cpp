#include "harness/tune/search_space.h"

#include "ir/support/stable_sort.h"
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

// The outer part of the space, level by level: the spatial digits of the output axes, then the
// lane digits of the column axes, then the packet digits of the stream axes; every complete
// assignment is a Block. Counts the partial assignments each limit prunes.
class BlockBuilder {
public:
  explicit BlockBuilder(const Problem& p) : p_(p) {
    for (std::size_t a = 0; a < p.axes.size(); ++a) {
      if (p.in_output(a)) spatial_axes_.push_back(a);
      if (p.axes[a].role == AxisRole::Col) col_axes_.push_back(a);
      if (p.in_stream(a)) stream_axes_.push_back(a);
    }
  }

  void build(SearchSpace& s) {
    std::vector<std::vector<std::uint64_t>> options;
    for (std::size_t a : spatial_axes_) options.push_back(divisors(p_.axes[a].axis.size));
    const std::uint64_t max_slices =
        std::uint64_t{kTu.clusters_per_chip} * kTu.slices_per_cluster; // 2 × 256
    products(
        spatial_axes_, options, max_slices, &over_slices_,
        [&](const std::vector<std::uint64_t>& sp, std::uint64_t live) { spatial(s, sp, live); });
    const auto note = [&](const char* code, std::uint64_t v) {
      if (v > 0) s.pruned[code] += v;
    };
    note("E-HW-002", over_slices_);
    note("E-HW-001", no_cluster_);
    note("E-OUTER-002", over_lanes_);
    note("E-HW-004", over_packet_);
  }

private:
  // Live slices beyond one cluster take a cluster digit of 2 from the first axis that has one.
  void spatial(SearchSpace& s, const std::vector<std::uint64_t>& sp, std::uint64_t live) {
    Block b;
    b.live_slices = live;
    bool cluster_placed = live <= kTu.slices_per_cluster;
    for (std::size_t i = 0; i < spatial_axes_.size(); ++i) {
      AxisPieces& x = b.base.pieces[spatial_axes_[i]];
      x.slice = sp[i];
      if (!cluster_placed && sp[i] % 2 == 0) {
        x.cluster = 2;
        x.slice = sp[i] / 2;
        cluster_placed = true;
      }
    }
    if (!cluster_placed) {
      ++no_cluster_;
      return;
    }
    std::vector<std::vector<std::uint64_t>> options;
    for (std::size_t a : col_axes_) options.push_back(divisors(left(b, a)));
    products(col_axes_, options, kTu.lanes, &over_lanes_,
             [&](const std::vector<std::uint64_t>& ln, std::uint64_t lanes) {
               if (next_pow2(lanes) > kTu.lanes) {
                 ++over_lanes_;
                 return;
               }
               Block with = b;
               for (std::size_t i = 0; i < col_axes_.size(); ++i) {
                 with.base.pieces[col_axes_[i]].lane = ln[i];
                 with.base.pieces[col_axes_[i]].time = left(with, col_axes_[i]);
               }
               with.trf_cells = next_pow2(lanes);
               packets(s, with);
             });
  }

  void packets(SearchSpace& s, const Block& b) {
    std::vector<std::vector<std::uint64_t>> options;
    for (std::size_t a : stream_axes_) options.push_back(divisors(left(b, a)));
    products(stream_axes_, options, ir::flit_elements(p_.stream_type), &over_packet_,
             [&](const std::vector<std::uint64_t>& pk, std::uint64_t) {
               Block with = b;
               for (std::size_t i = 0; i < stream_axes_.size(); ++i) {
                 AxisPieces& x = with.base.pieces[stream_axes_[i]];
                 x.packet = pk[i];
                 x.time = left(with, stream_axes_[i]);
                 with.stream_flits *= x.time;
               }
               for (std::size_t a = 0; a < p_.axes.size(); ++a)
                 if (p_.in_trf(a))
                   with.trf_cells *= with.base.pieces[a].time * with.base.pieces[a].packet;
               s.blocks.push_back(with);
             });
  }

  // The size of axis a not yet given to Cluster, Slice, Lane or the packet.
  std::uint64_t left(const Block& b, std::size_t a) const {
    const AxisPieces& x = b.base.pieces[a];
    return p_.axes[a].axis.size / (x.cluster * x.slice * x.lane * x.packet);
  }

  const Problem& p_;
  std::vector<std::size_t> spatial_axes_, col_axes_, stream_axes_;
  std::uint64_t over_slices_ = 0, over_lanes_ = 0, over_packet_ = 0, no_cluster_ = 0;
};

} // namespace

SearchSpace make_search_space(const Problem& p) {
  SearchSpace s;
  BlockBuilder(p).build(s);
  // Most live slices first, then fewest stream flits (the stream's flits bound the cycles), then
  // the smallest TRF share (the ranking's tie-break): a budget-limited run meets the fast kernels
  // early, and the bound skips more. Ties keep the generation order.
  tujit::stable_sort(s.blocks, [](const Block& a, const Block& b) {
    if (a.live_slices != b.live_slices) return a.live_slices > b.live_slices;
    if (a.stream_flits != b.stream_flits) return a.stream_flits < b.stream_flits;
    return a.trf_cells < b.trf_cells;
  });
  std::uint64_t odd_pack = 0;
  for (Block& b : s.blocks) {
    b.first_index = s.size;
    b.count = 0;
    for_time_and_pack(p, b, &odd_pack,
                      [&](const Choice& c) { b.count += factorial(c.row_count) * kModes; });
    s.size += b.count;
  }
  if (odd_pack > 0) s.pruned["E-OUTER-005"] += odd_pack;
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
