// The book's sequencer write (`buf.write(stream)`, ir/seq/write_program.h) in a run, on the chosen
// engine: the interpreter (runtime/interp/write_exec.h) or the JIT (codegen/write_jit.h). The read
// (`buf.read()`) runs as a fetch (harness/cli/run_fetch.h).
#pragma once

#include "harness/cli/run_kernel.h"
#include "harness/cli/run_operands.h"
#include "runtime/device/device_image.h"

namespace tujit::cli {

/// The buffer image after the kernel's write (ops.write) of `stream` into `buffer`.
Result<runtime::DeviceImage> run_write_on(Engine engine, const ir::Kernel& kernel,
                                          const RunOperands& ops,
                                          const runtime::DeviceImage& stream,
                                          const runtime::DeviceImage& buffer,
                                          const ir::AxisTable& table, const RunRequest& req);

} // namespace tujit::cli
