// The analytic cycle model: a closed form over the loop nest's sizes and strides
// (docs/cycle-model.md §2; docs/contraction.md §10). Nothing here walks the cycles.
#include "harness/cycles/cycle_model.h"
#include "harness/cycles/model_params.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tujit::cycles {

namespace {

using ir::seq::ContractionProgram;
using ir::seq::CycleLoop;

// Position weight of each nest loop: packet cycles per step of its counter.
std::vector<std::uint64_t> loop_weights(const std::vector<CycleLoop>& nest) {
  std::vector<std::uint64_t> w(nest.size(), 1);
  std::uint64_t inner = 1;
  for (std::size_t i = nest.size(); i-- > 0;) {
    w[i] = inner;
    inner *= nest[i].size;
  }
  return w;
}

// Per loop, 1 + the largest digit any live packet cycle has: padding of OT (a padded factor)
// trims the digit box the live cycles span. A scan of the liveness vector, not of the cycles'
// timing.
std::vector<std::uint64_t> live_extents(const ContractionProgram& p,
                                        const std::vector<std::uint64_t>& w) {
  std::vector<std::uint64_t> ext(p.cycle_nest.size(), 0);
  if (p.cycle_live.empty()) {
    for (std::size_t i = 0; i < ext.size(); ++i) ext[i] = p.cycle_nest[i].size;
    return ext;
  }
  for (std::uint64_t t = 0; t < p.cycle_live.size(); ++t) {
    if (!p.cycle_live[t]) continue;
    for (std::size_t i = 0; i < ext.size(); ++i)
      ext[i] = std::max(ext[i], (t / w[i]) % p.cycle_nest[i].size + 1);
  }
  for (auto& e : ext) e = std::max<std::uint64_t>(e, 1);
  return ext;
}

bool reduced(const CycleLoop& l) {
  return l.size > 1 && l.slot_stride == 0;
}
bool retained(const CycleLoop& l) {
  return l.size > 1 && l.slot_stride != 0;
}

// Direct-mapped TRF read cache misses from loop footprints (docs/cycle-model.md §2.4): the
// innermost block of loops whose lines fit the cache misses once per line; every loop outside it
// re-misses per iteration when it moves the address, and re-walks a block that does not fit with
// the lines of conflicting sets missing again.
std::uint64_t estimate_trf_misses(const ContractionProgram& p) {
  const auto& nest = p.cycle_nest;
  const std::uint64_t line = detail::trf_line_bytes(p);
  const std::uint64_t sets =
      p.wide_read ? detail::kTu.trf_cache_rows
                  : std::uint64_t{detail::kTu.trf_cache_rows} * detail::kTu.trf_banks;
  const std::size_t n = nest.size();
  // lines[k]: distinct lines the loops k..n-1 touch (k = n: one read).
  std::vector<std::uint64_t> lines(n + 1, 1);
  {
    const std::uint64_t read_bytes = std::max<std::uint64_t>(1, detail::trf_byte(p, p.read_size));
    std::uint64_t span = read_bytes - 1, distinct = 1;
    for (std::size_t k = n; k-- > 0;) {
      const CycleLoop& l = nest[k];
      if (l.trf_stride != 0) {
        span += (l.size - 1) * detail::trf_byte(p, l.trf_stride);
        distinct *= l.size;
      }
      lines[k] = std::min(distinct, span / line + 1);
    }
  }
  std::size_t fit = n; // outermost k whose block fits
  while (fit > 0 && lines[fit - 1] <= sets) --fit;
  double misses = static_cast<double>(lines[fit]);
  for (std::size_t i = fit; i-- > 0;) {
    const CycleLoop& l = nest[i];
    double again = 1.0; // fraction of the inner block's misses repeated per extra iteration
    if (l.trf_stride == 0) {
      const double ln = static_cast<double>(lines[i + 1]);
      const double s = static_cast<double>(sets);
      again = ln <= s ? 0.0 : std::min(1.0, 2.0 * (ln - s) / ln);
    }
    misses += static_cast<double>(l.size - 1) * misses * again;
  }
  return std::min<std::uint64_t>(p.cycles, static_cast<std::uint64_t>(misses + 0.5));
}

// Slot-limited groups (docs/cycle-model.md §2.3). A group (the retained loops inside the outermost
// reduced loop) allocates IT slots in its first pass and frees each after its F output flits.
// With capacity = m·IT + k, the n-th allocation reuses the slot of allocation n − capacity: slot j
// of group g waits for slot i = j − k of group g − m (j ≥ k), or slot j − k + IT of group g − m − 1
// (j < k). That slot leaves the bus (i+1)·F − 1 cycles after its group's first output, and group
// g's first output follows its wait by ρ·(t_first − a_j) + tree latency + 1, so
//   D(g) ≥ D(g − b) + X_b,   X_b = max_j [(i+1)·F − 1 + ρ·(t_first − a_j) + L + 1].
// Against the stall-free period P1 = max(group flits, ρ·packets per group) this adds
// floor((G−1)/b)·(X_b − b·P1) when positive. 0 when the group never waits. Behind a fetch slower
// than the MAC, ρ = ⌈β/TB⌉ (§2.1) stands for the uneven issue times (§5 class S).
std::uint64_t slot_stall_cycles(const ContractionProgram& p, const AnalyticCycles& a,
                                const std::vector<std::uint64_t>& w,
                                const std::vector<std::uint64_t>& ext) {
  const auto& nest = p.cycle_nest;
  std::size_t r0 = nest.size(); // outermost reduced loop with a live digit beyond 0
  for (std::size_t i = 0; i < nest.size() && r0 == nest.size(); ++i)
    if (reduced(nest[i]) && ext[i] > 1) r0 = i;
  if (r0 == nest.size()) return 0;
  // Slots a group allocates (its live retained-inner positions), its output flits (padding
  // positions included), the live groups, and the first-touch / last-contribution offsets.
  // A group spans the T2 positions between two steps of its innermost group loop (padding
  // positions of a padded retained factor included: they drain too).
  std::uint64_t it = 1, group_slots = 0, groups = 1, t_first = 0, step = 0;
  for (std::size_t i = 0; i < nest.size(); ++i) {
    const CycleLoop& l = nest[i];
    if (i < r0) {
      if (retained(l)) {
        groups *= ext[i];
        group_slots = group_slots == 0 ? l.slot_stride : std::min(group_slots, l.slot_stride);
      }
    } else if (retained(l)) {
      it *= ext[i];
      step = w[i]; // innermost retained loop: successive first touches
    } else if (reduced(l)) {
      t_first += (ext[i] - 1) * w[i];
    }
  }
  const std::uint64_t cap = a.slot_capacity;
  if (it > cap || groups < 2) return 0;
  const std::uint64_t f = detail::flits_per_slot(p), rho = a.cycles_per_packet;
  const std::uint64_t m = cap / it, k = cap % it;
  const std::uint64_t packets_per_group = w[r0] * nest[r0].size;
  const std::uint64_t p1 = std::max(group_slots * f, rho * packets_per_group);
  const auto x_of = [&](std::uint64_t j, std::uint64_t i) {
    return (i + 1) * f - 1 + rho * (t_first - std::min(t_first, j * step)) + a.tree_latency + 1;
  };
  std::uint64_t extra = 0;
  const auto consider = [&](std::uint64_t back, std::uint64_t x) {
    if (back == 0 || x <= back * p1) return;
    extra = std::max(extra, (groups - 1) / back * (x - back * p1));
  };
  // j ≥ k (i = j − k) and j < k (i = j − k + IT): X is linear in j, so its ends suffice.
  consider(m, std::max(x_of(k, 0), x_of(it - 1, it - 1 - k)));
  if (k > 0) consider(m + 1, std::max(x_of(0, it - k), x_of(k - 1, it - 1)));
  return extra;
}

// Packet cycle t issues at I(t) (docs/cycle-model.md §2.1). Flit k arrives in cycle
// L_fetch + R(k+1) − 1 with R(k) = ceil(k·reads/flits) (M13); a packet (PackSize flits) serves TB
// consecutive packet cycles; the MAC issues at most one per cycle: I(t) = max(I(t−1) + 1, arrival
// of t's packet) = L_fetch − 1 + t + max over packets m ≤ t/TB of (R((m+1)·PS) − m·TB). With
// β = PS·reads/flits the stream cycles per packet, R((m+1)·PS) − m·TB is non-decreasing in m when
// β > TB (fetch bound: the last m) and non-increasing otherwise (MAC bound: m = 0).
struct IssueTimes {
  std::uint64_t base = 0, tb = 1, ps = 1, beta_num = 1, beta_den = 1;
  detail::FetchRate rate;
  bool stream_bound = false;

