// Quantities both cycle models read off the Sequencer IR (internal to harness/cycles/). Each is a
// direct reading of a spec rule, so the analytic and trace models cannot disagree on them.
#pragma once

#include "harness/cycles/cycle_model.h"
#include "ir/seq/contraction_program.h"
#include "ir/target/rngd.h"
#include "ir/types/scalar_type.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <vector>

namespace tujit::cycles::detail {

inline constexpr const target::TensorUnitDescription& kTu = target::kRngd;

/// Packet Reducer latency by the stream's wire width (furiosa-opt
/// docs/src/computing-tensors/contraction-engine/packet-reducer.md: 7 i4, 6 i8/f8, 5 bf16).
inline std::uint64_t tree_latency(const ir::seq::ContractionProgram& p) {
  switch (ir::wire_bits(p.stream_type)) {
  case 4:
    return kTu.tree_latency_4bit;
  case 8:
    return kTu.tree_latency_8bit;
  default:
    return kTu.tree_latency_16bit;
  }
}

/// The Packet Reducer latency the part of the chain pays: none when it does not run
/// contract_packet (docs/cycle-model.md §8).
inline std::uint64_t part_tree_latency(const ir::seq::ContractionProgram& p,
                                       const CycleOptions& o) {
  return runs_stage(o, Stage::ContractPacket) ? tree_latency(p) : 0;
}

/// Slots the Time Reducer buffer holds (docs/contraction.md §7): Interleaved 1024 / (8·|P2|),
/// Sequential 1024 / (|Lane|·32).
inline std::uint64_t slot_capacity(const ir::seq::ContractionProgram& p) {
  const std::uint64_t per_slot = p.mode == ir::LaneMode::Interleaved
                                     ? std::uint64_t{kTu.lanes} * p.p2
                                     : p.lanes * kTu.accumulator_columns;
  return std::max<std::uint64_t>(1, kTu.accumulator_cells / std::max<std::uint64_t>(1, per_slot));
}

/// Output flits per T2 position: |P2| (Interleaved) or |Lane|·ceil(|P2|/8) (Sequential), i.e.
/// |T3| / |T2| (§8).
inline std::uint64_t flits_per_slot(const ir::seq::ContractionProgram& p) {
  return std::max<std::uint64_t>(1, p.t3 / std::max<std::uint64_t>(1, p.t2));
}

/// The stream fetch's rate in lowest terms: `reads` DM reads (one per cycle) deliver `flits` stream
/// flits (docs/datapath.md §5: cycles = |Time|·reads_per_packet). 1:1 when no fetch feeds the
/// stream or a packet's reads are no more than its flits: the Stream Adapter takes one flit per
/// cycle (docs/cycle-model.md M13).
struct FetchRate {
  std::uint64_t reads = 1, flits = 1;
};
inline FetchRate fetch_rate(std::uint64_t read_size, std::uint64_t reads_per_packet,
                            std::uint64_t flits_per_packet) {
  if (read_size == 0 || flits_per_packet == 0 || reads_per_packet <= flits_per_packet) return {};
  const std::uint64_t g = std::gcd(reads_per_packet, flits_per_packet);
  return {reads_per_packet / g, flits_per_packet / g};
}
/// The stream's fetch rate, and the concurrent store's (docs/cycle-model.md M10, M13).
inline FetchRate fetch_rate(const CycleOptions& o) {
  return fetch_rate(o.fetch_read_size, o.fetch_reads_per_packet, o.fetch_flits_per_packet);
}
inline FetchRate store_rate(const CycleOptions& o) {
  return fetch_rate(o.store_read_size, o.store_reads_per_packet, o.store_flits_per_packet);
}
/// Reads done when the first k stream flits are delivered: flit j (from 0) of the stream is
/// delivered with read ceil((j+1)·reads/flits), the read that completes its share of the packet.
inline std::uint64_t reads_for_flits(const FetchRate& r, std::uint64_t k) {
  return (k * r.reads + r.flits - 1) / r.flits;
}

/// TRF read geometry (docs/contraction.md §4.1 [MODEL] layout): byte offset of element a in its
/// lane, a cache line = one 32 B bank word (narrow) or one 64 B row over both banks (wide).
inline std::uint64_t trf_byte(const ir::seq::ContractionProgram& p, std::uint64_t element) {
  return element * ir::wire_bits(p.trf_type) / kTu.bits_per_byte;
}
inline std::uint64_t trf_line_bytes(const ir::seq::ContractionProgram& p) {
  return p.wide_read ? kTu.trf_wide_read_bytes : kTu.trf_narrow_read_bytes;
}

/// Flits of one TRF operand of this shape (a to_trf of |Lane|·|Element| elements, one 32 B flit
/// per cycle, §10), and flits per lane (FlitsPerLane, §4.2).
inline std::uint64_t store_flits(const ir::seq::ContractionProgram& p) {
  const std::uint64_t bits = p.lanes * p.element * ir::wire_bits(p.trf_type);
  return (bits + kTu.flit_bits() - 1) / kTu.flit_bits();
}

/// Stream flits the part reads: the stream's |Time| (TB re-uses them), or, for a part that starts
/// after contract_outer, one packet of its input tensor per packet cycle (docs/cycle-model.md §8).
inline std::uint64_t stream_flits(const ir::seq::ContractionProgram& p) {
  return p.forms_products() ? p.time : p.cycles;
}

/// Live counts (padding excluded).
inline std::uint64_t live_lanes(const ir::seq::ContractionProgram& p) {
  if (p.lane_live.empty()) return p.lanes;
  return static_cast<std::uint64_t>(std::count(p.lane_live.begin(), p.lane_live.end(), 1));
}
inline std::uint64_t live_cycles(const ir::seq::ContractionProgram& p) {
  if (p.cycle_live.empty()) return p.cycles;
  return static_cast<std::uint64_t>(std::count(p.cycle_live.begin(), p.cycle_live.end(), 1));
}
/// Live OP cells of the columns the Packet Reducer keeps (cells beyond columns·group drain
/// nowhere).
inline std::uint64_t live_reduced_cells(const ir::seq::ContractionProgram& p) {
  const std::uint64_t n = std::min(p.op, p.columns * p.group);
  if (p.cell_live.empty()) return n;
  return static_cast<std::uint64_t>(
      std::count(p.cell_live.begin(), p.cell_live.begin() + static_cast<std::ptrdiff_t>(n), 1));
}
inline std::uint64_t live_op_cells(const ir::seq::ContractionProgram& p) {
  if (p.cell_live.empty()) return p.op;
  return static_cast<std::uint64_t>(std::count(p.cell_live.begin(), p.cell_live.end(), 1));
}

/// Multipliers per lane: one 64 B packet of the stream type (docs/contraction.md §1).
inline std::uint64_t multipliers_per_lane(const ir::seq::ContractionProgram& p) {
  return std::uint64_t{kTu.contraction_packet_bytes} * kTu.bits_per_byte /
         ir::wire_bits(p.stream_type);
}

/// Run-length recorder of one stage's state (0 idle, 1 busy, 2 stall) for the timeline.
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

/// Busy and stall counts per stage, and the timeline's runs when asked: what every trace records
/// (a stage's state each cycle: idle, busy or stalled).
class StageMarks {
public:
  enum : int { kIdle = 0, kBusy = 1, kStall = 2 };
  StageMarks(std::array<StageTrace, kStageCount>& stages, std::vector<TimelineSegment>& timeline,
             bool record)
      : stages_(stages), timeline_(timeline), record_(record) {}
  void mark(Stage s, int state, std::uint64_t cycle) {
    StageTrace& st = stages_[static_cast<std::size_t>(s)];
    if (state == kBusy) {
      if (st.busy == 0) st.first = cycle;
      st.last = cycle;
      ++st.busy;
    } else if (state == kStall) {
      ++st.stall;
    }
    if (record_) rec_[static_cast<std::size_t>(s)].record(state, cycle, s, timeline_);
  }
  /// Closes every stage's last run at `cycle` (the end of the trace).
  void flush(std::uint64_t cycle) {
    if (!record_) return;
    for (std::size_t s = 0; s < kStageCount; ++s)
      rec_[s].flush(cycle, static_cast<Stage>(s), timeline_);
  }

private:
  std::array<StageTrace, kStageCount>& stages_;
  std::vector<TimelineSegment>& timeline_;
  bool record_;
  std::array<StageRecorder, kStageCount> rec_{};
};

} // namespace tujit::cycles::detail
