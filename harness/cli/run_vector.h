// The Vector Engine pass of a run (ir/seq/vector_program.h), kept apart from the run pipeline so
// that the pipeline only calls two functions: the pass between the collected stream and its
// consumer (a to_vrf at the Vector Engine's write port, or the kernel's VectorFinal result), on
// the chosen engine; and its float64 oracle verdict for `--verify`.
#pragma once

#include "harness/cli/run_kernel.h"
#include "harness/cli/run_operands.h"
#include "runtime/device/device_image.h"
#include "runtime/tensor/logical_tensor.h"

namespace tujit::cli {

/// `stream` run through the kernel's Vector Engine pass (ops.vector_final) by `engine`, or
/// `stream` itself when the run has none.
Result<runtime::DeviceImage> vector_pass(const ir::Kernel& kernel, const RunOperands& ops,
                                         const runtime::DeviceImage& stream, Engine engine,
                                         const RunRequest& req);

/// The oracle of a run with a Vector Engine pass: every output element against the chain applied
/// in float64 to the input element with the same coordinates (runtime/vector/vector_oracle.h).
/// `input` is the stream parameter's contents after the Fetch Adapter.
Result<bool> check_vector_oracle(const ir::Kernel& kernel, const RunOperands& ops,
                                 const runtime::LogicalTensor& input,
                                 const runtime::LogicalTensor& output, RunVerification& v);

} // namespace tujit::cli