  IssueTimes(const ContractionProgram& p, const CycleOptions& o, std::uint64_t latency)
      : base(latency), tb(std::max<std::uint64_t>(1, p.time_broadcast)), ps(p.pack_size),
        rate(detail::fetch_rate(o)) {
    beta_num = ps * rate.reads;
    beta_den = rate.flits;
    stream_bound = beta_num > tb * beta_den;
  }
  std::int64_t at(std::uint64_t t) const {
    if (!stream_bound)
      return static_cast<std::int64_t>(base + detail::reads_for_flits(rate, ps) + t) - 1;
    const std::uint64_t m = t / tb;
    return static_cast<std::int64_t>(base + detail::reads_for_flits(rate, (m + 1) * ps) + t % tb) -
           1;
  }
  // Cycles per packet cycle (≥ 1): ⌈β/TB⌉ when the fetch bounds the MAC.
  std::uint64_t rho() const {
    return stream_bound ? (beta_num + tb * beta_den - 1) / (tb * beta_den) : 1;
  }
};

// The in-order output bus (docs/cycle-model.md §2.2): the cycle the last output flit leaves.
// Slot u completes with its last contribution: every reduced digit at its maximum; its F flits
// are ready one cycle after that accumulation. The in-order bus finishes at max over flits o of
// (ready(o) + flits after o). o = F·u is linear in the retained digits and I is linear in them
// up to a ceiling (I(t + w) − I(t) is ⌊x⌋ or ⌈x⌉ of the same x), so per retained loop the
// difference of both terms has one sign and the maximum sits at a corner of the digit box. OT
// padding: padding cycles cost their cycle but complete no slot, so the corners are those of
// the live digit box.
std::int64_t last_output(const ContractionProgram& p, AnalyticCycles& a, const IssueTimes& issue,
                         const std::vector<std::uint64_t>& w,
                         const std::vector<std::uint64_t>& ext) {
  const std::uint64_t f = detail::flits_per_slot(p), n_out = p.t3;
  std::uint64_t reduced_tail = 0;
  std::vector<std::size_t> kept; // retained loops with more than one live digit
  for (std::size_t i = 0; i < p.cycle_nest.size(); ++i) {
    if (reduced(p.cycle_nest[i])) reduced_tail += (ext[i] - 1) * w[i];
    if (retained(p.cycle_nest[i]) && ext[i] > 1) kept.push_back(i);
  }
  a.first_output = static_cast<std::uint64_t>(issue.at(reduced_tail)) + a.tree_latency + 1;
  const auto corner_send = [&](const std::vector<bool>& at_max) {
    std::uint64_t t = reduced_tail, u = 0;
    for (std::size_t j = 0; j < kept.size(); ++j) {
      if (!at_max[j]) continue;
      t += (ext[kept[j]] - 1) * w[kept[j]];
      u += (ext[kept[j]] - 1) * p.cycle_nest[kept[j]].slot_stride;
    }
    return issue.at(t) + static_cast<std::int64_t>(a.tree_latency + n_out) -
           static_cast<std::int64_t>(f * u);
  };
  std::int64_t last_send = 0;
  if (kept.size() <= 12) {
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << kept.size()); ++mask) {
      std::vector<bool> at_max(kept.size());
      for (std::size_t j = 0; j < kept.size(); ++j) at_max[j] = (mask >> j) & 1;
      last_send = std::max(last_send, corner_send(at_max));
    }
    return last_send;
  }
  // The mean slope decides each digit: 1 cycle per packet cycle, β/TB when the fetch bounds it.
  std::vector<bool> at_max(kept.size());
  for (std::size_t j = 0; j < kept.size(); ++j) {
    const std::uint64_t moved = f * p.cycle_nest[kept[j]].slot_stride;
    at_max[j] = issue.stream_bound ? issue.beta_num * w[kept[j]] > issue.tb * issue.beta_den * moved
                                   : w[kept[j]] > moved;
  }
  return corner_send(at_max);
}

