// `VrfTensor::reshape::<Chip2, Cluster2, Slice2, Element2>()` (the book's
// furiosa-opt docs/src/computing-tensors/register-files.md, "From the Vector Engine" and the
// `# Safety` section it cites; docs/vector-engine.md §6): restates a VRF operand under another
// partition of the same slices. It relabels the mapping and moves no data, so every physical
// position must already hold what the new mapping claims of it. The page names the two forms that
// satisfy that, and tujit accepts exactly those:
//
//   1. regrouping axes: each level (Chip, Cluster, Slice, Element) is the same mapping written
//      differently (equal normal forms, `m![A / 8, A % 8]` ↔ `m![A]`);
//   2. naming a broadcast distribution axis: a broadcast digit of Chip / Cluster / Slice (an
//      operand replicated under `m![256]`) is named by an axis the operand does not hold
//      (`m![S]`, |S| = 256), so it feeds a stream partitioned by S; every slice already holds
//      the same data, so each holds what the new name claims.
//
// Anything else (a permutation, moving an axis between levels, renaming a live axis, a size
// change) would claim data the slices do not hold: E-VRF-003 (sizes) / E-VRF-004 (unsafe form).
#pragma once

#include "ir/lang/types.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

namespace tujit::ir::verify {

struct VrfReshapeDerived {
  /// Per level: "same" (equal normal form), "regrouped" (written differently), or "named
  /// broadcast" (form 2); keys chip, cluster, slice, element.
  DerivedTable levels;
  DerivedTable to_table() const { return levels; }
};

/// `from` and `to` are VrfTensor types (Chip, Cluster, Slice, Element).
Result<VrfReshapeDerived> verify_vrf_reshape(const TensorType& from, const TensorType& to);

} // namespace tujit::ir::verify
