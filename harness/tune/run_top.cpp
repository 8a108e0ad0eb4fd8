#include "harness/tune/run_top.h"

#include "harness/cycles/cycle_model.h"
#include "harness/run/run_footprint.h"
#include "harness/run/run_pipeline.h"
#include "ir/lang/kernel.h"
#include "ir/seq/run_operands.h"
#include "ir/verify/checked_kernel.h"

namespace tujit::tune {

Result<TopRun> run_ranked(const Entry& e, unsigned threads, std::uint64_t seed,
                          std::uint64_t max_bytes) {
  auto file = ir::analyze_spec(SourceBuffer("rank" + std::to_string(e.rank) + ".rs", e.spec));
  if (!file) return file.diagnostics();
  const ir::Kernel& kernel = file->kernels.front();
  const ir::verify::KernelCheck check = ir::verify::check_kernel(*file, kernel);
  if (!check.ok()) return check.all_diagnostics();
  const ir::verify::CheckedKernel checked(kernel, check);
  auto ops = ir::seq::find_run_operands(kernel);
  if (!ops) return ops.diagnostics();
  auto size = run::check_run_size(*file, kernel, *ops, true, max_bytes);
  if (!size) return size.diagnostics();
  run::RunRequest req;
  req.engine = run::Engine::Jit;
  req.threads = threads;
  req.seed = seed;
  req.verify = true;
  auto run = run::run_kernel(*file, checked, *ops, req);
  if (!run) return run.diagnostics();
  TopRun t;
  t.rank = e.rank;
  const cycles::CycleOptions options = cycles::cycle_options_for(checked);
  t.analytic_cycles = cycles::analytic_cycles(run->program.contraction().chain, options).total;
  t.trace_cycles = cycles::trace_cycles(run->program.contraction().chain, options).total;
  t.sha256 = run->sha256;
  t.poisoned_outputs = run->poisoned_outputs;
  t.run_ms = run->run_ms;
  t.verify_ms = run->verify_ms;
  if (run->verify) {
    t.engines_bit_exact = !run->verify->engines_not_compared && run->verify->engines_bit_exact;
    t.oracle_ok = !run->verify->oracle_not_applicable && run->verify->oracle_ok;
    t.oracle_max_abs_err = run->verify->oracle_max_abs_err;
  }
  return t;
}

} // namespace tujit::tune