// Utilisation (docs/contraction.md §10).
void utilisation(const ContractionProgram& p, AnalyticCycles& a) {
  const std::uint64_t n_mac = p.cycles, n_out = p.t3;
  const double lanes = static_cast<double>(detail::live_lanes(p)) / detail::kTu.lanes;
  const double pack = static_cast<double>(p.pack_size) / detail::kTu.max_pack_size;
  const double cells = static_cast<double>(detail::live_op_cells(p)) /
                       static_cast<double>(std::max<std::uint64_t>(1, p.op));
  const double steps = static_cast<double>(detail::live_cycles(p)) /
                       static_cast<double>(std::max<std::uint64_t>(1, n_mac));
  a.mac_utilization = lanes * pack * cells * steps;
  const double products = static_cast<double>(detail::live_cycles(p)) *
                          static_cast<double>(detail::live_lanes(p)) *
                          static_cast<double>(detail::live_reduced_cells(p));
  a.mac_utilization_overall =
      products / (static_cast<double>(std::max<std::uint64_t>(1, a.total)) * detail::kTu.lanes *
                  static_cast<double>(detail::multipliers_per_lane(p)));
  std::uint64_t live_out = 0;
  for (auto d : p.drain) live_out += d >= 0 ? 1 : 0;
  a.output_bus_utilization = n_out == 0 || p.drain.empty()
                                 ? 0.0
                                 : static_cast<double>(live_out) /
                                       static_cast<double>(n_out * detail::kTu.output_bus_elements);
}

