// run_contraction_jit: the live slices are claimed one at a time by the workers of a kept thread
// pool (runtime/exec/thread_pool.h PoolLease); each worker stages a slice's TRF
// (runtime/exec/operand_staging.h: widened once, in its own buffer, from one plan of the program's
// TRF cells) and runs the compiled function on it, which reads the stream's logical tensor and
// writes the slice's output cells straight into the logical output. A slice's result depends only
// on its own operands, so every partition gives the same bits. What depends on the program alone
// (the checks, tables, TRF plan, poisoned outputs, simulated MACs) comes from the code's plan of
// the program (contraction_plan.h), made on its first run; the poison is the shadow's with a
// poison shadow (JitOptions::poison_shadow, poison_run.h), and simulated_macs come from
// the poison analysis (runtime/engine/poison.h), exactly as the interpreter reports them.
#include "codegen/contraction_jit.h"

#include "codegen/contraction_emit.h"
#include "codegen/contraction_plan.h"
#include "codegen/jit_core.h"
#include "codegen/jit_run_checks.h"
#include "codegen/partial_emit.h"
#include "codegen/partial_run.h"
#include "codegen/stream_widen.h"
#include "runtime/exec/operand_staging.h"
#include "runtime/exec/prefix_digest.h"
#include "runtime/exec/thread_pool.h"
#include "runtime/tensor/random_fill.h"
#include "runtime/vector/leave_engines.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <tuple>

