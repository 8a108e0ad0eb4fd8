// A run of part of a contraction chain (a kernel that starts from a ContractOuter / Packet / Time
// tensor, or ends before contract_lane): the stage-by-stage executor
// (runtime/interp/stage_exec.h) runs it on device images, on the interpreter only.
#pragma once

#include "harness/run/run_inputs.h"
#include "harness/run/run_request.h"
#include "ir/lang/kernel.h"

namespace tujit::run {

/// The output (read back over its held axes) and the poisoned cells of the partial chain.
struct PartialRun {
  runtime::LogicalTensor output;
  std::uint64_t poisoned_outputs = 0;
  std::vector<ir::seq::FetchProgram> fetches;
};
Result<PartialRun> run_partial(const ir::SpecFile& file, const ir::Kernel& kernel,
                               const RunOperands& ops, const RunInputTensors& inputs,
                               bool ftz_results);

} // namespace tujit::run
