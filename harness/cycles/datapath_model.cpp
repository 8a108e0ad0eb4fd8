#include "harness/cycles/datapath_model.h"

#include "harness/cycles/model_params.h"

#include "ir/datapath/sequencer_derive.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tujit::cycles {

namespace {

std::uint64_t& busy_of(DataPathCycles& d, Stage s) {
  return d.stages[static_cast<std::size_t>(s)].busy;
}

std::uint64_t fetch_reads(const DataPathCommand& c) {
  return c.fetch ? c.fetch->time * c.fetch->reads_per_packet : 0;
}

// The Switch Engine between the Fetch Adapter and Collect: the book's figure for the whole
// switch (docs/cycle-model.md §13); 0 without one.
std::uint64_t switch_cycles(const DataPathCommand& c) {
  return c.fetch && c.fetch->switch_engine ? c.fetch->switch_engine->cycles : 0;
}

// A TRF store's placement from its shape (furiosa-opt docs/src/computing-tensors/register-files.md;
// docs/contraction.md §4.1 [MODEL] layout): lane l takes flits l·FPL … (l+1)·FPL − 1, flit j of a
// lane at byte 32·j of the lane, so rows of 64 B hold two flits, bank 0 then bank 1. A tensor that
// fits half the file goes to a half (furiosa-opt docs/src/scheduling/tuning.md), leaving the other
// half for the next operand; a larger one takes Full.
TrfPlacement trf_placement(const DataPathCommand& c) {
  TrfPlacement t;
  const std::uint64_t fpl = c.flits / std::max<std::uint64_t>(1, c.lanes);
  const bool half = c.register_bytes * 2 <= detail::kTu.trf_capacity_bytes;
  t.region = half ? "FirstHalf" : "Full";
  t.rows_per_lane = (fpl + detail::kTu.trf_banks - 1) / detail::kTu.trf_banks;
  t.row_capacity = std::uint64_t{detail::kTu.trf_rows} * detail::kTu.lanes /
                   std::max<std::uint64_t>(1, c.lanes) / (half ? 2 : 1);
  t.bank_flits = {c.lanes * ((fpl + 1) / 2), c.lanes * (fpl / 2)};
  return t;
}

// The Fetch sequencer's stream positions, one DM read at a time (docs/datapath.md §4, §5): a read
// takes the next positions of the current packet whose addresses go up by one (a contiguous run) or
// stay put (a broadcast), at most read_size of them.
class ReadCursor {
public:
  explicit ReadCursor(const ir::seq::FetchProgram& f)
      : seq_(f.sequencer), read_size_(f.read_size), packet_(f.packet),
        positions_(f.sequencer.stream_size()), digit_(f.sequencer.entries.size(), 0) {}
  bool done() const { return pos_ >= positions_; }
  /// One read; returns the elements of the current packet read so far (|P| when it completed).
  std::uint64_t read() {
    std::uint64_t taken = 0, step = 0, prev = 0;
    while (!done() && taken < read_size_) {
      if (taken == 1) step = offset_ - prev;
      if (taken > 0 && (offset_ - prev != step || step > 1)) break;
      prev = offset_;
      ++taken;
      advance();
      if (pos_ % packet_ == 0) break;
    }
    return pos_ % packet_ == 0 ? packet_ : pos_ % packet_;
  }

private:
  void advance() {
    ++pos_;
    for (std::size_t i = digit_.size(); i-- > 0;) {
      const auto& e = seq_.entries[i];
      if (digit_[i] + 1 < e.size) {
        ++digit_[i];
        offset_ += e.stride;
        return;
      }
      offset_ -= digit_[i] * e.stride;
      digit_[i] = 0;
    }
  }
  const ir::datapath::SequencerConfig& seq_;
  std::uint64_t read_size_, packet_, positions_;
  std::vector<std::uint64_t> digit_;
  std::uint64_t pos_ = 0, offset_ = 0;
};

// The busiest of the fetch, the switch and the sink. On a tie the switch wins over the sink (the
// flits Collect takes are the ring's output) and the sink over the fetch.
Stage bottleneck(DataPathCycles& d, Stage sink) {
  Stage b = sink;
  if (busy_of(d, Stage::Switch) > 0 && busy_of(d, Stage::Switch) >= busy_of(d, b))
    b = Stage::Switch;
  if (busy_of(d, Stage::Fetch) > busy_of(d, b)) b = Stage::Fetch;
  return b;
}

class DataPathTracer {
public:
  DataPathTracer(const DataPathCommand& c, bool timeline)
      : c_(c), marks_(out_.stages, out_.timeline, timeline) {}
  DataPathCycles run();

private:
  enum : int {
    kIdle = detail::StageMarks::kIdle,
    kBusy = detail::StageMarks::kBusy,
    kStall = detail::StageMarks::kStall
  };
  void mark(Stage s, int state) { marks_.mark(s, state, cycle_); }
  void step_fetch(ReadCursor& cursor);
  std::uint64_t visible() const;
  void step_switch();
  /// Flits Collect can take: the adapter's, or those the switch has handed on.
  std::uint64_t available() const { return switched() ? released_ : visible(); }
  bool switched() const { return c_.fetch && c_.fetch->switch_engine; }
  void step_sink();

