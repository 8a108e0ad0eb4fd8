// The run pipeline of `tujit run`, `tujit bench` and the tests (docs/cli.md `tujit run`): find
// what the kernel reads, make its inputs (given or seeded random, over their tiles), lower it to
// the Sequencer IR with the address streams of its operands and output, compile it (or load the
// object from the cache), execute it on the chosen engine straight from the logical inputs into
// the logical output, and with `verify` run the other engine on the same inputs (bit for bit) and
// the float64 oracle. A part of a contraction chain is a Sequencer IR program like a whole one
// (ir/seq/contraction_program.h).
#pragma once

#include "harness/run/run_request.h"
#include "ir/lang/kernel.h"
#include "ir/verify/checked_kernel.h"
#include "runtime/engine/run_io.h"

namespace tujit::run {

/// Runs `kernel` of `file`. Diagnostics for a kernel the engines refuse (E-RUN-1xx), given
/// contents of the wrong type or shape (E-RUN-004, E-RUN-007), …
Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::verify::CheckedKernel& kernel,
                              const RunOperands& ops, const RunRequest& req);

/// One engine on a lowered program and its inputs: what `tujit bench` times as the kernel rate.
struct EngineRun {
  runtime::RunResult result;
  std::string engine;   // what ran ("jit", "interp")
  unsigned threads = 1; // JIT worker threads
  double compile_ms = 0;
  bool cache_hit = false;
  double run_ms = 0;
};
Result<EngineRun> run_engine(Engine engine, const ir::seq::RunProgram& program,
                             const runtime::RunInputs& inputs, const RunRequest& req);

} // namespace tujit::run
