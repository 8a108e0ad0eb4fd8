// The cycle model of one contraction chain (contract_outer … contract_lane) on one slice
// (docs/contraction.md §10, docs/datapath.md §11.5; assumptions and sources: docs/cycle-model.md).
// Every slice runs the same program in lock-step (§3: slices compute independently on identical
// loop nests), so one slice's cycles are the chain's cycles.
//
// Two independent answers that must agree:
// - analytic_cycles(): a closed form over the Sequencer IR's loop nest (sizes and strides only;
//   no walk over cycles);
// - trace_cycles(): walks the program's actual address streams cycle by cycle (stream flits, packet
//   cycles, TRF reads through the direct-mapped read cache, accumulator slots, output flits) and
//   counts, per stage, the cycles it was busy and the cycles it stalled.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/seq/fetch_program.h"
#include "ir/verify/checked_kernel.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tujit::cycles {

/// The pipeline stages the models count (docs/contraction.md §3 stage names; `fetch` is the
/// stream's flit supply, one DM read per busy cycle (docs/cycle-model.md M13), `trf_read` the TRF
/// Sequencer, `trf_store` a TRF store (in a contraction chain: the concurrent store into the other
/// half), `collect` the Collect Engine's flits and `vrf_store` a VRF store of a data-path command
/// (docs/cycle-model.md §7)).
enum class Stage : std::uint8_t {
  Fetch,
  TrfRead,
  ContractOuter,
  ContractPacket,
  ContractTime,
  ContractLane,
  TrfStore,
  Collect,
  VrfStore,
  Commit, // the write sequencer of a MemTensor write (docs/cycle-model.md §7.3)
  Switch, // the Switch Engine between the Fetch Adapter and Collect (docs/cycle-model.md §13)
};
inline constexpr std::size_t kStageCount = 11;
std::string_view stage_name(Stage s);
/// What the models time a kernel stage as, by the unit its descriptor names
/// (ir/lang/stage_descriptor.h); nullopt for a unit the models do not time on its own (the Fetch
/// Adapter is part of the fetch, a reshape moves no data, the Vector Engine and the MemTensor
/// sequencer are timed by their own rules, docs/cycle-model.md).
std::optional<Stage> cycle_stage(ir::StageUnit unit);

/// Above this many steps the trace model does not walk: it reports the closed form instead and
/// says so (docs/cycle-model.md §3.1). A walk step costs a few nanoseconds, so a trace stays well
/// under a second; its memory (one entry per accumulator slot) is bounded by the same number.
inline constexpr std::uint64_t kTraceStepLimit = std::uint64_t{1} << 24;

/// What the program alone does not say about the kernel around the chain.
struct CycleOptions {
  /// Double buffering (furiosa-opt docs/src/computing-tensors/register-files.md,
  /// docs/contraction.md §4.1): the kernel stores its TRF operand, so the next operand of the same
  /// shape is stored into the other half while this chain reads.
  bool concurrent_store = false;
  /// Cycles the stream's first flit spends in the Fetch Adapter (a cast / zero-point subtraction).
  std::uint32_t fetch_adapter_latency = 0;
  /// The stream's DM fetch when the kernel fetches it (docs/datapath.md §5): the Fetch Engine reads
  /// `fetch_read_size` elements per cycle, `fetch_reads_per_packet` reads per fetched packet, and
  /// Collect turns a fetched packet into `fetch_flits_per_packet` stream flits. Read size 0: no
  /// fetch feeds the stream (a CollectTensor input). The stream then arrives at one flit per cycle,
  /// and so it does whenever the reads of a packet are no more than its flits (docs/cycle-model.md
  /// M13).
  std::uint64_t fetch_read_size = 0;
  std::uint64_t fetch_reads_per_packet = 1;
  std::uint64_t fetch_flits_per_packet = 1;
  /// The concurrent store's own fetch when the kernel fetches the stored operand (same fields as
  /// the stream's; read size 0: its flits arrive one per cycle), and its Fetch Adapter latency
  /// (docs/cycle-model.md M10).
  std::uint64_t store_read_size = 0;
  std::uint64_t store_reads_per_packet = 1;
  std::uint64_t store_flits_per_packet = 1;
  std::uint32_t store_adapter_latency = 0;
  /// The part of the chain the kernel runs (docs/cycle-model.md §8): its first and last stage,
  /// ContractOuter … ContractLane. A part that does not start at contract_outer reads a tensor
  /// parameter whose packet cycles arrive one per cycle; one that starts at contract_lane reads a
  /// complete Time Reducer buffer.
  Stage first = Stage::ContractOuter;
  Stage last = Stage::ContractLane;
};

/// Whether the part of the chain `o` names runs stage `s` (ContractOuter … ContractLane).
bool runs_stage(const CycleOptions& o, Stage s);

/// Cycles the Fetch Adapter adds to a fetch's first flit: a table lookup, then a cast to another
/// type or a zero-point subtraction (furiosa-opt docs/src/computing-tensors/fetch-adapter.md "1 to
/// 2 cycles", docs/cycle-model.md M8, A4); an identity cast converts nothing and adds none.
std::uint32_t adapter_latency(const ir::seq::FetchProgram& f);

/// Options the kernel implies: a `to_trf` feeding the chain's TRF operand → concurrent store; a
/// table lookup / `fetch_cast` / `fetch_zero_point_sub` on the stream → the Fetch Adapter's
/// latency; a fetch feeding the stream (ir::seq::FetchProgram, consumer Stream) → its read size and
/// rate.
CycleOptions cycle_options_for(const ir::verify::CheckedKernel& kernel);
/// The same for the chain whose contract_outer is `outer` (a complete chain or a part of one).
CycleOptions cycle_options_for(const ir::verify::CheckedKernel& kernel, const ir::Stage& outer);