  const DataPathCommand& c_;
  DataPathCycles out_;
  detail::StageMarks marks_;
  std::uint64_t cycle_ = 0;
  std::uint64_t packets_ = 0, delivered_ = 0, written_ = 0;
  std::vector<std::uint64_t> ring_; // flits delivered by the end of each of the last L+1 cycles
  std::uint64_t max_row_ = 0;
  // The switch: input packets it took, the ring cycles each takes, those left of the current one
  // and those worked in all, and the flits it has handed to Collect.
  std::uint64_t switch_taken_ = 0, switch_step_ = 1, switch_left_ = 0, switch_work_ = 0;
  std::uint64_t released_ = 0;
};

void DataPathTracer::step_fetch(ReadCursor& cursor) {
  const ir::seq::FetchProgram& f = *c_.fetch;
  if (cursor.done()) {
    mark(Stage::Fetch, kIdle);
    return;
  }
  // Back-pressure (docs/cycle-model.md M2): Collect (or the switch's input) holds two packets'
  // flits.
  const std::uint64_t taken = switched() ? switch_taken_ * f.flits_per_packet : written_;
  if (visible() - taken >=
      std::uint64_t{detail::kTu.stream_adapter_buffer_packets} * f.flits_per_packet) {
    mark(Stage::Fetch, kStall);
    return;
  }
  mark(Stage::Fetch, kBusy);
  ++out_.reads;
  const std::uint64_t read = cursor.read();
  if (read == f.packet) {
    ++packets_;
    delivered_ = packets_ * f.flits_per_packet;
  } else {
    delivered_ = packets_ * f.flits_per_packet + read / f.flit_elements;
  }
}

// Flits out of the Fetch Adapter by this cycle: those delivered L cycles ago (one per cycle from
// cycle 0 without a fetch).
std::uint64_t DataPathTracer::visible() const {
  if (!c_.fetch) return std::min(c_.flits, cycle_ + 1);
  const std::uint64_t l = out_.adapter_latency;
  if (cycle_ < l) return 0;
  return ring_[(cycle_ - l) % ring_.size()];
}

// The switch takes one input packet at a time once the adapter has handed on all its flits and
// keeps it in the ring for its share of the book's figure; the output flits leave as the ring
// works, at the rate that spreads them over the whole figure (a broadcast's copies reach Collect
// hop by hop; docs/cycle-model.md §13).
void DataPathTracer::step_switch() {
  const ir::seq::FetchProgram& f = *c_.fetch;
  if (switch_left_ == 0 && switch_taken_ < f.time &&
      visible() >= (switch_taken_ + 1) * f.flits_per_packet) {
    ++switch_taken_;
    switch_left_ = switch_step_;
  }
  if (switch_left_ == 0) {
    mark(Stage::Switch, switch_taken_ >= f.time ? kIdle : kStall);
    return;
  }
  mark(Stage::Switch, kBusy);
  --switch_left_;
  ++switch_work_;
  released_ = switch_work_ * c_.flits / (switch_step_ * f.time);
}

void DataPathTracer::step_sink() {
  const bool collect = !c_.short_command() && c_.fetch.has_value();
  if (written_ >= c_.flits || written_ >= available()) {
    const int state = written_ >= c_.flits ? kIdle : kStall;
    mark(c_.sink, state);
    if (collect && c_.sink != Stage::Collect) mark(Stage::Collect, state);
    return;
  }
  if (collect && c_.sink != Stage::Collect) mark(Stage::Collect, kBusy);
  mark(c_.sink, kBusy);
  if (out_.trf) {
    // The flit's lane, row and bank (docs/contraction.md §4.1 [MODEL] layout).
    const std::uint64_t fpl = c_.flits / std::max<std::uint64_t>(1, c_.lanes);
    const std::uint64_t byte = (written_ % fpl) * detail::kTu.flit_bytes;
    const std::uint64_t row = byte / detail::kTu.trf_wide_read_bytes;
    ++out_.trf->bank_flits[(byte / detail::kTu.trf_narrow_read_bytes) % detail::kTu.trf_banks];
    max_row_ = std::max(max_row_, row + 1);
  }
  ++written_;
}

DataPathCycles DataPathTracer::run() {
  out_.adapter_latency = c_.fetch ? adapter_latency(*c_.fetch) : 0;
  ring_.assign(out_.adapter_latency + 1, 0);
  if (c_.sink == Stage::TrfStore) {
    out_.trf = trf_placement(c_);
    out_.trf->bank_flits = {0, 0};
  }
  std::optional<ReadCursor> cursor;
  if (c_.fetch) cursor.emplace(*c_.fetch);
  if (switched()) {
    const std::uint64_t time = std::max<std::uint64_t>(1, c_.fetch->time);
    switch_step_ = std::max<std::uint64_t>(1, (switch_cycles(c_) + time - 1) / time);
  }
  // Safety bound: the fetch makes a read, the switch works, or the sink writes a flit, at least
  // every other cycle.
  const std::uint64_t bound =
      2 * (fetch_reads(c_) + c_.flits + switch_step_ * (c_.fetch ? c_.fetch->time : 0)) +
      out_.adapter_latency + 4;
  for (cycle_ = 0; written_ < c_.flits; ++cycle_) {
    if (cycle_ > bound) {
      out_.complete = false;
      break;
    }
    if (cursor) step_fetch(*cursor);
    ring_[cycle_ % ring_.size()] = delivered_;
    if (switched()) step_switch();
    step_sink();
  }
  out_.total = cycle_ + c_.ring_tail;
  out_.steps = cycle_;
  if (out_.trf) out_.trf->rows_per_lane = max_row_;
  marks_.flush(cycle_);
  out_.bottleneck = bottleneck(out_, c_.sink);
  return out_;
}

// The write sequencer's walk (docs/cycle-model.md §7.3): packet t arrives at cycle t; its live
// positions, in stream order, form writes of consecutive addresses of at most write_size; one
// write per cycle, never before its packet arrived.
DataPathCycles commit_trace(const DataPathCommand& c) {
  const ir::seq::CommitProgram& w = *c.commit;
  DataPathCycles d;
  const std::uint64_t packet = w.packet;
  std::uint64_t next = 0; // the first cycle the sequencer is free
  for (std::uint64_t t = 0; t < w.time; ++t) {
    const ir::Cell tc = w.time_cell(t);
    std::uint64_t run = 0, prev = 0;
    for (std::uint64_t e = 0; e < packet; ++e) {
      if (!w.position_live(tc, e)) continue; // dropped: nothing is written
      const std::uint64_t a = w.sequencer.offset_at(t * packet + e);
      if (run > 0 && run < w.write_size && a == prev + 1) {
        ++run;
      } else {
        next = std::max(next, t) + 1;
        ++d.writes;
        run = 1;
      }
      prev = a;
    }
  }
  d.total = std::max(next, c.flits);
  busy_of(d, Stage::Commit) = d.writes;
  d.stages[static_cast<std::size_t>(Stage::Commit)].stall = d.total - d.writes;
  d.bottleneck = Stage::Commit;
  d.steps = w.time * packet;
  return d;
}

} // namespace