namespace tujit::codegen {
namespace {

/// The stream as the generated code reads it: the logical tensor itself, or (StreamWiden::
/// Prewidened) a copy widened to accumulator bits, made on `pool`.
struct StreamBuffer {
  const std::uint8_t* data = nullptr;
  std::vector<std::uint32_t> widened;
};

/// Elements [begin, end) of a stream stored at `raw`, widened to accumulator bits into `out`.
void widen_stream(const ir::seq::RunProgram& rp, const std::uint8_t* raw, std::uint64_t begin,
                  std::uint64_t end, std::uint32_t* out) {
  const ir::ScalarType dtype = rp.input().streams.dtype;
  const std::uint64_t bytes = runtime::element_bytes(dtype);
  for (std::uint64_t i = begin; i < end; ++i)
    out[i] = widened_stream_element(rp.input(), runtime::load_element(dtype, raw + i * bytes));
}

StreamBuffer stream_buffer(const ir::seq::RunProgram& rp, const runtime::LogicalTensor& t,
                           runtime::exec::ThreadPool& pool) {
  StreamBuffer b;
  if (stream_widen(rp.input()) != StreamWiden::Prewidened) {
    b.data = t.data.data();
    return b;
  }
  const std::uint64_t n = t.elements();
  b.widened.resize(n);
  const std::uint64_t tasks = std::max<std::uint64_t>(1, std::min<std::uint64_t>(n >> 16, 64));
  pool.run(tasks, [&](std::uint64_t k, unsigned) {
    widen_stream(rp, t.data.data(), n * k / tasks, n * (k + 1) / tasks, b.widened.data());
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

/// A worker's part of a stream generated slice by slice (slice_parts.h): the elements as stored,
/// and widened when the code reads them so (StreamWiden::Prewidened).
struct StreamPart {
  runtime::TensorBytes raw;
  std::vector<std::uint32_t> widened;
};

/// What every slice's run shares: the program's plan, the operands as the generated code reads
/// them (the stream, or its seeded contents to generate each slice's part), the output, and one
/// accumulator scratch, staged TRF and stream part per worker.
struct SliceRun {
  const ir::seq::RunProgram& rp;
  const ContractionPlan& plan;
  const runtime::LogicalTensor& trf_tensor;
  const StreamBuffer& stream;
  const runtime::SeededContents* stream_contents;
  const std::uint64_t stream_elements;
  runtime::LogicalTensor& output;
  const ContractionFn fn;
  const VrfOperandTables& vrf; // the `&vrf` operands of the pass after the chain
  std::vector<std::vector<std::uint32_t>> scratch;
  std::vector<runtime::exec::StagedTrf> staged;
  std::vector<StreamPart> parts;

  /// The stream part of the slice at stream offset `offset`, generated into `worker`'s buffer: its
  /// first element and its length.
  std::pair<const std::uint8_t*, std::uint64_t> generate_part(std::uint64_t offset,
                                                              unsigned worker) {
    const ir::ScalarType dtype = rp.input().streams.dtype;
    const std::uint64_t n = std::min(plan.stream_parts.reach, stream_elements - offset);
    StreamPart& part = parts[worker];
    part.raw.resize(n * runtime::element_bytes(dtype));
    runtime::generate_elements(dtype, *stream_contents, offset, offset + n, part.raw.data());
    if (stream_widen(rp.input()) != StreamWiden::Prewidened) return {part.raw.data(), n};
    part.widened.resize(n);
    widen_stream(rp, part.raw.data(), 0, n, part.widened.data());
    return {reinterpret_cast<const std::uint8_t*>(part.widened.data()), n};
  }

  /// Runs slice `s` on `worker`'s buffers; false when the generated code reports an access out of
  /// bounds.
  bool run(std::uint64_t s, unsigned worker) {
    const ir::seq::CellAddress sb = rp.input().streams.spatial.at(s);
    const ir::seq::CellAddress wb = rp.contraction().trf.streams.spatial.at(s);
    const ir::seq::CellAddress ob = rp.output.spatial.at(s);
    std::uint8_t* out_data = output.data.data();
    const std::uint32_t out_bytes = runtime::element_bytes(output.dtype);
    if (ob.state != ir::CellState::Live) return true; // writes nothing
    if (sb.state != ir::CellState::Live || wb.state != ir::CellState::Live) {
      // An operand slice with no live cell forms no product: the slice drains +0 / 0, through
      // the pass and the cast like every drained value.
      const std::uint32_t drained = runtime::leave_engines(rp.vector, rp.output_cast, 0);
      const std::vector<std::uint64_t>& cells = plan.tables.out_offset;
      const std::vector<VrfOperandArgs> at = vrf.args(s);
      for (std::uint64_t c = 0; c < cells.size(); ++c)
        if (cells[c] != kNoOutput)
          output.set(ob.offset + cells[c],
                     vrf.empty() ? drained
                                 : runtime::leave_engines(rp.vector, rp.output_cast, 0,
                                                          VrfOperandTables::values(at, c)));
      return true;
    }
    runtime::exec::StagedTrf& trf = staged[worker];
    const runtime::exec::StagedShape& sh = plan.shape;
    runtime::exec::stage_trf(rp, sh, plan.trf, trf_tensor, wb.offset, trf);
    ContractionArgs args{};
    if (stream_contents != nullptr) {
      std::tie(args.stream, args.stream_limit) = generate_part(sb.offset, worker);
    } else {
      args.stream = stream.data + sb.offset * plan.stream_load_bytes;
      args.stream_limit = stream_elements - sb.offset;
    }
    args.trf = trf.values.data();
    args.trf_present = sh.trf_masks ? trf.present.data() : nullptr;
    args.out = out_data + ob.offset * out_bytes;
    args.out_limit = output.elements() - ob.offset;
    args.scratch = scratch[worker].data();
    const runtime::exec::ProgramTables& tables = plan.tables;
    args.flit_offset = tables.flit_offset.data();
    args.flit_live = tables.flit_live.empty() ? nullptr : tables.flit_live.data();
    args.out_offset = tables.out_offset.data();
    const std::vector<VrfOperandArgs> vrf_args = vrf.args(s);
    args.vrf = vrf_args.data();
    return fn(&args) == kRunOk;
  }
};

/// The run with the stream's seeded contents filled whole into a tensor of its own first: for the
/// programs whose stream parts cannot be generated slice by slice.
Result<runtime::RunResult> run_on_filled_stream(const CompiledContraction& compiled,
                                                const ir::seq::RunProgram& rp,
                                                const runtime::RunInputs& inputs,
                                                JitRunOptions options) {
  const auto given = inputs.find(rp.input().streams.tensor);
  if (given == inputs.end() || given->second == nullptr)
    return run_error("E-RUN-004",
                     fmt::format("no contents for input `{}`", rp.input().streams.tensor));
  runtime::LogicalTensor filled;
  filled.dtype = given->second->dtype;
  filled.axes = given->second->axes;
  filled.data.resize(given->second->data.size());
  const runtime::SeededContents& c = *options.stream_contents;
  runtime::fill_random(filled, c.seed, c.index, options.threads);
  runtime::RunInputs patched = inputs;
  patched[rp.input().streams.tensor] = &filled;
  options.stream_contents = nullptr;
  return run_contraction_jit(compiled, rp, patched, options);
}

} // namespace

PreparedPlan prepare_contraction_plan(const ir::seq::RunProgram& rp,
                                      const runtime::RunInputs& inputs) {
  return is_partial(rp) ? nullptr : prepare_plan(rp, inputs);
}

Status plan_contraction_run(const CompiledContraction& compiled, const ir::seq::RunProgram& rp,
                            const runtime::RunInputs& inputs, PreparedPlan prepared) {
  if (is_partial(rp)) return {};
  auto planned = planned_contraction_run(compiled, rp, inputs, std::move(prepared));
  if (!planned) return std::move(planned).take_diagnostics();
  return {};
}

Result<runtime::RunResult> run_contraction_jit(const CompiledContraction& compiled,
                                               const ir::seq::RunProgram& rp,
                                               const runtime::RunInputs& inputs,
                                               JitRunOptions options) {
  if (options.stream_contents != nullptr &&
      (is_partial(rp) || rp.contraction().trf.streams.tensor == rp.input().streams.tensor))
    return run_on_filled_stream(compiled, rp, inputs, options);
  if (is_partial(rp)) return run_partial_jit(compiled, rp, inputs, options);
  auto planned = planned_contraction_run(compiled, rp, inputs);
  if (!planned) return std::move(planned).take_diagnostics();
  const ContractionPlan& plan = *planned->plan;
  const runtime::LogicalTensor& st = *inputs.at(rp.input().streams.tensor);
  const runtime::LogicalTensor& wt = *inputs.at(rp.contraction().trf.streams.tensor);
  const unsigned workers = pool_size(options.threads, kMaxWorkers);
  if (options.stream_contents != nullptr) {
    // Slice by slice only when no element is generated twice and there are enough slices for
    // the workers to share them evenly.
    const StreamParts& parts = plan.stream_parts;
    if (!parts.disjoint || (workers > 1 && parts.slices < 2 * std::uint64_t{workers}))
      return run_on_filled_stream(compiled, rp, inputs, options);
  }

  runtime::RunResult result;
  auto out =
      runtime::make_logical_tensor(rp.output.dtype, rp.output.axes, runtime::kDefaultMaxElements,
                                   runtime::TensorInit::Uninitialised);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);

  // The pool also widens the stream, so it is not capped by the number of live slices.
  runtime::exec::PoolLease pool(workers);
  // Output elements no slice writes are 0, cleared on the workers: their first touch is part of
  // the run.
  if (!plan.writes_whole_output)
    zero_on(*pool, result.output.data.data(), result.output.data.size());
  const StreamBuffer stream =
      options.stream_contents != nullptr ? StreamBuffer{} : stream_buffer(rp, st, *pool);
  const VrfOperandTables vrf_tables(rp, inputs);
  SliceRun slices{rp,
                  plan,
                  wt,
                  stream,
                  options.stream_contents,
                  st.elements(),
                  result.output,
                  planned->code->function<ContractionFn>(),
                  vrf_tables,
                  std::vector<std::vector<std::uint32_t>>(
                      pool->size(), std::vector<std::uint32_t>(plan.shape.acc_cells)),
                  std::vector<runtime::exec::StagedTrf>(pool->size()),
                  std::vector<StreamPart>(pool->size())};
  // One slice per task: slices cost the same, so the only imbalance left is one slice, and a
  // worker that starts late takes fewer.
  std::atomic<bool> violation{false};
  const std::uint64_t block = plan.output_blocks.cells;
  std::optional<runtime::exec::PrefixDigest> digest;
  if (options.digest_output && block > 0)
    digest.emplace(result.output.data, block * runtime::element_bytes(result.output.dtype));
  pool->run(plan.live.size(), [&](std::uint64_t k, unsigned worker) {
    const std::uint64_t s = plan.live[k];
    if (violation.load(std::memory_order_relaxed) || !slices.run(s, worker)) {
      violation = true;
      return;
    }
    if (const ir::seq::CellAddress ob = rp.output.spatial.at(s);
        digest && ob.state == ir::CellState::Live)
      digest->done(ob.offset / block);
  });
  if (violation) return out_of_bounds_error(rp);
  if (digest) result.sha256 = digest->finish();
  result.poison = plan.poison;
  result.simulated_macs = plan.simulated_macs;
  return result;
}

} // namespace tujit::codegen
