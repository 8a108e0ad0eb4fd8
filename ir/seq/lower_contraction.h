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

/// Same, from the chain's mappings and types (tests, callers without a kernel).
Result<ContractionProgram> lower_contraction(const ChainMappings& m, ScalarType stream_type,
                                             ScalarType trf_type, LaneMode mode);

} // namespace tujit::ir::seq
