// The LLVM ORC JIT back end of a sequencer write (ir/seq/write_program.h, codegen/write_emit.h):
// bit- and state-identical to the interpreter's runtime::run_write.
#pragma once

#include "codegen/contraction_jit.h"
#include "ir/mapping/mapping.h"
#include "ir/seq/write_program.h"
#include "runtime/device/device_image.h"

namespace tujit::codegen {

/// Compiles (or loads from the cache) and runs the write: `buffer` after writing `stream` into
/// it. E-JIT-001 / E-JIT-002 from LLVM, E-JIT-003 when checked code stops an out-of-range store,
/// E-RUN-102 for images of the wrong shape.
Result<runtime::DeviceImage> run_write_jit(const ir::seq::WriteProgram& program,
                                           const runtime::DeviceImage& stream,
                                           const runtime::DeviceImage& buffer,
                                           const ir::AxisTable& table, JitOptions options = {});

} // namespace tujit::codegen
