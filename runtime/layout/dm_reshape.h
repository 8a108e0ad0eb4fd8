// The value a DM tensor holds after `unsafe { x.reshape() }` (docs/kernel-language.md §6.2). A
// reshape moves nothing: each DM cell (its Chip, Cluster, Slice position and Element offset)
// keeps its contents, and the new type says which logical element each cell is. So the value
// after it is the value before it read cell by cell: the new element a live cell names is the
// old element that cell held. A cell the new type makes live that held padding, or an element the
// command that committed the value did not write, holds whatever DM held there: the reference's
// MNIST relabels such cells as a placeholder axis and drops them again later. tujit gives those
// elements the poison pattern (runtime/device/device_image.h) and marks them undefined, so the
// run can tell whether anything it returns depends on them (harness/run/run_plan.h).
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <vector>

namespace tujit::runtime {

/// `value` is the logical tensor the DM tensor of type `from` holds (over the axes `from` names,
/// each at most its size in `table`: a value an earlier command committed, docs/kernels.md §3);
/// the result is the logical tensor over the axes `to` names. `undefined` flags, per element
/// (row-major), the elements whose contents no command wrote: on entry `value`'s (empty: none),
/// on return the result's, a cell `to` makes live that held padding in `from` or an element
/// `value` lacks among them (each holding the poison pattern). E-RUN-110 when two cells of one
/// element of `to` hold different elements (or padding), or when `to` leaves one of its
/// elements in no cell.
Result<LogicalTensor> reshape_dm_value(const LogicalTensor& value, const ir::TensorType& from,
                                       const ir::TensorType& to, const ir::AxisTable& table,
                                       std::vector<bool>& undefined);

/// The checks of reshape_dm_value that do not depend on the value (every axis at its size in
/// `table`): `tujit run` makes them before any command runs.
Status check_dm_reshape(const ir::TensorType& from, const ir::TensorType& to,
                        const ir::AxisTable& table);

} // namespace tujit::runtime
