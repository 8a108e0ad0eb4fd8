// The cycle models of one data-path command on one slice (docs/cycle-model.md §7): DM → Fetch
// Engine → [Fetch Adapter] → Collect → sink, where the sink is the kernel's result stream, a TRF
// store (`to_trf`) or a VRF store (`to_vrf`); or the StoTRF / StoVRF short command, which moves
// the same DM run into the register file without the Collect stage; or a store of a
// CollectTensor parameter, whose flits arrive one per cycle.
//
// A Switch Engine between the Fetch Adapter and Collect (FetchProgram::switch_engine) is one more
// stage of the same pipeline, timed by the book's figure (docs/cycle-model.md §13).
//
// Two independent answers, as for a contraction chain:
// - datapath_analytic(): the closed form `L_adapter + max(flits, |Time|·reads_per_packet)`
//   (docs/datapath.md §5: one read of read_size elements per cycle; every engine after the fetch
//   moves one flit per cycle);
// - datapath_trace(): walks the Fetch sequencer's address stream (ir::seq::FetchProgram::sequencer)
//   cycle by cycle — each DM read takes the next positions of the packet whose addresses are
//   contiguous (or one broadcast address), up to read_size; a flit leaves Collect once the reads
//   have covered its elements — and writes each flit into its register-file lane, row and bank.
#pragma once

#include "harness/cycles/cycle_model.h"
#include "ir/seq/commit_program.h"
#include "ir/seq/fetch_program.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::cycles {

/// What one data-path command moves.
struct DataPathCommand {
  /// The fetch; nullopt when the command starts from a CollectTensor parameter.
  std::optional<ir::seq::FetchProgram> fetch;
  /// Where the flits go: Stage::Collect (the collected stream is the result), TrfStore, VrfStore,
  /// or Commit (a commit or MemTensor write, `commit` set: the write sequencer's program).
  Stage sink = Stage::Collect;
  std::optional<ir::seq::CommitProgram> commit;
  std::uint64_t flits = 1; // flits the sink takes: |Time| of the collected stream
  std::uint64_t lanes = 1; // TRF store: |Lane| (each lane takes flits / |Lane| consecutive flits)
  std::uint64_t register_bytes = 0; // TRF / VRF store: the stored tensor's bytes per slice
  /// The inter-slice reducer's tail after the last flit: one ring traversal of its reduction
  /// group, r cycles (docs/cycle-model.md §7; 0 without the reducer).
  std::uint64_t ring_tail = 0;
  /// The fetch takes the StoTRF / StoVRF short command (FetchProgram::short_command).
  bool short_command() const { return fetch && fetch->short_command.has_value(); }
};

/// Where a TRF store lands (furiosa-opt docs/src/computing-tensors/register-files.md "Double
/// Buffering"; docs/cycle-model.md M14).
struct TrfPlacement {
  std::string region;              // "FirstHalf" (fits 32 KiB: double-bufferable) or "Full"
  std::uint64_t rows_per_lane = 0; // rows of the lane's banks the flits fill (32 B per bank)
  std::uint64_t row_capacity = 0;  // rows the region gives each active lane
  std::array<std::uint64_t, 2> bank_flits{}; // flits written into bank 0 / bank 1
};

/// One model's answer.
struct DataPathCycles {
  std::uint64_t total = 0; // cycles from the first DM read (or flit) to the last flit written
  std::array<StageTrace, kStageCount> stages{}; // fetch, switch, collect, trf_store / vrf_store
  Stage bottleneck = Stage::Fetch;
  std::uint64_t adapter_latency = 0;
  std::uint64_t reads = 0;  // DM reads of the fetch
  std::uint64_t writes = 0; // Commit: the write sequencer's writes
  std::optional<TrfPlacement> trf;
  bool complete = true;
  bool closed_form = false; // the trace stood in the closed form (kTraceStepLimit)
  std::uint64_t steps = 0;  // steps the walk took (or would have taken)
  std::vector<TimelineSegment> timeline;
};

DataPathCycles datapath_analytic(const DataPathCommand& c);
DataPathCycles datapath_trace(const DataPathCommand& c, bool record_timeline = false);

} // namespace tujit::cycles
