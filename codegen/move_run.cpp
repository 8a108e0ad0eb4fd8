// run_move_jit: the live slices of a data-movement program are partitioned over a thread pool;
// each calls the compiled function with the slice's bases into the source and output tensors and
// the per-slice cell tables (shared by every slice whose source spatial state is the same). A
// slice writes only its own output cells, so every partition gives the same bytes. With a poison
// shadow (JitOptions::poison_shadow) the poison is its own (poison_run.h), else
// runtime/engine/poison.h's.
#include "codegen/contraction_jit.h"

#include "codegen/contraction_emit.h"
#include "codegen/jit_core.h"
#include "codegen/jit_run_checks.h"
#include "codegen/move_emit.h"
#include "codegen/poison_run.h"
#include "runtime/engine/operand_read.h"
#include "runtime/exec/thread_pool.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>

namespace tujit::codegen {
namespace {

MoveCell move_cell(ir::CellState s) {
  switch (s) {
  case ir::CellState::Live:
    return MoveCell::Live;
  case ir::CellState::Top:
    return MoveCell::Top;
  default:
    return MoveCell::Empty;
  }
}

} // namespace

Result<runtime::RunResult> run_move_jit(const CompiledContraction& compiled,
                                        const ir::seq::RunProgram& rp,
                                        const runtime::RunInputs& inputs, JitRunOptions options) {
  if (auto ok = checked_jit_run(compiled, rp, inputs); !ok) return ok.diagnostics();
  if (!rp.is_move()) return run_error("E-JIT-002", "internal: not a JIT-compiled data movement");
  const runtime::LogicalTensor& src = *inputs.at(rp.move().source.streams.tensor);
  runtime::RunResult result;
  auto out = runtime::make_logical_tensor(rp.output.dtype, rp.output.axes);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);

  // The per-slice cell tables (the cells of the source and output views are slice-invariant).
  const ir::seq::CellStreams& sc = rp.move().source.streams.cells;
  const ir::seq::CellStreams& oc = rp.output.cells;
  const std::uint64_t cells = oc.outer_size * oc.inner_size;
  std::vector<std::uint64_t> src_offset(cells), out_offset(cells);
  std::vector<std::uint8_t> live_state(cells);
  for (std::uint64_t o = 0; o < oc.outer_size; ++o)
    for (std::uint64_t i = 0; i < oc.inner_size; ++i) {
      const std::uint64_t c = o * oc.inner_size + i;
      const ir::seq::CellAddress a = sc.at(o, i), b = oc.at(o, i);
      src_offset[c] = a.offset;
      live_state[c] = static_cast<std::uint8_t>(move_cell(a.state));
      out_offset[c] = b.state == ir::CellState::Live ? b.offset : kNoOutput;
    }
  // A slice whose source spatial position is padding reads that padding in every cell.
  std::map<ir::CellState, std::vector<std::uint8_t>> padded_state;
  for (std::uint64_t s : rp.live_slices())
    if (auto st = rp.move().source.streams.spatial.state(s); st != ir::CellState::Live)
      padded_state.try_emplace(st, cells, static_cast<std::uint8_t>(move_cell(st)));

  runtime::exec::PoolLease pool(pool_size(options.threads, kMaxWorkers));
  std::vector<std::uint32_t> adapted;
  const std::uint8_t* source = src.data.data();
  if (move_convert(rp) == MoveConvert::Preadapted) {
    adapted.resize(src.elements());
    for (std::uint64_t i = 0; i < adapted.size(); ++i)
      adapted[i] = runtime::read_operand(rp.move().source, src, i);
    source = reinterpret_cast<const std::uint8_t*>(adapted.data());
  }
  const VrfOperandTables vrf(rp, inputs); // the pass's `&vrf` operands
  const std::uint64_t src_bytes = move_source_bytes(rp);
  const std::uint64_t out_bytes = runtime::element_bytes(rp.output.dtype);
  const std::vector<std::uint64_t> live = rp.live_slices();
  const std::uint64_t n = live.size();
  std::atomic<bool> violation{false};
  const auto fn = compiled.function<MoveFn>();
  for_each_slice_range(*pool, n, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (std::uint64_t k = begin; k < end; ++k) {
      const ir::seq::CellAddress sb = rp.move().source.streams.spatial.at(live[k]);
      const ir::seq::CellAddress ob = rp.output.spatial.at(live[k]);
      if (ob.state != ir::CellState::Live) continue;
      MoveArgs args{};
      args.source = source + sb.offset * src_bytes;
      args.source_limit = src.elements() - sb.offset;
      args.out = result.output.data.data() + ob.offset * out_bytes;
      args.out_limit = result.output.elements() - ob.offset;
      args.source_offset = src_offset.data();
      args.source_state =
          sb.state == ir::CellState::Live ? live_state.data() : padded_state.at(sb.state).data();
      args.out_offset = out_offset.data();
      const std::vector<VrfOperandArgs> vrf_args = vrf.args(live[k]);
      args.vrf = vrf_args.data();
      if (fn(&args) != kRunOk) {
        violation = true;
        return;
      }
    }
  });
  if (violation) return out_of_bounds_error(rp);
  auto poison = jit_poison(compiled, rp);
  if (!poison) return std::move(poison).take_diagnostics();
  result.poison = std::move(*poison);
  return result;
}

// The layout move_emit.cpp and this runner share.
MoveConvert move_convert(const ir::seq::RunProgram& p) {
  const ir::seq::OperandStreams& s = p.move().source;
  if (runtime::element_bytes(s.streams.dtype) == 1) return MoveConvert::Table;
  if (s.adapter.identity() && !p.output_cast &&
      runtime::element_bytes(s.streams.dtype) == runtime::element_bytes(p.output.dtype))
    return MoveConvert::Copy;
  return MoveConvert::Preadapted;
}

std::uint32_t move_source_bytes(const ir::seq::RunProgram& p) {
  return move_convert(p) == MoveConvert::Preadapted
             ? 4
             : runtime::element_bytes(p.move().source.streams.dtype);
}

} // namespace tujit::codegen
