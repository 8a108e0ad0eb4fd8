// The trace cycle model: walks one slice's address streams cycle by cycle
// (docs/cycle-model.md §3). Per cycle, in this order:
//   1. contract_lane  sends the next output flit if its slot is complete (frees the slot after
//                     its last flit);
//   2. fetch          makes one DM read of the stream if the Stream Adapter buffer has room, and
//                     delivers the flit that read completes (one read per flit at one flit per
//                     cycle; docs/cycle-model.md M13);
//   3. contract_outer issues the next packet cycle if its packet's flits have arrived and its
//                     accumulator slot is (or can be) allocated; the TRF Sequencer reads through
//                     the read cache; the tree result accumulates `tree latency` cycles later;
//   4. trf_store      (double buffering) writes one buffered flit to a bank no read miss holds.
// A part of the chain (docs/cycle-model.md §8) runs the steps of its stages only. Cost:
// O(cycles + |T2| + store flits); lanes, packet cells and slices are never iterated. Above
// kTraceStepLimit steps the closed form is reported instead (§3.1).
#include "harness/cycles/cycle_model.h"
#include "harness/cycles/model_params.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace tujit::cycles {

namespace {

using ir::seq::ContractionProgram;

constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

class Tracer {
public:
  Tracer(const ContractionProgram& p, const CycleOptions& o, bool timeline)
      : p_(p), opt_(o), outer_(o.first == Stage::ContractOuter),
        slots_(o.last == Stage::ContractLane), marks_(out_.stages, out_.timeline, timeline),
        walker_(p.cycle_nest) {}
  TraceCycles run();
  TraceCycles run_lane_folder_only();

private:
  enum : int {
    kIdle = detail::StageMarks::kIdle,
    kBusy = detail::StageMarks::kBusy,
    kStall = detail::StageMarks::kStall
  };
  // A part of the chain records only the stages it runs (and its concurrent store).
  void mark(Stage s, int state) {
    const bool upstream = s == Stage::Fetch || s == Stage::TrfRead;
    if (upstream ? !outer_ : (s != Stage::TrfStore && !runs_stage(opt_, s))) return;
    marks_.mark(s, state, cycle_);
  }
  bool trf_read(std::uint64_t element); // true on a hit
  void step_output();
  void step_fetch();
  void step_mac();
  void step_store();
  void accumulate(bool live);
  void finish(std::uint64_t chain_end);

  const ContractionProgram& p_;
  const CycleOptions& opt_;
  bool outer_; // the part starts at contract_outer: a fetched stream and TRF reads
  bool slots_; // the part ends at contract_lane: slots are held until the bus drains them
  TraceCycles out_;
  detail::StageMarks marks_;
  std::uint64_t cycle_ = 0;

