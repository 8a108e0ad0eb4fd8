// The logical tensor a `begin_interleaved` fetch reads (docs/vector-engine.md §3.5, furiosa-opt
// docs/src/moving-tensors/fetch-engine.md "Interleaving"): two DM tensors of one layout fetched
// as one BeginTensor whose Time is the grouping axis I, the first at I = 0 and the second at
// I = 1. The run hands the engines that pair as one tensor, each element the side's element at
// the same coordinates.
#pragma once

#include "runtime/tensor/logical_tensor.h"

#include <string>

namespace tujit::runtime {

/// Fills `pair` (allocated over its axes, which are the sides' and `axis` of size 2) with
/// side g's element at each coordinate whose `axis` is g. The sides may be larger than the pair's
/// tile on their axes (given contents covering it); each must hold every other axis of `pair`.
void interleave_into(LogicalTensor& pair, const std::string& axis, const LogicalTensor& side0,
                     const LogicalTensor& side1);

} // namespace tujit::runtime
