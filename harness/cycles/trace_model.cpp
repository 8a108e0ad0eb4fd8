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
// Cost: O(cycles + |T2| + store flits); lanes, packet cells and slices are never iterated.
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

// Run-length recorder of one stage's state (0 idle, 1 busy, 2 stall) for the timeline.
class StageRecorder {
public:
  void record(int state, std::uint64_t cycle, Stage stage, std::vector<TimelineSegment>& out) {
    if (state == state_) return;
    flush(cycle, stage, out);
    state_ = state;
    begin_ = cycle;
  }
  void flush(std::uint64_t cycle, Stage stage, std::vector<TimelineSegment>& out) {
    if (state_ != 0 && cycle > begin_) out.push_back({stage, state_ == 1, begin_, cycle});
    begin_ = cycle;
  }

private:
  int state_ = 0;
  std::uint64_t begin_ = 0;
};

class Tracer {
public:
  Tracer(const ContractionProgram& p, const CycleOptions& o, bool timeline)
      : p_(p), opt_(o), timeline_(timeline), walker_(p.cycle_nest) {}
  TraceCycles run();

private:
  enum : int { kIdle = 0, kBusy = 1, kStall = 2 };
  void mark(Stage s, int state) {
    StageTrace& st = out_.stages[static_cast<std::size_t>(s)];
    if (state == kBusy) {
      if (st.busy == 0) st.first = cycle_;
      st.last = cycle_;
      ++st.busy;
    } else if (state == kStall) {
      ++st.stall;
    }
    if (timeline_) rec_[static_cast<std::size_t>(s)].record(state, cycle_, s, out_.timeline);
  }
  bool trf_read(std::uint64_t element); // true on a hit
  void step_output();
  void step_fetch();
  void step_mac();
  void step_store();

  const ContractionProgram& p_;
  const CycleOptions& opt_;
  bool timeline_;
  TraceCycles out_;
  std::array<StageRecorder, kStageCount> rec_{};
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
  if (delivered_ >= p_.time || cycle_ < opt_.fetch_adapter_latency) {
    mark(Stage::Fetch, kIdle);
    return;
  }
  if (delivered_ - released_ >= buffer_cap_) {
    mark(Stage::Fetch, kStall); // back-pressure: the adapter holds two packets
    return;
  }
  mark(Stage::Fetch, kBusy);
  ++reads_;
  while (delivered_ < p_.time && detail::reads_for_flits(rate_, delivered_ + 1) <= reads_)
    ++delivered_;
}

void Tracer::step_mac() {
  // The tree's output and the accumulation of the packet issued `latency_` cycles ago.
  const bool accumulating = accumulations_pending_ > 0 && !tree_out_.empty() &&
                            tree_out_[cycle_ % tree_out_.size()] == cycle_;
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
  const bool slotted = live && a.slot < p_.t2;
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
  if (trf_read(a.trf))
    ++out_.trf_hits;
  else
    ++out_.trf_misses;
  released_ = std::max(released_, a.flit); // earlier packets are done
  const std::uint64_t acc = cycle_ + latency_;
  tree_out_[acc % tree_out_.size()] = acc;
  tree_live_[acc % tree_out_.size()] = live ? 1 : 0;
  ++accumulations_pending_;
  if (slotted && --remaining_[a.slot] == 0) done_[a.slot] = acc;
  ++issued_;
  walker_.advance();
}

void Tracer::step_store() {
  if (store_next_ >= store_total_) {
    mark(Stage::TrfStore, kIdle);
    return;
  }
  // The two lowest unwritten flits that have arrived (one per cycle from cycle 0) are buffered;
  // write the first whose bank no read miss holds this cycle.
  const auto bank_of = [this](std::uint64_t f) { return (f % store_fpl_) % detail::kTu.trf_banks; };
  std::uint64_t candidates = 0;
  for (std::uint64_t f = store_next_;
       f < store_total_ && f <= cycle_ && candidates < detail::kTu.trf_store_buffer_banks; ++f) {
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
  latency_ = detail::tree_latency(p);
  tree_out_.assign(latency_ + 1, kNever);
  tree_live_.assign(latency_ + 1, 0);
  for (auto& bank : cache_) bank.fill(kNever);

  // Contributions per slot: one pass over the nest's slot stream (the Time Reducer's counters).
  remaining_.assign(p.t2, 0);
  {
    ir::seq::CycleWalker w(p.cycle_nest);
    do {
      if (p.is_cycle_live(w.position()) && w.address().slot < p.t2) ++remaining_[w.address().slot];
    } while (w.advance());
  }
  has_work_.assign(p.t2, 0);
  for (std::size_t u = 0; u < remaining_.size(); ++u) has_work_[u] = remaining_[u] > 0;
  allocated_.assign(p.t2, 0);
  done_.assign(p.t2, kNever);

  out_.store = opt_.concurrent_store;
  if (out_.store) {
    store_total_ = detail::store_flits(p);
    store_fpl_ = std::max<std::uint64_t>(1, store_total_ / std::max<std::uint64_t>(1, p.lanes));
    store_written_.assign(store_total_, 0);
  }

  // Safety bound: every stage makes progress at least once per (latency + 2) cycles.
  const std::uint64_t bound =
      (detail::reads_for_flits(rate_, p.time) + p.cycles + p.t3 + store_total_ + 4) *
          (latency_ + 4) +
      opt_.fetch_adapter_latency;
  std::uint64_t chain_end = 0;
  for (cycle_ = 0;; ++cycle_) {
    const bool chain_done = sent_ >= p.t3;
    const bool store_done = store_next_ >= store_total_;
    if (chain_done && chain_end == 0) chain_end = cycle_;
    if (chain_done && store_done) break;
    if (cycle_ > bound) {
      out_.complete = false;
      break;
    }
    step_output();
    step_fetch();
    step_mac();
    if (out_.store) step_store();
  }
  if (chain_end == 0) chain_end = cycle_;
  out_.total = chain_end;
  out_.period = std::max(chain_end, store_done_);
  out_.store_cycles = store_done_;
  if (timeline_)
    for (std::size_t s = 0; s < kStageCount; ++s)
      rec_[s].flush(cycle_, static_cast<Stage>(s), out_.timeline);

  const auto busy = [this](Stage s) { return out_.stages[static_cast<std::size_t>(s)].busy; };
  out_.bottleneck = Stage::ContractOuter;
  if (busy(Stage::Fetch) > busy(Stage::ContractOuter)) out_.bottleneck = Stage::Fetch;
  if (busy(Stage::ContractLane) > std::max(busy(Stage::Fetch), busy(Stage::ContractOuter)))
    out_.bottleneck = Stage::ContractLane;
  if (out_.store && out_.store_cycles > out_.total) out_.bottleneck = Stage::TrfStore;
  return out_;
}

} // namespace

TraceCycles trace_cycles(const ContractionProgram& program, const CycleOptions& options,
                         bool record_timeline) {
  Tracer t(program, options, record_timeline);
  return t.run();
}

} // namespace tujit::cycles
