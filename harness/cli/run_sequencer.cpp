#include "harness/cli/run_sequencer.h"

#include "codegen/write_jit.h"
#include "ir/seq/write_program.h"
#include "runtime/interp/write_exec.h"

namespace tujit::cli {

Result<runtime::DeviceImage> run_write_on(Engine engine, const ir::Kernel& kernel,
                                          const RunOperands& ops,
                                          const runtime::DeviceImage& stream,
                                          const runtime::DeviceImage& buffer,
                                          const ir::AxisTable& table, const RunRequest& req) {
  const auto index = static_cast<std::size_t>(ops.write - kernel.stages.data());
  auto program = ir::seq::lower_mem_write(kernel, index);
  if (!program) return std::move(program).take_diagnostics();
  if (engine == Engine::Interp) return runtime::run_write(*program, stream, buffer, table);
  return codegen::run_write_jit(*program, stream, buffer, table, req.jit);
}

} // namespace tujit::cli