// The concurrent store into the other TRF half (docs/cycle-model.md M10, M11): its flits arrive
// at the rate of its own fetch (one per cycle from cycle 0 without one). A narrow read leaves the
// other bank free (bank alternation); a wide read's miss holds both banks for the cycle. Misses
// are taken as spread evenly over the packet cycles [I(0), I(last)]. A store slower than one flit
// per cycle has a free cycle after each write, so a held bank only delays the write it hits
// (in the mean less than a cycle at the end: none).
void concurrent_store(const ContractionProgram& p, const CycleOptions& o, AnalyticCycles& a,
                      std::uint64_t last_issue) {
  a.store_flits = detail::store_flits(p);
  const detail::FetchRate rate = detail::store_rate(o);
  const std::uint64_t arrive_end =
      o.store_adapter_latency + detail::reads_for_flits(rate, a.store_flits);
  double blocked = 0;
  if (p.wide_read && a.trf_misses > 0 && rate.reads <= rate.flits) {
    const double i0 = static_cast<double>(a.fetch_latency + a.fill);
    const double span = static_cast<double>(last_issue - (a.fetch_latency + a.fill) + 1);
    const double m = static_cast<double>(a.trf_misses) / span;
    const double s = static_cast<double>(arrive_end);
    if (s > i0) {
      blocked = m < 1.0 ? m * (s - i0) / (1.0 - m) : static_cast<double>(a.trf_misses);
      blocked = std::min(blocked, static_cast<double>(a.trf_misses));
    }
  }
  a.store_blocked = static_cast<std::uint64_t>(blocked + 0.5);
  a.store_cycles = arrive_end + a.store_blocked;
  a.stage_cycles[static_cast<std::size_t>(Stage::TrfStore)] = a.store_flits;
  a.period = std::max(a.total, a.store_cycles);
  if (a.store_cycles > a.total) a.bottleneck = Stage::TrfStore;
}

