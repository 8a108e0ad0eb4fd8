// Which loop of a packet-cycle nest the JIT runs two steps of at once (PAIRED STEPS,
// codegen/paired_nest.h); apart from the emission so that it needs no LLVM header.
#pragma once

#include "ir/seq/contraction_program.h"

#include <cstddef>
#include <vector>

namespace tujit::codegen {

/// The innermost loop of `nest` whose steps can be paired: an even size, TRF stride 0, and no slot
/// that a cycle of step s and a cycle of step s + 1 share (its slot stride is no difference of two
/// slot offsets of the loops inside it). nest.size() when there is none.
std::size_t paired_level(const std::vector<ir::seq::CycleLoop>& nest);

} // namespace tujit::codegen
