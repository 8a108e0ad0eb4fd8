// run_contraction_jit: the live slices are partitioned over a thread pool; each worker stages a
// slice's TRF (runtime/exec/operand_staging.h: widened once, in its own buffer, from one plan of
// the program's TRF cells) and runs the compiled function on it, which reads the stream's logical
// tensor and writes the slice's output cells straight into the logical output. A slice's result
// depends only on its own operands, so every partition gives the same bits. With a poison shadow
// (JitOptions::poison_shadow) the poison is its own (poison_run.h); simulated_macs come from
// runtime/interp/poison.h, exactly as the interpreter reports them.
#include "codegen/contraction_jit.h"

#include "codegen/jit_compiled.h"
#include "codegen/jit_core.h"
#include "codegen/partial_emit.h"
#include "codegen/partial_run.h"
#include "codegen/poison_run.h"
#include "codegen/stream_widen.h"
#include "runtime/exec/operand_staging.h"
#include "runtime/exec/thread_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

namespace tujit::codegen {
namespace {

/// The stream as the generated code reads it: the logical tensor itself, or (StreamWiden::
/// Prewidened) a copy widened to accumulator bits, made on `pool`.
struct StreamBuffer {
  const std::uint8_t* data = nullptr;
  std::vector<std::uint32_t> widened;
};

StreamBuffer stream_buffer(const ir::seq::RunProgram& rp, const runtime::LogicalTensor& t,
                           runtime::exec::ThreadPool& pool) {
  StreamBuffer b;
  if (stream_widen(rp.stream) != StreamWiden::Prewidened) {
    b.data = t.data.data();
    return b;
  }
  const std::uint64_t n = t.elements();
  b.widened.resize(n);
  const std::uint64_t tasks = std::max<std::uint64_t>(1, std::min<std::uint64_t>(n >> 16, 64));
  pool.run(tasks, [&](std::uint64_t k, unsigned) {
    for (std::uint64_t i = n * k / tasks; i < n * (k + 1) / tasks; ++i)
      b.widened[i] = widened_stream_element(rp.stream, t.get(i));
  });
  b.data = reinterpret_cast<const std::uint8_t*>(b.widened.data());
  return b;
}

void zero_on(runtime::exec::ThreadPool& pool, std::uint8_t* data, std::uint64_t bytes) {
  const std::uint64_t tasks = std::clamp<std::uint64_t>(bytes >> 20, 1, pool.size());
  pool.run(tasks, [&](std::uint64_t k, unsigned) {
    std::fill(data + bytes * k / tasks, data + bytes * (k + 1) / tasks, std::uint8_t{0});
  });
}

/// What every slice's run shares: the program's tables, the operands as the generated code reads
/// them, the output, and one accumulator scratch and staged TRF per worker.
struct SliceRun {
  const ir::seq::RunProgram& rp;
  const runtime::exec::StagedShape sh;
  const runtime::exec::ProgramTables tables;
  const runtime::exec::TrfPlan plan;
  const runtime::LogicalTensor& trf_tensor;
  const StreamBuffer& stream;
  const std::uint64_t load_bytes;
  const std::uint64_t stream_elements;
  runtime::LogicalTensor& output;
  const ContractionFn fn;
  std::vector<std::vector<std::uint32_t>> scratch;
  std::vector<runtime::exec::StagedTrf> staged;

