// The reference interpreter of a Vector Engine pass (ir/seq/vector_program.h: its header comment is
// the semantics): every output position traced back through the layout calls to an input position
// (or a padding lane a widen_pad made), its value run through the value calls of
// runtime/vector/ve_scalar.h, its cell state carried along (Live and Top stay; Zero stays while
// the value is ±0; a new padding lane is Top with the poison pattern).
#pragma once

#include "ir/seq/vector_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

namespace tujit::runtime {

/// Runs the pass on `in` ([spatial][in_time][in_packet] of in_type; E-RUN-102 otherwise). With
/// `values` false only the cell states are computed and every bit is the output type's poison
/// pattern (the JIT host fills the values itself).
Result<DeviceImage> run_vector(const ir::seq::VectorProgram& program, const DeviceImage& in,
                               bool values = true);

} // namespace tujit::runtime
