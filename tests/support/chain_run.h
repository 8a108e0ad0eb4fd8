// A run program built from a contraction chain alone, for the tests: generated chains
// (kernel_gen.h) and hand-made contraction programs have no kernel file to lower from
// (ir/seq/run_program.h lower_run), so their operands are read through the chain's own types.
#pragma once

#include "ir/lang/types.h"
#include "ir/seq/contraction_program.h"
#include "ir/seq/run_program.h"
#include "ir/support/diagnostic.h"

#include <vector>

namespace tujit::testing {

/// A contraction run of a chain alone, without a kernel file (the tests' generated chains): its
/// stream and TRF read directly from logical tensors "stream" and "trf" through the chain's own
/// types (a CollectTensor of its Chip, Cluster, Slice, Time, Packet; a TrfTensor of its Chip,
/// Cluster, Slice, Lane, Element), each over every axis its mappings name, in name order; the
/// output over its held axes. A part of a chain that starts later reads "stream" as its
/// ContractOuter / Packet / Time tensor and has no TRF; one that ends earlier returns such a
/// tensor.
struct ChainRun {
  ir::seq::RunProgram program;
  ir::TensorType stream_type, trf_type, output_type;
  std::vector<ir::Axis> stream_axes, trf_axes;
};
Result<ChainRun> chain_run(const ir::seq::ContractionProgram& chain);

} // namespace tujit::testing
