#include "codegen/jit_run_checks.h"

#include <fmt/format.h>

namespace tujit::codegen {

Status checked_jit_run(const CompiledContraction& compiled, const ir::seq::RunProgram& rp,
                       const runtime::RunInputs& inputs) {
  if (compiled.stats().fingerprint != ir::seq::fingerprint(rp))
    return run_error(
        "E-JIT-002",
        fmt::format("internal: kernel `{}` was compiled from another program", rp.kernel_name));
  if (auto ok = runtime::check_run_inputs(rp, inputs); !ok) return ok.diagnostics();
  if (rp.duplicated_outputs != 0)
    return run_error("E-RUN-110",
                     fmt::format("kernel `{}`: {} output cells hold an element another cell "
                                 "holds too; only the interpreter checks such outputs (--engine "
                                 "interp)",
                                 rp.kernel_name, rp.duplicated_outputs));
  return {};
}

Diagnostic out_of_bounds_error(const ir::seq::RunProgram& rp) {
  return run_error("E-JIT-003",
                   fmt::format("kernel `{}`: the checked JIT code stopped an out-of-bounds "
                               "access (the program addresses cells outside its operands)",
                               rp.kernel_name));
}

} // namespace tujit::codegen
