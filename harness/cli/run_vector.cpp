#include "harness/cli/run_vector.h"

#include "codegen/vector_jit.h"
#include "ir/seq/vector_program.h"
#include "runtime/interp/vector_exec.h"
#include "runtime/vector/vector_oracle.h"

#include <cmath>

namespace tujit::cli {

Result<runtime::DeviceImage> vector_pass(const ir::Kernel& kernel, const RunOperands& ops,
                                         const runtime::DeviceImage& stream, Engine engine,
                                         const RunRequest& req) {
  if (!ops.vector_final) return stream;
  auto program = ir::seq::lower_vector(kernel, *ops.vector_final);
  if (!program) return std::move(program).take_diagnostics();
  if (engine == Engine::Interp) return runtime::run_vector(*program, stream);
  auto jit = codegen::VectorJit::create(req.jit);
  if (!jit) return std::move(jit).take_diagnostics();
  auto compiled = (*jit)->compile(*program);
  if (!compiled) return std::move(compiled).take_diagnostics();
  codegen::JitRunOptions options;
  options.threads = req.threads;
  return codegen::run_vector_jit(**compiled, *program, stream, options);
}

Result<bool> check_vector_oracle(const ir::Kernel& kernel, const RunOperands& ops,
                                 const runtime::LogicalTensor& input,
                                 const runtime::LogicalTensor& output, RunVerification& v) {
  auto program = ir::seq::lower_vector(kernel, *ops.vector_final);
  if (!program) return std::move(program).take_diagnostics();
  if (input.axes != output.axes) {
    v.oracle_not_applicable = "the output's axes are not the input's";
    return true;
  }
  v.oracle_ok = true;
  for (std::uint64_t i = 0; i < output.bits.size(); ++i) {
    const double expected = runtime::vector::oracle_chain(*program, input.bits[i]);
    const auto c = runtime::vector::oracle_compare(*program, expected, output.bits[i]);
    if (std::isfinite(c.abs_err)) v.oracle_max_abs_err = std::max(v.oracle_max_abs_err, c.abs_err);
    if (c.ok) continue;
    if (v.mismatches++ == 0) v.worst = output.coordinate_text(i);
    v.oracle_ok = false;
  }
  return true;
}

} // namespace tujit::cli
