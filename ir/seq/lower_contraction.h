// Lowering of a verified contraction chain to the Sequencer IR (contraction_program.h). The
// stage verifiers (ir/verify/) are run here and their derived parameters are the only source of
// the program's loops: nothing downstream re-derives a rule of the spec.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/support/diagnostic.h"

namespace tujit::ir::seq {

/// Lowers the first complete contract_outer → contract_packet → contract_time → contract_lane
/// chain of `kernel`. E-RUN-101 when the kernel has errors or no such chain; a verifier's own
/// diagnostic when it refuses the chain.
Result<ContractionProgram> lower_contraction(const Kernel& kernel);

/// Lowers the contiguous part kernel.stages[first] … kernel.stages[last] of a chain
/// (ir/seq/run_operands.h contraction_path): E-RUN-101 when they are not one; a verifier's own
/// diagnostic when it refuses a stage of the part.
Result<ContractionProgram> lower_contraction(const Kernel& kernel, std::size_t first,
                                             std::size_t last);

/// A part of a chain given by its mappings and types: the mappings its stages read and write
/// (the others are ignored), the stream's storage type (the Outer stage's stream, or a
/// ContractOuter tensor's `Storage`: Packet sizes count in it, §6), the TRF type, and the
/// accumulator type a part that does not start at contract_outer reads.
struct ChainPart {
  ChainMappings m;
  ScalarType stream_type = ScalarType::BF16;
  ScalarType trf_type = ScalarType::BF16;
  ScalarType accumulator = ScalarType::F32;
  LaneMode mode = LaneMode::Interleaved;
  ChainStage first = ChainStage::Outer;
  ChainStage last = ChainStage::Lane;
};
Result<ContractionProgram> lower_contraction(const ChainPart& part);

/// A whole chain from its mappings and types (tests, callers without a kernel).
Result<ContractionProgram> lower_contraction(const ChainMappings& m, ScalarType stream_type,
                                             ScalarType trf_type, LaneMode mode);

} // namespace tujit::ir::seq
