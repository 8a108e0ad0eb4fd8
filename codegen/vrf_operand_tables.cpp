#include "codegen/vrf_operand_tables.h"

#include "runtime/engine/operand_read.h"

#include <algorithm>

namespace tujit::codegen {

VrfOperandTables::VrfOperandTables(const ir::seq::RunProgram& p, const runtime::RunInputs& inputs) {
  const ir::seq::CellStreams& oc = p.output.cells;
  const std::uint64_t cells = oc.outer_size * oc.inner_size;
  none_live_.assign(cells, 0);
  for (const ir::seq::OperandStreams& op : p.vrf_operands) {
    Operand o;
    o.streams = &op;
    for (const Operand& earlier : operands_)
      if (earlier.streams->streams.tensor == op.streams.tensor &&
          earlier.streams->adapter == op.adapter)
        o.adapted = earlier.adapted;
    if (!o.adapted) {
      const runtime::LogicalTensor& t = *inputs.at(op.streams.tensor);
      auto adapted = std::make_shared<std::vector<std::uint32_t>>(
          std::max<std::uint64_t>(t.elements(), 1), 0);
      for (std::uint64_t i = 0; i < t.elements(); ++i)
        (*adapted)[i] = runtime::read_operand(op, t, i);
      o.adapted = std::move(adapted);
    }
    o.offset.resize(cells);
    o.live.resize(cells);
    for (std::uint64_t r = 0; r < oc.outer_size; ++r)
      for (std::uint64_t c = 0; c < oc.inner_size; ++c) {
        const ir::seq::CellAddress a = op.streams.cells.at(r, c);
        const bool live = a.state == ir::CellState::Live;
        o.offset[r * oc.inner_size + c] = live ? a.offset : 0;
        o.live[r * oc.inner_size + c] = live ? 1 : 0;
      }
    operands_.push_back(std::move(o));
  }
}

std::vector<VrfOperandArgs> VrfOperandTables::args(std::uint64_t s) const {
  std::vector<VrfOperandArgs> out;
  for (const Operand& o : operands_) {
    // A slice whose VRF position is not live reads 0 in every cell.
    const ir::seq::CellAddress base = o.streams->streams.spatial.at(s);
    const bool live = base.state == ir::CellState::Live;
    const std::uint64_t b = live ? base.offset : 0;
    out.push_back({o.adapted->data() + b, o.adapted->size() - b, o.offset.data(),
                   live ? o.live.data() : none_live_.data()});
  }
  return out;
}

std::vector<std::uint32_t> VrfOperandTables::values(const std::vector<VrfOperandArgs>& args,
                                                    std::uint64_t cell) {
  std::vector<std::uint32_t> out;
  for (const VrfOperandArgs& a : args) out.push_back(a.live[cell] ? a.source[a.offset[cell]] : 0u);
  return out;
}

} // namespace tujit::codegen
