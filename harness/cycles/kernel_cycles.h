// The cycles of a whole kernel (docs/cycle-model.md §9). Each statement of the kernel body is one
// Tensor Unit command; a command is timed by the model of its form — a contraction chain or a
// part of one (cycle_model.h, chain_part.h), or a data-path command: a fetch and collect, a TRF /
// VRF store, the StoTRF / StoVRF short command (datapath_model.h) — both analytically and by its
// trace. The commands are then scheduled the way furiosa-opt docs/src/scheduling/schedule.md
// describes: the stages of one command overlap (the command's own model), commands of one context
// run one after the other, commands of different contexts overlap unless one reads what the other
// writes; a TRF store that fits half the file is double-buffered when the kernel repeats, so in
// steady state the store of the next operand overlaps this pass's contraction (furiosa-opt
// docs/src/computing-tensors/register-files.md "Double Buffering").
#pragma once

#include "harness/cycles/chain_part.h"
#include "harness/cycles/cycle_report.h"
#include "harness/cycles/datapath_model.h"
#include "harness/cycles/dma_model.h"
#include "harness/cycles/schedule.h"
#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/switch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::cycles {

enum class CommandKind : std::uint8_t {
  Contraction, // a complete contract_outer … contract_lane chain (its stream fetch included)
  ChainPart,   // a contiguous part of a contraction chain
  DataPath,    // fetch + collect, a register-file store, the StoTRF / StoVRF short command
  Dma,         // a DMA transfer, to_dm / to_hbm (docs/cycle-model.md §10)
  Switch,      // the Switch Engine on a stream parameter (docs/cycle-model.md §13)
};
std::string_view command_kind_name(CommandKind k);

/// The Transpose Engine in a command's output path (docs/cycle-model.md §12): its burst of
/// `iterations` matrices (docs/transpose.md §5), fed one flit per cycle.
struct TransposeCycles {
  std::uint64_t latency_before = 0; // Cast Engine stages between the engines and the transpose
  std::uint64_t in_flits = 0;       // the stream it takes: |Time| of its input
  std::uint64_t out_flits = 0;      // the stream it hands on: |OutTime|
  std::uint64_t out_rows = 0;       // output flits per matrix
  std::uint64_t iterations = 0, matrix_flits = 0; // n, input flits per matrix
  bool double_buffered = true;
  std::uint64_t burst = 0; // the book's burst latency, its input one flit per cycle
};

/// The output path behind a command's engines (docs/cycle-model.md §11, §12): the Cast Engine and
/// the Commit Adapter pass one flit per cycle, one cycle each; the Transpose Engine runs its
/// burst; the Commit Engine writes the stream into DM through the write sequencer (the `commit`
/// walk of datapath_model.h).
struct OutputPathCycles {
  std::uint64_t latency = 0; // cast / trim / commit_cast stages (after the transpose, when there
                             // is one) before the commit, one cycle each
  std::uint64_t flits = 0;   // the stream the commit takes: |Time|
  std::optional<TransposeCycles> transpose;
  bool committed = false;         // the path ends with a commit (`commit`, `analytic`, `trace` set)
  DataPathCommand commit;         // sink Commit
  DataPathCycles analytic, trace; // the commit alone, its flits arriving one per cycle
};

/// When one model runs a command within the kernel.
struct CommandSlot {
  std::uint64_t start = 0; // the command's set-up begins
  std::uint64_t end = 0;   // its last flit is written / output
};

struct CommandCycles {
  std::size_t statement = 0;       // ir::Stage::chain of its stages
  std::vector<std::size_t> stages; // its stages (indices into Kernel::stages)
  std::string what; // "begin(b) → fetch → collect → to_trf", the StoTRF short command
  ir::ContextKind context = ir::ContextKind::Main; // Unknown counts as main
  CommandKind kind = CommandKind::DataPath;
  /// Configuration cycles before the command's first read (docs/cycle-model.md M15).
  std::uint64_t setup = 0;
  std::vector<std::size_t> after; // commands whose results it reads (the graph's read after write)
  std::uint64_t analytic = 0, trace = 0; // each model's pipeline cycles (set-up excluded)
  bool trace_closed_form = false;        // the trace stood in the closed form (§3.1)
  std::uint64_t trace_steps = 0;
  std::optional<CycleReport> chain; // Contraction / ChainPart
  std::optional<ChainPart> part;
  std::optional<DataPathCommand> path; // DataPath
  std::optional<DataPathCycles> path_analytic, path_trace;
  std::optional<OutputPathCycles> output;    // a contraction's or a data path's output path
  std::optional<ir::verify::DmaDerived> dma; // Dma
  std::optional<DmaCycles> dma_analytic, dma_trace;
  std::optional<ir::verify::SwitchDerived> switch_engine; // Switch
  CommandSlot analytic_slot, trace_slot;                  // from KernelCycles' schedules
  /// Every walk of the trace model finished (a DMA walk always does).
  bool trace_complete() const {
    const bool engines = chain ? chain->trace.complete : !path_trace || path_trace->complete;
    return engines && (!output || output->trace.complete);
  }
};

struct KernelCycles {
  std::string kernel;
  std::vector<CommandCycles> commands;
  std::size_t main = 0; // the command the report leads with: the contraction if any, else the last
  std::uint64_t analytic_total = 0, trace_total = 0; // one pass: the last command's end
  /// Repeated with the TRF double-buffered (§9): the longest context's work per pass; equal to the
  /// total when no store overlaps a contraction.
  std::uint64_t analytic_period = 0, trace_period = 0;
  bool double_buffered = false;
  double agreement = 1.0; // 1 − |analytic − trace| / trace of the totals
  /// The commands' constraints and each model's schedule of them (docs/cycle-model.md §14).
  ScheduleGraph graph;
  Schedule analytic_schedule, trace_schedule;
};

/// Times every command of the kernel and schedules them. E-CYCLES-001 when no statement has a
/// form the models time (a kernel whose statements end at a fetch, before Collect); a stage
/// verifier's diagnostic when it refuses a stage (the kernel checker reports the same).
Result<KernelCycles> kernel_cycles(const ir::verify::CheckedKernel& kernel,
                                   bool record_timeline = false);

/// The cycles a cycle budget holds the kernel to (docs/ci.md): the analytic model's cycles of its
/// main command — the contraction chain, or the kernel's last command — set-up excluded, the
/// figure the book's derivations give (70 for the batched matmuls of specs/).
std::uint64_t budget_cycles(const KernelCycles& k);

} // namespace tujit::cycles
