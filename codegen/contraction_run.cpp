// run_contraction_jit: the live slices are partitioned over a thread pool; each worker stages a
// slice (runtime/exec/operand_staging.h: widened once, in its own buffers) and runs the compiled
// function on it, which writes the slice's output cells straight into the result image. A
// slice's result depends only on its own operands, so every partition gives the same bits. Poison
// and simulated_macs come from runtime/interp/poison.h, exactly as the interpreter reports them.
#include "codegen/contraction_jit.h"

#include "codegen/jit_compiled.h"
#include "runtime/exec/operand_staging.h"
#include "runtime/exec/thread_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <thread>

namespace tujit::codegen {
namespace {

Diagnostic run_error(const std::string& code, std::string message) {
  Diagnostic d = make_error(code, std::move(message));
  d.stage = "run";
  return d;
}

// Tasks per worker: slices cost the same, a few tasks each keep the tail short.
constexpr std::uint64_t kTasksPerWorker = 4;

} // namespace

Result<runtime::ContractionResult> run_contraction_jit(const CompiledContraction& compiled,
                                                       const ir::seq::ContractionProgram& program,
                                                       const runtime::DeviceImage& stream,
                                                       const runtime::DeviceImage& trf,
                                                       JitRunOptions options) {
  const auto* jc = dynamic_cast<const JitCompiledContraction*>(&compiled);
  if (jc == nullptr) return run_error("E-JIT-002", "internal: not a JIT-compiled contraction");
  if (jc->stats().fingerprint != ir::seq::fingerprint(program) ||
      jc->ftz_results() != program.ftz_results)
    return run_error("E-JIT-002",
                     fmt::format("internal: kernel `{}` was compiled from another program",
                                 program.kernel_name));
  if (auto ok = runtime::check_operand_images(program, stream, trf); !ok) return ok.diagnostics();
  const runtime::exec::StagedShape sh = runtime::exec::staged_shape(program);
  std::vector<std::uint64_t> live;
  for (std::uint64_t s = 0; s < program.spatial; ++s)
    if (program.spatial_live[s]) live.push_back(s);
  const std::uint64_t n = live.size();

  runtime::ContractionResult result;
  result.output =
      runtime::DeviceImage(program.accumulator, program.spatial, program.t3, program.p3);
  std::fill(result.output.state.begin(), result.output.state.end(), runtime::CellState::Zero);
  // Live output cells of a live slice (the drain's non-padding cells, §8).
  for (std::uint64_t s : live)
    for (std::uint64_t o = 0; o < sh.out_cells; ++o)
      if (program.drain[o] >= 0)
        result.output.state[s * sh.out_cells + o] = runtime::CellState::Live;

  std::atomic<bool> violation{false}, mismatch{false};
  if (n > 0) {
    const std::uint64_t want =
        options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
    runtime::exec::ThreadPool pool(static_cast<unsigned>(std::clamp<std::uint64_t>(want, 1, n)));
    const std::uint64_t tasks = std::min<std::uint64_t>(n, pool.size() * kTasksPerWorker);
    // Per worker: the accumulator scratch and the staging buffers of the slice it runs.
    std::vector<std::vector<std::uint32_t>> scratch(pool.size(),
                                                    std::vector<std::uint32_t>(sh.acc_cells));
    std::vector<runtime::exec::StagedSlice> staged(pool.size());
    const ContractionFn fn = jc->function();
    pool.run(tasks, [&](std::uint64_t task, unsigned worker) {
      for (std::uint64_t k = n * task / tasks; k < n * (task + 1) / tasks; ++k) {
        runtime::exec::StagedSlice& st = staged[worker];
        if (!runtime::exec::stage_slice(program, sh, stream, trf, live[k], st)) {
          mismatch = true;
          return;
        }
        if (fn(st.stream, st.stream_present, st.trf, st.trf_present,
               result.output.bits.data() + live[k] * sh.out_cells,
               scratch[worker].data()) != kRunOk) {
          violation = true;
          return;
        }
      }
    });
  }
  if (mismatch)
    return run_error("E-RUN-102",
                     fmt::format("kernel `{}`: an operand image holds a padding cell where the "
                                 "kernel's mappings have none",
                                 program.kernel_name));
  if (violation)
    return run_error("E-JIT-003",
                     fmt::format("kernel `{}`: the checked JIT code stopped an out-of-bounds "
                                 "access (the program addresses cells outside its operands)",
                                 program.kernel_name));

  // analyze_poison reports only live slices whose operands hold a Top cell: when none holds one
  // its report is empty, and the word-wise scan is much cheaper than its walk.
  const auto holds_top = [&](const runtime::DeviceImage& img) {
    const std::uint64_t per_slice = img.outer * img.inner;
    for (std::uint64_t s : live)
      if (runtime::exec::any_state(img.state.data() + s * per_slice, per_slice,
                                   runtime::CellState::Top))
        return true;
    return false;
  };
  if (holds_top(stream) || holds_top(trf))
    result.poison = runtime::analyze_poison(program, stream, trf);
  result.simulated_macs = runtime::present_products(program, stream, trf);
  return result;
}

} // namespace tujit::codegen
