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
  if (rp.kind != ir::seq::RunKind::Move)
    return run_error("E-JIT-002", "internal: not a JIT-compiled data movement");
  const runtime::LogicalTensor& src = *inputs.at(rp.stream.streams.tensor);
  runtime::RunResult result;
  auto out = runtime::make_logical_tensor(rp.output.dtype, rp.output.axes);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);

  // The per-slice cell tables (the cells of the source and output views are slice-invariant).
  const ir::seq::CellStreams& sc = rp.stream.streams.cells;
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
    if (auto st = rp.stream.streams.spatial.state(s); st != ir::CellState::Live)
      padded_state.try_emplace(st, cells, static_cast<std::uint8_t>(move_cell(st)));

  runtime::exec::PoolLease pool(pool_size(options.threads, kMaxWorkers));
  std::vector<std::uint32_t> adapted;
  const std::uint8_t* source = src.data.data();
  if (move_convert(rp) == MoveConvert::Preadapted) {
    adapted.resize(src.elements());
    for (std::uint64_t i = 0; i < adapted.size(); ++i)
      adapted[i] = runtime::read_operand(rp.stream, src, i);
    source = reinterpret_cast<const std::uint8_t*>(adapted.data());
  }
  // The pass's `&vrf` operands: each source adapted once, its cell tables slice-invariant
  // (runtime::read_vrf_operand); a slice whose VRF position is not live reads 0 everywhere.
  struct VrfTables {
    std::vector<std::uint32_t> adapted;
    std::vector<std::uint64_t> offset;
    std::vector<std::uint8_t> live;
  };
  std::vector<VrfTables> vrf(rp.vrf_operands.size());
  const std::vector<std::uint8_t> no_live(cells, 0);
  for (std::size_t k = 0; k < vrf.size(); ++k) {
    const ir::seq::OperandStreams& op = rp.vrf_operands[k];
    const runtime::LogicalTensor& t = *inputs.at(op.streams.tensor);
    vrf[k].adapted.resize(std::max<std::uint64_t>(t.elements(), 1), 0);
    for (std::uint64_t i = 0; i < t.elements(); ++i)
      vrf[k].adapted[i] = runtime::read_operand(op, t, i);
    vrf[k].offset.resize(cells);
    vrf[k].live.resize(cells);
    for (std::uint64_t o = 0; o < oc.outer_size; ++o)
      for (std::uint64_t i = 0; i < oc.inner_size; ++i) {
        const ir::seq::CellAddress a = op.streams.cells.at(o, i);
        const bool live = a.state == ir::CellState::Live;
        vrf[k].offset[o * oc.inner_size + i] = live ? a.offset : 0;
        vrf[k].live[o * oc.inner_size + i] = live ? 1 : 0;
      }
  }
  const std::uint64_t src_bytes = move_source_bytes(rp);
  const std::uint64_t out_bytes = runtime::element_bytes(rp.output.dtype);
  const std::vector<std::uint64_t> live = rp.live_slices();
  const std::uint64_t n = live.size();
  std::atomic<bool> violation{false};
  const auto fn = compiled.function<MoveFn>();
  for_each_slice_range(*pool, n, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    for (std::uint64_t k = begin; k < end; ++k) {
      const ir::seq::CellAddress sb = rp.stream.streams.spatial.at(live[k]);
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
      std::vector<MoveVrfArgs> vrf_args(vrf.size());
      for (std::size_t j = 0; j < vrf.size(); ++j) {
        const ir::seq::CellAddress vb = rp.vrf_operands[j].streams.spatial.at(live[k]);
        const bool at = vb.state == ir::CellState::Live;
        const std::uint64_t base = at ? vb.offset : 0;
        vrf_args[j] = {vrf[j].adapted.data() + base, vrf[j].adapted.size() - base,
                       vrf[j].offset.data(), at ? vrf[j].live.data() : no_live.data()};
      }
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

} // namespace tujit::codegen