// A part of the chain that starts at contract_lane (docs/cycle-model.md §8): the Time Reducer's
// buffer is complete, so the bus sends its |T3| flits back to back.
AnalyticCycles lane_folder_only(const ContractionProgram& p) {
  AnalyticCycles a;
  a.stage_cycles[static_cast<std::size_t>(Stage::ContractLane)] = p.t3;
  a.bottleneck = Stage::ContractLane;
  a.total = a.period = a.drain = p.t3;
  a.slots_needed = p.inner_time;
  a.slot_capacity = detail::slot_capacity(p);
  std::uint64_t live_out = 0;
  for (auto d : p.drain) live_out += d >= 0 ? 1 : 0;
  if (p.t3 > 0 && !p.drain.empty())
    a.output_bus_utilization =
        static_cast<double>(live_out) / static_cast<double>(p.t3 * detail::kTu.output_bus_elements);
  return a;
}

} // namespace

AnalyticCycles analytic_cycles(const ContractionProgram& p, const CycleOptions& options) {
  if (options.first == Stage::ContractLane) return lane_folder_only(p);
  AnalyticCycles a;
  const std::uint64_t n_mac = p.cycles;               // packet cycles (|OT|, padding included)
  const std::uint64_t f_in = detail::stream_flits(p); // each fetched once
  const std::uint64_t n_out = p.t3;                   // output flits on the 8-element bus
  const auto set = [&](Stage s, std::uint64_t v) {
    if (runs_stage(options, s) || s == Stage::Fetch || s == Stage::TrfRead)
      a.stage_cycles[static_cast<std::size_t>(s)] = v;
  };
  const bool outer = options.first == Stage::ContractOuter;
  set(Stage::ContractOuter, n_mac);
  set(Stage::ContractPacket, n_mac);
  set(Stage::ContractTime, detail::live_cycles(p));
  set(Stage::ContractLane, n_out);

  a.fetch_latency = options.fetch_adapter_latency;
  a.fetch_read_size = options.fetch_read_size;
  a.fetch_reads_per_packet = options.fetch_reads_per_packet;
  a.fetch_flits_per_packet = options.fetch_flits_per_packet;
  a.fetch_reads = detail::reads_for_flits(detail::fetch_rate(options), f_in);
  if (outer) {
    set(Stage::Fetch, a.fetch_reads);
    set(Stage::TrfRead, n_mac);
  }
  a.tree_latency = detail::part_tree_latency(p, options);

  const IssueTimes issue(p, options, a.fetch_latency);
  a.fill = static_cast<std::uint64_t>(issue.at(0)) - a.fetch_latency;
  a.cycles_per_packet = issue.rho();
  const std::uint64_t last_issue = static_cast<std::uint64_t>(issue.at(n_mac - 1));
  const std::uint64_t last_ready = last_issue + a.tree_latency + 1;
  a.slots_needed = p.inner_time;
  a.slot_capacity = detail::slot_capacity(p);
  if (options.last == Stage::ContractLane) {
    const auto w = loop_weights(p.cycle_nest);
    const auto ext = live_extents(p, w);
    a.total = static_cast<std::uint64_t>(last_output(p, a, issue, w, ext)) + 1;
    if (runs_stage(options, Stage::ContractTime)) a.total += slot_stall_cycles(p, a, w, ext);
  } else {
    // The part ends before the bus (§8): done with the last packet's issue, tree output or
    // accumulation.
    a.total = a.first_output = last_ready;
  }
  a.drain = a.total > last_ready ? a.total - last_ready : 0;

  // Bottleneck: the stage with the most steady-state cycles; ties go to the MAC, then the stream.
  a.bottleneck = Stage::ContractOuter;
  if (outer && a.fetch_reads > n_mac) a.bottleneck = Stage::Fetch;
  if (options.last == Stage::ContractLane && n_out > std::max(outer ? a.fetch_reads : 0, n_mac))
    a.bottleneck = Stage::ContractLane;
  utilisation(p, a);

  a.wide_read = p.wide_read;
  if (outer) {
    a.trf_reads = n_mac;
    a.trf_misses = estimate_trf_misses(p);
  }
  a.store = options.concurrent_store;
  a.period = a.total;
  if (a.store) concurrent_store(p, options, a, last_issue);
  return a;
}

} // namespace tujit::cycles
