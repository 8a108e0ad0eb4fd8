// run_contraction_jit for a part of a chain (partial_emit.h): the live slices are claimed one at
// a time by the workers of a kept thread pool (runtime/exec/thread_pool.h PoolLease); per slice a
// worker gathers the input cells through the program's address streams into its own staged buffers
// (the stream and TRF widened once, as the whole chain's TRF staging does; a ContractOuter / Packet
// / Time tensor's cells too, which makes a NaN canonical), runs the compiled function, and scatters
// the slice's output cells into the logical output. A slice's result depends only on its own
// operands, so every partition gives the same bits.
#include "codegen/partial_run.h"

#include "codegen/contraction_emit.h"
#include "codegen/jit_core.h"
#include "codegen/jit_run_checks.h"
#include "codegen/partial_emit.h"
#include "codegen/poison_run.h"
#include "runtime/engine/operand_read.h"
#include "runtime/exec/thread_pool.h"
#include "runtime/scalar/widen.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace tujit::codegen {
namespace {

using ir::CellState;
using ir::seq::OperandStreams;

/// One worker's staged buffers.
struct Staged {
  std::vector<std::uint32_t> in, trf, acc, out;
  std::vector<std::uint8_t> in_present, trf_present;
};

/// The cells [outer][inner] of slice s of an operand: values widened to the accumulator, and
/// presence. A ContractOuter / Packet / Time tensor's cells already hold accumulator values;
/// widening changes only a NaN, which enters as the canonical NaN (docs/contraction.md §9.3).
void gather(const OperandStreams& o, const runtime::LogicalTensor& t, std::uint64_t s,
            std::vector<std::uint32_t>& values, std::vector<std::uint8_t>& present) {
  const auto& cells = o.streams.cells;
  std::uint64_t k = 0;
  for (std::uint64_t i = 0; i < cells.outer_size; ++i)
    for (std::uint64_t j = 0; j < cells.inner_size; ++j, ++k) {
      const ir::seq::CellAddress a = o.streams.at(s, i, j);
      present[k] = a.state == CellState::Live ? 1 : 0;
      values[k] = 0;
      if (a.state != CellState::Live) continue;
      values[k] = runtime::widen_to_accumulator(o.type, runtime::read_operand(o, t, a.offset));
    }
}

} // namespace

Result<runtime::RunResult> run_partial_jit(const CompiledContraction& compiled,
                                           const ir::seq::RunProgram& rp,
                                           const runtime::RunInputs& inputs,
                                           JitRunOptions options) {
  if (auto ok = checked_jit_run(compiled, rp, inputs); !ok) return ok.diagnostics();
  if (!is_partial(rp)) return run_error("E-JIT-002", "internal: not a part of a chain");
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  const auto fn = compiled.function<PartialFn>();
  const PartialShape sh = partial_shape(p);
  const runtime::LogicalTensor& st = *inputs.at(rp.input().streams.tensor);
  const runtime::LogicalTensor* wt =
      p.forms_products() ? inputs.at(rp.contraction().trf.streams.tensor) : nullptr;

  runtime::RunResult result;
  auto out = runtime::make_logical_tensor(rp.output.dtype, rp.output.axes);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);

  const std::vector<std::uint64_t> live = rp.live_slices();
  const std::uint64_t n = live.size();
  runtime::exec::PoolLease pool(pool_size(options.threads, kMaxWorkers));
  std::vector<Staged> staged(pool->size());
  for (Staged& b : staged) {
    b.in.resize(sh.in_cells);
    b.in_present.resize(sh.in_cells);
    b.trf.resize(sh.trf_cells);
    b.trf_present.resize(sh.trf_cells);
    b.acc.resize(sh.acc_cells);
    b.out.resize(sh.out_cells);
  }
  const std::uint64_t inner = p.output_inner();
  std::atomic<bool> violation{false};
  // One slice per task, as in contraction_run.cpp: a worker that starts late takes fewer.
  pool->run(n, [&](std::uint64_t k, unsigned worker) {
    if (violation.load(std::memory_order_relaxed)) return;
    Staged& b = staged[worker];
    const std::uint64_t s = live[k];
    gather(rp.input(), st, s, b.in, b.in_present);
    if (wt != nullptr) gather(rp.contraction().trf, *wt, s, b.trf, b.trf_present);
    std::fill(b.out.begin(), b.out.end(), 0u);
    const PartialArgs args{b.in.data(),          b.in_present.data(), b.trf.data(),
                           b.trf_present.data(), b.acc.data(),        b.out.data()};
    if (fn(&args) != kRunOk) {
      violation = true;
      return;
    }
    for (std::uint64_t o = 0; o < sh.out_cells; ++o) {
      const ir::seq::CellAddress a = rp.output.at(s, o / inner, o % inner);
      if (a.state == CellState::Live) result.output.set(a.offset, b.out[o]);
    }
  });
  if (violation) return out_of_bounds_error(rp);
  auto poison = jit_poison(compiled, rp);
  if (!poison) return std::move(poison).take_diagnostics();
  result.poison = std::move(*poison);
  result.simulated_macs = runtime::present_products(rp);
  return result;
}

// The shapes partial_emit.cpp and this runner share.
PartialShape partial_shape(const ir::seq::ContractionProgram& p) {
  PartialShape s;
  s.in_cells = p.forms_products() ? p.time * p.packet : p.input_outer() * p.input_inner();
  s.trf_cells = p.forms_products() ? p.lanes * p.element : 0;
  s.acc_cells = p.cycle_output() ? 0 : p.accumulator_cells();
  s.out_cells = p.output_outer() * p.output_inner();
  return s;
}

bool is_partial(const ir::seq::RunProgram& program) {
  return !program.is_move() && !program.contraction().chain.whole();
}

} // namespace tujit::codegen
