// The composed address streams of a DM fetch chain (ir/seq/operand_streams.h fetched_operand)
// against the image-based fetch interpreter (runtime/interp/fetch_exec.h), an independent
// walk of the Fetch sequencer, the Fetch Adapter and Collect over a whole DM image: on a DM tensor
// of adversarial codes (tests/support/adversarial_dm.h), every collected cell must have the same
// state, and every live cell the same adapted bits. Shared by the data-path tests and the fetch
// fuzz target.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/fetch_program.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tujit::testing {

/// Empty when the streams agree with the interpreter; else the first difference. `dm` is the
/// DmTensor parameter the fetch reads.
std::optional<std::string> fetch_streams_difference(const ir::seq::FetchProgram& p,
                                                    const ir::KernelParam& dm,
                                                    const ir::AxisTable& axes, std::uint64_t seed);

} // namespace tujit::testing
