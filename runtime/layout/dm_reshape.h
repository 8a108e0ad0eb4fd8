// The value a DM tensor holds after `unsafe { x.reshape() }` (docs/kernel-language.md §6.2). A
// reshape moves nothing: each DM cell (its Chip, Cluster, Slice position and Element offset)
// keeps its contents, and the new type says which logical element each cell is. So the value
// after it is the value before it read cell by cell: the new element a live cell names is the
// old element that cell held. A cell the new type makes live must have held an element of the
// value; padding, or an element the command that committed the value did not write, holds
// whatever DM held there, which tujit does not model, and the run refuses it (E-RUN-110) rather
// than invent it.
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

namespace tujit::runtime {

/// `value` is the logical tensor the DM tensor of type `from` holds (over the axes `from` names,
/// each at most its size in `table`: a value an earlier command committed, docs/kernels.md §3);
/// the result is the logical tensor over the axes `to` names. E-RUN-110 when a cell `to` makes
/// live held padding in `from` or an element `value` lacks, when two cells of one element of
/// `to` hold different elements, or when `to` leaves one of its elements in no cell.
Result<LogicalTensor> reshape_dm_value(const LogicalTensor& value, const ir::TensorType& from,
                                       const ir::TensorType& to, const ir::AxisTable& table);

/// The checks of reshape_dm_value that do not depend on the value (every axis at its size in
/// `table`): `tujit run` makes them before any command runs.
Status check_dm_reshape(const ir::TensorType& from, const ir::TensorType& to,
                        const ir::AxisTable& table);

} // namespace tujit::runtime
