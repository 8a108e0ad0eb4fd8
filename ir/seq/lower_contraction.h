// Lowering of a verified contraction chain to the Sequencer IR (contraction_program.h). The
// stage verifiers' derived parameters (ir/verify/) are the only source of the program's loops:
// a checked kernel's are read from its check, a part given by mappings alone is verified here.
// Nothing downstream re-derives a rule of the spec.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/checked_kernel.h"

namespace tujit::ir::seq {

/// Lowers the first complete contract_outer → contract_packet → contract_time → contract_lane
/// chain of `kernel`. E-RUN-101 when the kernel has errors or no such chain, or when the check
/// holds no result for one of its stages (the checker refused it).
Result<ContractionProgram> lower_contraction(const verify::CheckedKernel& kernel);

/// Lowers the contiguous part kernel.stages[first] … kernel.stages[last] of a chain
/// (ir/seq/run_operands.h contraction_path): E-RUN-101 when they are not one, or when the check
/// holds no result for one of its stages.
Result<ContractionProgram> lower_contraction(const verify::CheckedKernel& kernel, std::size_t first,
                                             std::size_t last);

/// A part of a chain given by its mappings and types: the mappings its stages read and write
/// (the others are ignored), the stream's storage type (the Outer stage's stream, or a
/// ContractOuter tensor's `Storage`: Packet sizes count in it, §6), the TRF type, and the
/// accumulator type a part that does not start at contract_outer reads. `derived` holds what the
/// kernel checker derived for the part's stages when it comes from a checked kernel; a stage
/// without it is verified from the mappings.
struct ChainPart {
  struct Derived {
    const verify::ContractOuterDerived* outer = nullptr;
    const verify::ContractPacketDerived* packet = nullptr;
    const verify::ContractTimeDerived* time = nullptr;
    const verify::ContractLaneDerived* lane = nullptr;
  };
  ChainMappings m;
  ScalarType stream_type = ScalarType::BF16;
  ScalarType trf_type = ScalarType::BF16;
  ScalarType accumulator = ScalarType::F32;
  LaneMode mode = LaneMode::Interleaved;
  ChainStage first = ChainStage::Outer;
  ChainStage last = ChainStage::Lane;
  Derived derived;
};
Result<ContractionProgram> lower_contraction(const ChainPart& part);

/// A whole chain from its mappings and types (tests, callers without a kernel).
Result<ContractionProgram> lower_contraction(const ChainMappings& m, ScalarType stream_type,
                                             ScalarType trf_type, LaneMode mode);

} // namespace tujit::ir::seq
