// The independent half of `tujit run --verify` (docs/cli.md): the float64 oracle of a contraction
// or of a part of a chain (runtime/oracle/oracle.h) on the run's logical inputs, or, for a kernel
// that only moves data, the check that every cell the output holds is the input element with the
// same coordinates after the Fetch Adapter, bit for bit.
#pragma once

#include "harness/run/run_inputs.h"
#include "harness/run/run_request.h"
#include "ir/lang/kernel.h"

namespace tujit::run {

/// Fills the oracle fields of `v` for the run of `ops` whose lowered program is `program` and
/// output is `output`: the oracle takes the Vector Engine pass and the fetch programs (their
/// Fetch Adapters) from the program, and computes everything else from the logical inputs.
/// `tiles` are the inputs' tiles (the oracle walks operands of one extent per axis).
Status oracle_verdict(const ir::SpecFile& file, const ir::Kernel& kernel, const RunOperands& ops,
                      const ir::seq::RunProgram& program, const RunInputTensors& inputs,
                      const ir::seq::InputShapes& tiles, const runtime::LogicalTensor& output,
                      RunVerification& v);

} // namespace tujit::run
