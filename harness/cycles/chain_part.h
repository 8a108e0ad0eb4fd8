// The contraction stages one statement of a kernel runs, as the cycle models read them
// (docs/cycle-model.md §8): the whole contract_outer → contract_packet → contract_time →
// contract_lane chain, or any contiguous part of it — a book snippet that starts from a
// ContractOuter / ContractPacket / ContractTime tensor parameter, or that ends before the Lane
// Folder.
//
// The chain or its part is the Sequencer IR program both engines run for it
// (ir/seq/lower_contraction.h, a stage range first … last); CycleOptions::first / last say which
// stages the models time.
#pragma once

#include "harness/cycles/cycle_model.h"
#include "ir/lang/kernel.h"
#include "ir/seq/contraction_program.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/checked_kernel.h"

#include <cstddef>
#include <vector>

namespace tujit::cycles {

struct ChainPart {
  ir::seq::ContractionProgram program;
  CycleOptions options; // cycle_options_for the chain, with first / last set
  bool complete = false;
};

/// The contraction stages of statement `chain` of `kernel`, in execution order (indices into
/// kernel.stages); empty when the statement has none.
std::vector<std::size_t> contraction_stages(const ir::Kernel& kernel, std::size_t chain);

/// The part of the chain `stages` (contraction_stages of one statement). Diagnostics: a stage
/// verifier's when it refuses its stage (the kernel checker reports the same), the lowering's
/// (E-RUN-101 / E-RUN-102: a bug), E-CYCLES-004 when the statement has no stage to time.
Result<ChainPart> chain_part(const ir::verify::CheckedKernel& kernel,
                             const std::vector<std::size_t>& stages);

} // namespace tujit::cycles