DataPathCycles datapath_analytic(const DataPathCommand& c) {
  if (c.commit) {
    // The book's Commit Engine count (furiosa-opt docs/src/moving-tensors/commit-engine.md
    // "Multi-Write Packet"): Time · valid_size / write_size writes, one per cycle, fed one packet
    // per cycle.
    const ir::seq::CommitProgram& w = *c.commit;
    DataPathCycles a;
    a.writes = w.live_packets * ((w.valid + w.write_size - 1) / w.write_size);
    busy_of(a, Stage::Commit) = a.writes;
    a.total = std::max(c.flits, a.writes);
    a.bottleneck = Stage::Commit;
    return a;
  }
  DataPathCycles a;
  a.adapter_latency = c.fetch ? adapter_latency(*c.fetch) : 0;
  a.reads = fetch_reads(c);
  busy_of(a, Stage::Fetch) = a.reads;
  if (c.fetch && !c.short_command()) busy_of(a, Stage::Collect) = c.flits;
  busy_of(a, c.sink) = c.flits;
  busy_of(a, Stage::Switch) = switch_cycles(c);
  a.total = a.adapter_latency + std::max({c.flits, a.reads, switch_cycles(c)}) + c.ring_tail;
  a.bottleneck = bottleneck(a, c.sink);
  if (c.sink == Stage::TrfStore) a.trf = trf_placement(c);
  return a;
}

DataPathCycles datapath_trace(const DataPathCommand& c, bool record_timeline) {
  if (c.commit && c.commit->time * c.commit->packet <= kTraceStepLimit) return commit_trace(c);
  const std::uint64_t positions = c.fetch    ? c.fetch->sequencer.stream_size()
                                  : c.commit ? c.commit->time * c.commit->packet
                                             : 0;
  const std::uint64_t steps = positions + fetch_reads(c) + c.flits + switch_cycles(c);
  if (steps > kTraceStepLimit) {
    // docs/cycle-model.md §3.1: too long to walk; the closed form stands in, and says so.
    DataPathCycles t = datapath_analytic(c);
    t.closed_form = true;
    t.steps = steps;
    return t;
  }
  return DataPathTracer(c, record_timeline).run();
}

} // namespace tujit::cycles