  // Stream Adapter buffer: flits [released_, delivered_) are held.
  std::uint64_t delivered_ = 0, released_ = 0, buffer_cap_ = 0;
  // The stream fetch's DM reads so far, and its rate.
  std::uint64_t reads_ = 0;
  detail::FetchRate rate_;
  // Packet cycles.
  ir::seq::CycleWalker walker_;
  std::uint64_t issued_ = 0;
  std::uint64_t latency_ = 0;
  std::vector<std::uint64_t> tree_out_; // ring: accumulation cycle of each packet in the tree
  std::vector<std::uint8_t> tree_live_; // … and whether it accumulates (a live packet cycle)
  std::uint64_t accumulations_pending_ = 0;
  // Accumulator slots: contributions left, completion cycle, allocation.
  std::vector<std::uint64_t> remaining_;
  std::vector<std::uint8_t> has_work_, allocated_;
  std::vector<std::uint64_t> done_;
  std::uint64_t in_use_ = 0, capacity_ = 0;
  // Output bus.
  std::uint64_t sent_ = 0, flits_per_slot_ = 1;
  // TRF read cache: per bank, `trf_cache_rows` direct-mapped entries holding a row (kNever =
  // empty).
  std::array<std::array<std::uint64_t, target::kRngd.trf_cache_rows>, target::kRngd.trf_banks>
      cache_{};
  std::array<bool, target::kRngd.trf_banks>
      bank_held_{}; // this cycle's read miss occupies the bank
  // Concurrent store.
  std::uint64_t store_total_ = 0, store_next_ = 0, store_fpl_ = 1, store_done_ = 0;
  std::vector<std::uint8_t> store_written_;
  detail::FetchRate store_rate_;
};

bool Tracer::trf_read(std::uint64_t element) {
  const std::uint64_t byte = detail::trf_byte(p_, element);
  const std::uint64_t row = byte / detail::kTu.trf_wide_read_bytes;
  const std::uint64_t set = row % detail::kTu.trf_cache_rows;
  if (p_.wide_read) {
    const bool hit = cache_[0][set] == row && cache_[1][set] == row;
    if (!hit) {
      cache_[0][set] = cache_[1][set] = row;
      bank_held_ = {true, true};
    }
    return hit;
  }
  const std::uint64_t bank = (byte / detail::kTu.trf_narrow_read_bytes) % detail::kTu.trf_banks;
  const bool hit = cache_[bank][set] == row;
  if (!hit) {
    cache_[bank][set] = row;
    bank_held_[bank] = true;
  }
  return hit;
}

void Tracer::step_output() {
  if (sent_ >= p_.t3) {
    mark(Stage::ContractLane, kIdle);
    return;
  }
  const std::uint64_t u = sent_ / flits_per_slot_;
  const bool ready =
      u >= has_work_.size() || !has_work_[u] || (done_[u] != kNever && cycle_ > done_[u]);
  if (!ready) {
    mark(Stage::ContractLane, kStall);
    return;
  }
  mark(Stage::ContractLane, kBusy);
  ++sent_;
  if (sent_ % flits_per_slot_ == 0 && u < allocated_.size() && allocated_[u]) {
    allocated_[u] = 0;
    --in_use_;
  }
}

void Tracer::step_fetch() {
  if (delivered_ >= detail::stream_flits(p_) || cycle_ < opt_.fetch_adapter_latency) {
    mark(Stage::Fetch, kIdle);
    return;
  }
  if (delivered_ - released_ >= buffer_cap_) {
    mark(Stage::Fetch, kStall); // back-pressure: the adapter holds two packets
    return;
  }
  mark(Stage::Fetch, kBusy);
  ++reads_;
  while (delivered_ < detail::stream_flits(p_) &&
         detail::reads_for_flits(rate_, delivered_ + 1) <= reads_)
    ++delivered_;
}

void Tracer::step_mac() {
  // The tree's output and the accumulation of the packet issued `latency_` cycles ago.
  const bool accumulating =
      latency_ > 0 && accumulations_pending_ > 0 && tree_out_[cycle_ % tree_out_.size()] == cycle_;
  if (accumulating) {
    --accumulations_pending_;
    mark(Stage::ContractPacket, kBusy);
    mark(Stage::ContractTime, tree_live_[cycle_ % tree_out_.size()] ? kBusy : kIdle);
  } else {
    mark(Stage::ContractPacket, kIdle);
    mark(Stage::ContractTime, kIdle);
  }
  bank_held_ = {false, false};
  if (issued_ >= p_.cycles) {
    mark(Stage::ContractOuter, kIdle);
    mark(Stage::TrfRead, kIdle);
    return;
  }
  const auto& a = walker_.address();
  const std::uint64_t t = walker_.position();
  if (a.flit + p_.pack_size > delivered_) {
    ++out_.mac_wait_stream;
    mark(Stage::ContractOuter, kStall);
    mark(Stage::TrfRead, kIdle);
    return;
  }
  // The sequencers walk every position of OT, padding included: a padding packet cycle costs its
  // cycle, but its products are masked and it accumulates into no slot (docs/contraction.md §9.4;
  // the IR's slot stream is defined on live cycles only).
  const bool live = p_.is_cycle_live(t);
  const bool slotted = slots_ && live && a.slot < p_.t2;
  if (slotted && !allocated_[a.slot]) {
    if (in_use_ >= capacity_) {
      ++out_.mac_wait_slot;
      mark(Stage::ContractOuter, kStall);
      mark(Stage::TrfRead, kIdle);
      return;
    }
    allocated_[a.slot] = 1;
    ++in_use_;
    out_.max_slots_in_use = std::max(out_.max_slots_in_use, in_use_);
  }
  // Issue: one packet to every active lane, one TRF read (all lanes, same row).
  mark(Stage::ContractOuter, kBusy);
  mark(Stage::TrfRead, kBusy);
  if (outer_) {
    if (trf_read(a.trf))
      ++out_.trf_hits;
    else
      ++out_.trf_misses;
  }
  released_ = std::max(released_, a.flit); // earlier packets are done
  const std::uint64_t acc = cycle_ + latency_;
  if (slotted && --remaining_[a.slot] == 0) done_[a.slot] = acc;
  ++issued_;
  walker_.advance();
  if (opt_.last == Stage::ContractOuter) return; // no tree or accumulator in this part
  if (latency_ == 0) {
    accumulate(live); // a part that starts after the tree accumulates as it issues
    return;
  }
  tree_out_[acc % tree_out_.size()] = acc;
  tree_live_[acc % tree_out_.size()] = live ? 1 : 0;
  ++accumulations_pending_;
}

void Tracer::accumulate(bool live) {
  mark(Stage::ContractPacket, kBusy);
  mark(Stage::ContractTime, live ? kBusy : kIdle);
}

void Tracer::step_store() {
  if (store_next_ >= store_total_) {
    mark(Stage::TrfStore, kIdle);
    return;
  }
  // The two lowest unwritten flits that have arrived (at the rate of the store's fetch, one per
  // cycle from cycle 0 without one) are buffered; write the first whose bank no read miss holds
  // this cycle.
  const auto bank_of = [this](std::uint64_t f) { return (f % store_fpl_) % detail::kTu.trf_banks; };
  const auto arrived = [this](std::uint64_t f) {
    return opt_.store_adapter_latency + detail::reads_for_flits(store_rate_, f + 1) <= cycle_ + 1;
  };
  std::uint64_t candidates = 0;
  for (std::uint64_t f = store_next_;
       f < store_total_ && arrived(f) && candidates < detail::kTu.trf_store_buffer_banks; ++f) {
    if (store_written_[f]) continue;
    ++candidates;
    // A wide read's miss holds both banks. A narrow read holds one bank, and the banks alternate
    // (furiosa-opt docs/src/computing-tensors/register-files.md): the store goes to the other bank,
    // so it never waits; the trace counts the cycles that alternation resolved.
    if (bank_held_[bank_of(f)]) {
      if (p_.wide_read) continue;
      if (candidates == 1) ++out_.trf_bank_alternations;
    }
    store_written_[f] = 1;
    while (store_next_ < store_total_ && store_written_[store_next_]) ++store_next_;
    mark(Stage::TrfStore, kBusy);
    if (store_next_ >= store_total_) store_done_ = cycle_ + 1;
    return;
  }
  if (candidates > 0) {
    ++out_.trf_bank_conflicts;
    mark(Stage::TrfStore, kStall);
  } else {
    mark(Stage::TrfStore, kIdle);
  }
}

TraceCycles Tracer::run() {
  const ContractionProgram& p = p_;
  out_.slot_capacity = capacity_ = detail::slot_capacity(p);
  flits_per_slot_ = detail::flits_per_slot(p);
  buffer_cap_ = std::uint64_t{detail::kTu.stream_adapter_buffer_packets} * p.pack_size;
  rate_ = detail::fetch_rate(opt_);
  store_rate_ = detail::store_rate(opt_);
  latency_ = detail::part_tree_latency(p, opt_);
  tree_out_.assign(latency_ + 1, kNever);
  tree_live_.assign(latency_ + 1, 0);
  for (auto& bank : cache_) bank.fill(kNever);

  // Contributions per slot: one pass over the nest's slot stream (the Time Reducer's counters).
  if (slots_) {
    remaining_.assign(p.t2, 0);
    ir::seq::CycleWalker w(p.cycle_nest);
    do {
      if (p.is_cycle_live(w.position()) && w.address().slot < p.t2) ++remaining_[w.address().slot];
    } while (w.advance());
    has_work_.assign(p.t2, 0);
    for (std::size_t u = 0; u < remaining_.size(); ++u) has_work_[u] = remaining_[u] > 0;
    allocated_.assign(p.t2, 0);
    done_.assign(p.t2, kNever);
  }

  out_.store = opt_.concurrent_store;
  if (out_.store) {
    store_total_ = detail::store_flits(p);
    store_fpl_ = std::max<std::uint64_t>(1, store_total_ / std::max<std::uint64_t>(1, p.lanes));
    store_written_.assign(store_total_, 0);
  }

  // Safety bound: every stage makes progress at least once per (latency + 2) cycles.
  const std::uint64_t bound = (detail::reads_for_flits(rate_, detail::stream_flits(p)) + p.cycles +
                               p.t3 + store_total_ + 4) *
                                  (latency_ + 4) +
                              opt_.fetch_adapter_latency + opt_.store_adapter_latency +
                              detail::reads_for_flits(store_rate_, store_total_);
  std::uint64_t chain_end = 0;
  for (cycle_ = 0;; ++cycle_) {
    const bool chain_done =
        slots_ ? sent_ >= p.t3 : issued_ >= p.cycles && accumulations_pending_ == 0;
    const bool store_done = store_next_ >= store_total_;
    if (chain_done && chain_end == 0) chain_end = cycle_;
    if (chain_done && store_done) break;
    if (cycle_ > bound) {
      out_.complete = false;
      break;
    }
    if (slots_) step_output();
    step_fetch();
    step_mac();
    if (out_.store) step_store();
  }
  finish(chain_end == 0 ? cycle_ : chain_end);
  return out_;
}

void Tracer::finish(std::uint64_t chain_end) {
  out_.total = chain_end;
  out_.period = std::max(chain_end, store_done_);
  out_.store_cycles = store_done_;
  out_.steps = cycle_;
  marks_.flush(cycle_);

  const auto busy = [this](Stage s) { return out_.stages[static_cast<std::size_t>(s)].busy; };
  out_.bottleneck = Stage::ContractOuter;
  if (busy(Stage::Fetch) > busy(Stage::ContractOuter)) out_.bottleneck = Stage::Fetch;
  if (busy(Stage::ContractLane) > std::max(busy(Stage::Fetch), busy(Stage::ContractOuter)))
    out_.bottleneck = Stage::ContractLane;
  if (out_.store && out_.store_cycles > out_.total) out_.bottleneck = Stage::TrfStore;
}

// A part that starts at contract_lane (docs/cycle-model.md §8): every slot of the Time Reducer
// buffer is complete, so the bus walks the |T3| output flits, one per cycle.
TraceCycles Tracer::run_lane_folder_only() {
  out_.slot_capacity = detail::slot_capacity(p_);
  flits_per_slot_ = detail::flits_per_slot(p_);
  for (cycle_ = 0; sent_ < p_.t3; ++cycle_) step_output();
  mark(Stage::ContractLane, kIdle);
  out_.bottleneck = Stage::ContractLane;
  finish(cycle_);
  return out_;
}

// Steps the walk would take: one per cycle, at most every stream read, packet cycle, output flit
// and store flit one after the other (plus the latencies), and the memory it holds: one entry per
// accumulator slot.
std::uint64_t walk_steps(const ContractionProgram& p, const CycleOptions& o) {
  const std::uint64_t store = o.concurrent_store ? detail::store_flits(p) : 0;
  return detail::reads_for_flits(detail::fetch_rate(o), detail::stream_flits(p)) + p.cycles + p.t3 +
         p.t2 + detail::reads_for_flits(detail::store_rate(o), store) + detail::tree_latency(p);
}

} // namespace

TraceCycles trace_cycles(const ContractionProgram& program, const CycleOptions& options,
                         bool record_timeline) {
  const std::uint64_t steps = walk_steps(program, options);
  if (steps > kTraceStepLimit) {
    // docs/cycle-model.md §3.1: too long to walk; the closed form stands in, and says so.
    const AnalyticCycles a = analytic_cycles(program, options);
    TraceCycles t;
    t.closed_form = true;
    t.steps = steps;
    t.total = a.total;
    t.period = a.period;
    t.bottleneck = a.bottleneck;
    t.store = a.store;
    t.store_cycles = a.store_cycles;
    t.slot_capacity = a.slot_capacity;
    t.trf_misses = a.trf_misses;
    t.trf_hits = a.trf_reads - std::min(a.trf_reads, a.trf_misses);
    for (std::size_t s = 0; s < kStageCount; ++s) t.stages[s].busy = a.stage_cycles[s];
    return t;
  }
  Tracer t(program, options, record_timeline);
  if (options.first == Stage::ContractLane) return t.run_lane_folder_only();
  return t.run();
}

} // namespace tujit::cycles
