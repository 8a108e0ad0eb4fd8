#include "harness/cli/run_fetch.h"

#include "codegen/fetch_jit.h"
#include "runtime/interp/fetch_exec.h"

namespace tujit::cli {

Result<runtime::DeviceImage> run_fetch_on(Engine engine, const ir::seq::FetchProgram& program,
                                          const runtime::DeviceImage& dm,
                                          const ir::AxisTable& table, const RunRequest& req) {
  if (engine == Engine::Interp) return runtime::run_fetch(program, dm, table);
  auto jit = codegen::FetchJit::create(req.jit);
  if (!jit) return std::move(jit).take_diagnostics();
  auto compiled = (*jit)->compile(program);
  if (!compiled) return std::move(compiled).take_diagnostics();
  codegen::JitRunOptions options;
  options.threads = req.threads;
  return codegen::run_fetch_jit(**compiled, program, dm, table, options);
}

} // namespace tujit::cli
