// `unsafe { x.reshape() }` of a DmTensor (docs/kernel-language.md §6.2): the same DM cells
// restated under another Chip, Cluster, Slice and Element mapping. The reference checks one rule,
// each level keeps its size (furiosa-opt-std constraints.rs `assert_reshape_dimension_preserved`;
// its change log adds the Element level to the check); the element type is kept because
// `reshape` has no type argument for it. Its further precondition, that both mappings
// lay the elements out in the same wire order, is the `unsafe` the author takes on: the reference
// itself relabels padding as a placeholder axis and back (furiosa-opt-examples mnist/mod.rs), so
// tujit accepts any relabelling of equal sizes and reports which kind each level is.
#pragma once

#include "ir/lang/types.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

namespace tujit::ir::verify {

struct DmReshapeDerived {
  /// Per level (keys chip, cluster, slice, element): "same" (the mapping as written), "regrouped"
  /// (equal normal forms, written differently) or "relabelled" (other axes or padding on the
  /// same cells); and `cells` (the DM cells per slice, Element's size).
  DerivedTable levels;
  DerivedTable to_table() const { return levels; }
};

/// `from` and `to` are DmTensor types (Chip, Cluster, Slice, Element). E-DM-001 when a level
/// changes its size.
Result<DmReshapeDerived> verify_dm_reshape(const TensorType& from, const TensorType& to);

} // namespace tujit::ir::verify
