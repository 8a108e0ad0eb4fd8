// The DM fetch chains of a run on the chosen engine: the interpreter (runtime/interp/fetch_exec.h)
// or the JIT (codegen/fetch_jit.h).
#pragma once

#include "harness/cli/run_kernel.h"
#include "ir/seq/fetch_program.h"
#include "runtime/device/device_image.h"

#include <vector>

namespace tujit::cli {

/// The collected stream image of `program` run on the DM image `dm`.
Result<runtime::DeviceImage> run_fetch_on(Engine engine, const ir::seq::FetchProgram& program,
                                          const runtime::DeviceImage& dm,
                                          const ir::AxisTable& table, const RunRequest& req);

} // namespace tujit::cli