/// Closed form (docs/contraction.md §10 [PROP], refined in docs/cycle-model.md §2).
struct AnalyticCycles {
  /// Steady-state cycles each stage needs (its busy cycles), indexed by Stage.
  std::array<std::uint64_t, kStageCount> stage_cycles{};
  Stage bottleneck = Stage::ContractOuter;
  std::uint64_t fetch_latency = 0; // Fetch Adapter
  std::uint64_t fill = 0;          // cycles until the first packet's last flit, minus one
  // The stream's DM fetch (CycleOptions; read size 0 = none) and its reads (= stream flits at one
  // flit per cycle).
  std::uint64_t fetch_read_size = 0;
  std::uint64_t fetch_reads_per_packet = 1;
  std::uint64_t fetch_flits_per_packet = 1;
  std::uint64_t fetch_reads = 0;
  std::uint64_t tree_latency = 0;      // Packet Reducer 5 / 6 / 7
  std::uint64_t cycles_per_packet = 1; // 2 when PackSize 2 is not amortised by a time broadcast;
                                       // ceil(reads per packet cycle) when the fetch bounds it
  std::uint64_t first_output = 0;      // cycle the first output flit can leave
  std::uint64_t drain = 0;             // output flits sent after the last packet's accumulation
  std::uint64_t total = 0;             // cycles from the first fetch to the last output flit
  // Utilisation (docs/contraction.md §10): per MAC cycle, and over the whole run.
  double mac_utilization = 0;         // (|Lane|/8)·(PackSize/2)·live(OP)·live(OT)
  double mac_utilization_overall = 0; // present products / (total · 8 lanes · 64 B of MACs)
  double output_bus_utilization = 0;  // live output elements / (flits · 8)
  // Time Reducer.
  std::uint64_t slots_needed = 0;  // InnerTime
  std::uint64_t slot_capacity = 0; // 128/|P2| (Interleaved) or 32/|Lane| (Sequential)
  // TRF read cache (estimate from the loop footprints) and the concurrent store.
  std::uint64_t trf_reads = 0;
  std::uint64_t trf_misses = 0;
  bool wide_read = false;
  bool store = false;
  std::uint64_t store_flits = 0;
  std::uint64_t store_blocked = 0;
  std::uint64_t store_cycles = 0;
  std::uint64_t period = 0; // double-buffered iteration: max(total, store_cycles)
};

AnalyticCycles analytic_cycles(const ir::seq::ContractionProgram& program,
                               const CycleOptions& options = {});

/// Per-stage counts of the trace. `busy`: cycles the stage did its work (one flit, packet, read,
/// accumulation or output flit); `stall`: cycles it had work left but waited (on its input or on
/// a resource); `first`/`last`: its first and last busy cycle.
struct StageTrace {
  std::uint64_t busy = 0;
  std::uint64_t stall = 0;
  std::uint64_t first = 0;
  std::uint64_t last = 0;
};

/// One run of the timeline: stage `stage` was busy (or stalled) from `begin` to `end` (exclusive).
struct TimelineSegment {
  Stage stage = Stage::Fetch;
  bool busy = true;
  std::uint64_t begin = 0, end = 0;
};

struct TraceCycles {
  std::array<StageTrace, kStageCount> stages{};
  Stage bottleneck = Stage::ContractOuter;
  std::uint64_t total = 0;  // cycles from the first fetch to the last output flit
  std::uint64_t period = 0; // double-buffered iteration: until the concurrent store is done too
  bool complete = true;     // false only if the walk hit its safety bound (a model bug)
  /// The walk would have taken more than kTraceStepLimit steps: the numbers are the closed form's
  /// (analytic_cycles), not a walk, and `steps` says how many the walk would have needed.
  bool closed_form = false;
  std::uint64_t steps = 0;
  // contract_outer stalls by cause.
  std::uint64_t mac_wait_stream = 0;
  std::uint64_t mac_wait_slot = 0;
  // TRF read cache (one read serves every active lane with the same row, so one cache state
  // stands for all lanes: counts are per read, ×|Lane| per lane-read).
  std::uint64_t trf_hits = 0;
  std::uint64_t trf_misses = 0;
  std::uint64_t trf_bank_conflicts = 0;    // cycles a store waited for a bank a wide read held
  std::uint64_t trf_bank_alternations = 0; // narrow-read misses on the store's next bank, resolved
                                           // by bank alternation (the store used the other bank)
  // Time Reducer slots.
  std::uint64_t max_slots_in_use = 0;
  std::uint64_t slot_capacity = 0;
  bool store = false;
  std::uint64_t store_cycles = 0;
  std::vector<TimelineSegment> timeline; // filled when asked
};

/// Walks the program's address streams for one slice. Cost O(cycles + |T2|), independent of
/// |Lane|, |OP| and the slice count (no per-MAC work); above kTraceStepLimit steps the closed form
/// instead (TraceCycles::closed_form).
TraceCycles trace_cycles(const ir::seq::ContractionProgram& program,
                         const CycleOptions& options = {}, bool record_timeline = false);

/// |analytic − trace| / trace of the totals (0 when both are 0).
double relative_deviation(std::uint64_t analytic, std::uint64_t trace);

} // namespace tujit::cycles
