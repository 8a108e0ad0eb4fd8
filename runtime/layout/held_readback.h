// Reading back an output that holds only part of its axes: a kernel that computes one tile of a
// larger problem (specs/derived/forward__lm_head.rs holds Wp < 8192 of Wp = 155,648) or one
// partial sum per slice (weighted_sum.rs keeps T / 16 in its Slice and reduces T % 16). docs/cli.md
// defines the output as the logical tensor over the axes its mappings use; where the mappings
// reach only some coordinates of an axis, the output is read back over exactly those:
//   every coordinate      → the axis itself
//   the first r           → the axis with size r (the tile [0, r))
//   every s-th, k of them → an axis named "T / 16" (or "T / 16 % k") of size k
// Any other pattern, or a reached set that is not the product of its axes' sets, is E-RUN-005.
#pragma once

#include "ir/lang/types.h"
#include "ir/seq/held_axes.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime {

/// One axis of the read-back tensor (ir/seq/held_axes.h).
using ir::seq::HeldAxis;

/// The read-back axes of `type` over `axes` (tensor_axes of the type).
Result<std::vector<HeldAxis>> held_axes(const ir::TensorType& type,
                                        const std::vector<ir::Axis>& axes,
                                        std::uint64_t max_cells = kDefaultMaxElements);

/// held_axes, plus the check that the held coordinates are the product of the axes' held sets
/// (every combination is held by some live cell); E-RUN-006 otherwise (an operand the oracle
/// cannot view).
Result<std::vector<HeldAxis>> operand_held_axes(const ir::TensorType& type,
                                                const std::vector<ir::Axis>& axes,
                                                std::uint64_t max_cells = kDefaultMaxElements);

} // namespace tujit::runtime
