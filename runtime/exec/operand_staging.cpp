#include "runtime/exec/operand_staging.h"

#include "runtime/interp/interpreter.h"

#include <algorithm>

namespace tujit::runtime::exec {

StagedShape staged_shape(const ir::seq::RunProgram& rp) {
  const ir::seq::ContractionProgram& p = rp.chain;
  StagedShape s;
  s.trf_cells = p.element * kLaneVector;
  s.acc_cells = p.t2 * p.p2 * kLaneVector;
  s.out_cells = p.t3 * p.p3;
  s.trf_masks = !rp.trf.streams.cells.all_live();
  return s;
}

ProgramTables program_tables(const ir::seq::RunProgram& rp, std::uint64_t no_output) {
  ProgramTables t;
  const ir::seq::CellStreams& c = rp.stream.streams.cells;
  const ir::seq::AddressTable& flits = c.separable ? c.outer : c.full;
  t.flit_offset.resize(flits.size());
  for (std::uint64_t f = 0; f < flits.size(); ++f) t.flit_offset[f] = flits.offset(f);
  if (!flits.all_live()) {
    t.flit_live.resize(flits.size());
    for (std::uint64_t f = 0; f < flits.size(); ++f)
      t.flit_live[f] = flits.state(f) == ir::CellState::Live ? 1 : 0;
  }
  const ir::seq::CellStreams& o = rp.output.cells;
  t.out_offset.resize(o.outer_size * o.inner_size);
  for (std::uint64_t u = 0; u < o.outer_size; ++u)
    for (std::uint64_t j = 0; j < o.inner_size; ++j) {
      const ir::seq::CellAddress a = o.at(u, j);
      t.out_offset[u * o.inner_size + j] = a.state == ir::CellState::Live ? a.offset : no_output;
    }
  return t;
}

void stage_trf(const ir::seq::RunProgram& rp, const StagedShape& sh, const LogicalTensor& tensor,
               std::uint64_t s, StagedTrf& out) {
  const ir::seq::ContractionProgram& p = rp.chain;
  const ir::seq::OperandStreams& w = rp.trf;
  const std::uint64_t base = w.streams.spatial.offset(s);
  // [Lane][Element] → [Element][kLaneVector]; lanes ≥ |Lane| and padding lanes (which form no
  // product, §5.4) stay 0 / absent. An absent cell's value is never observed (masked to the
  // identity).
  out.values.assign(sh.trf_cells, 0);
  if (sh.trf_masks) out.present.assign(sh.trf_cells, 0);
  for (std::uint64_t l = 0; l < p.lanes; ++l) {
    if (!p.lane_live[l]) continue;
    for (std::uint64_t x = 0; x < p.element; ++x) {
      const ir::seq::CellAddress a = w.streams.cells.at(l, x);
      if (a.state != ir::CellState::Live) continue;
      out.values[x * kLaneVector + l] =
          widen_to_accumulator(w.type, read_operand(w, tensor, base + a.offset));
      if (sh.trf_masks) out.present[x * kLaneVector + l] = kPresent;
    }
  }
}

} // namespace tujit::runtime::exec
