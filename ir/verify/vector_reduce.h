// The Vector Engine's reductions (docs/vector-engine.md §3.6, §3.7): the rules of the intra-slice
// reduce (furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-reduce.md, the
// reference's furiosa-opt-lower `config_reduce_label`) and of the inter-slice reducer (furiosa-opt
// docs/src/computing-tensors/vector-engine/inter-slice-reducer.md "Constraints" and furiosa-opt
// docs/src/computing-tensors/vector-engine/intra-slice-chain.md's Pipeline table), checked by the
// chain's verifier (vector_engine.h) at each reduce call.
#pragma once

#include "ir/verify/vector_engine.h"

#include <optional>

namespace tujit::ir::verify {

/// vector_intra_slice_reduce::<Axis, Time2, Packet2>(op)'s shape: E-VE-027 … E-VE-031, E-VE-013
/// for an axis Time pads.
std::optional<Diagnostic> intra_reduce_rules(const VectorStep& s);

/// vector_inter_slice_reduce::<Slice2, Time2>(op) from the state `st`: where it stands (E-VE-032,
/// E-VE-004, E-VE-013) and its shape (E-VE-033 … E-VE-035); the state after it.
Result<VectorState> inter_reduce(VectorState st, const VectorStep& s);

} // namespace tujit::ir::verify