  /// Runs slice `s` on `worker`'s buffers; false when the generated code reports an access out of
  /// bounds.
  bool run(std::uint64_t s, unsigned worker) {
    const ir::seq::CellAddress sb = rp.stream.streams.spatial.at(s);
    const ir::seq::CellAddress wb = rp.trf.streams.spatial.at(s);
    const ir::seq::CellAddress ob = rp.output.spatial.at(s);
    std::uint8_t* out_data = output.data.data();
    if (ob.state != ir::CellState::Live) return true; // writes nothing
    if (sb.state != ir::CellState::Live || wb.state != ir::CellState::Live) {
      // An operand slice with no live cell forms no product: the slice drains +0 / 0.
      for (std::uint64_t o : tables.out_offset)
        if (o != kNoOutput) std::fill_n(out_data + (ob.offset + o) * 4, 4, std::uint8_t{0});
      return true;
    }
    runtime::exec::StagedTrf& trf = staged[worker];
    runtime::exec::stage_trf(rp, sh, plan, trf_tensor, wb.offset, trf);
    ContractionArgs args{};
    args.stream = stream.data + sb.offset * load_bytes;
    args.stream_limit = stream_elements - sb.offset;
    args.trf = trf.values.data();
    args.trf_present = sh.trf_masks ? trf.present.data() : nullptr;
    args.out = out_data + ob.offset * 4;
    args.out_limit = output.elements() - ob.offset;
    args.scratch = scratch[worker].data();
    args.flit_offset = tables.flit_offset.data();
    args.flit_live = tables.flit_live.empty() ? nullptr : tables.flit_live.data();
    args.out_offset = tables.out_offset.data();
    return fn(&args) == kRunOk;
  }
};

} // namespace

Result<runtime::RunResult> run_contraction_jit(const CompiledContraction& compiled,
                                               const ir::seq::RunProgram& rp,
                                               const runtime::RunInputs& inputs,
                                               JitRunOptions options) {
  if (is_partial(rp)) return run_partial_jit(compiled, rp, inputs, options);
  auto checked = checked_jit_run(compiled, rp, inputs);
  if (!checked) return std::move(checked).take_diagnostics();
  const JitCompiledContraction* jc = *checked;
  if (rp.kind != ir::seq::RunKind::Contraction)
    return run_error("E-JIT-002", "internal: not a JIT-compiled contraction");
  const runtime::LogicalTensor& st = *inputs.at(rp.stream.streams.tensor);
  const runtime::LogicalTensor& wt = *inputs.at(rp.trf.streams.tensor);
  const std::vector<std::uint64_t> live = rp.live_slices();

  runtime::RunResult result;
  auto out =
      runtime::make_logical_tensor(rp.output.dtype, rp.output.axes, runtime::kDefaultMaxElements,
                                   runtime::TensorInit::Uninitialised);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);

  // The pool also widens the stream, so it is not capped by the number of live slices.
  runtime::exec::ThreadPool pool(pool_size(options.threads, kMaxWorkers));
  // The output starts at zero, cleared on the workers: its first touch is part of the run.
  zero_on(pool, result.output.data.data(), result.output.data.size());
  const StreamBuffer stream = stream_buffer(rp, st, pool);
  const runtime::exec::StagedShape sh = runtime::exec::staged_shape(rp);
  SliceRun slices{rp,
                  sh,
                  runtime::exec::program_tables(rp, kNoOutput),
                  runtime::exec::trf_plan(rp, sh, wt),
                  wt,
                  stream,
                  stream_load_bytes(rp.stream),
                  st.elements(),
                  result.output,
                  jc->function(),
                  std::vector<std::vector<std::uint32_t>>(pool.size(),
                                                          std::vector<std::uint32_t>(sh.acc_cells)),
                  std::vector<runtime::exec::StagedTrf>(pool.size())};
  std::atomic<bool> violation{false};
  for_each_slice_range(pool, live.size(),
                       [&](std::uint64_t begin, std::uint64_t end, unsigned worker) {
                         for (std::uint64_t k = begin; k < end; ++k)
                           if (!slices.run(live[k], worker)) {
                             violation = true;
                             return;
                           }
                       });
  if (violation) return out_of_bounds_error(rp);
  auto poison = jit_poison(*jc, rp);
  if (!poison) return std::move(poison).take_diagnostics();
  result.poison = std::move(*poison);
  result.simulated_macs = runtime::present_products(rp);
  return result;
}

} // namespace tujit::codegen
