// What a run of a kernel executes (docs/kernels.md §3): one Sequencer IR program, or, when the
// kernel's commands hand each other DmTensors (a commit fetched by a later command), one program
// per command in execution order, each fed the logical tensors the earlier ones produced. Every
// command runs through the run pipeline (run_pipeline.h): on the chosen engine, and with
// `verify` on the other engine bit for bit and against the float64 oracle, from the same inputs.
#pragma once

#include "harness/run/run_request.h"
#include "ir/lang/kernel.h"
#include "ir/seq/kernel_commands.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/run_program.h"
#include "ir/verify/checked_kernel.h"

#include <memory>
#include <string>
#include <vector>

namespace tujit::run {

struct CommandRun {
  /// The command as a kernel (ir/seq/kernel_commands.h), or the kernel itself when it runs as one.
  std::shared_ptr<const ir::Kernel> kernel;
  /// Its stage checks, one per stage of *kernel: what lowering reads.
  std::shared_ptr<const ir::verify::KernelCheck> check;
  RunOperands ops; // points into *kernel
  ir::verify::CheckedKernel checked() const { return {*kernel, *check}; }
  /// The name of the value this command commits (ir::seq::KernelCommand); empty for the result
  /// command.
  std::string value;
  /// The DmTensor parameters of `kernel` that hold earlier commands' values.
  std::vector<ir::seq::KernelCommand::Read> reads;
};

struct RunPlan {
  std::vector<CommandRun> commands; // execution order; the result's last
  const CommandRun& result() const { return commands.back(); }
  /// The kernel parameters the run reads, each once, in the order the commands first read them:
  /// the inputs a user may give (the values commands hand on are not among them).
  std::vector<const ir::KernelParam*> inputs() const;
  /// The tile each of inputs() is read over (ir::seq::input_tiles), by the first command reading
  /// it.
  Result<ir::seq::InputShapes> input_tiles(const ir::SpecFile& file) const;
};

/// The plan of a run of `kernel` (which, with its check, outlives it): find_run_operands of each
/// command of a whole kernel (ir::seq::split_commands), or of the kernel itself. Their diagnostics
/// otherwise.
Result<RunPlan> plan_run(const ir::verify::CheckedKernel& kernel);

/// Runs the plan of a kernel of `file`: a single command exactly as run_kernel; several in order,
/// each command's output handed to the later ones as the DmTensor it committed. The outcome is
/// the result command's with the earlier ones in `earlier` (run_request.h).
Result<RunOutcome> run_plan(const ir::SpecFile& file, const RunPlan& plan, RunRequest req);

} // namespace tujit::run
