#include "runtime/interp/write_exec.h"

#include "ir/datapath/sequencer_config.h"
#include "runtime/layout/layout.h"

#include <fmt/format.h>

namespace tujit::runtime {

Result<std::vector<std::uint8_t>> write_live_positions(const ir::seq::WriteProgram& p,
                                                       const ir::AxisTable& table) {
  auto cells = layout_cells(p.stream, tensor_axes(p.stream, table));
  if (!cells) return std::move(cells).take_diagnostics();
  std::vector<std::uint8_t> live(p.stream_cells(), 0);
  for (std::uint64_t i = 0; i < live.size() && i < cells->state.size(); ++i)
    live[i] = cells->state[i] == CellState::Live ? 1 : 0;
  return live;
}

Result<DeviceImage> run_write(const ir::seq::WriteProgram& p, const DeviceImage& stream,
                              const DeviceImage& buffer, const ir::AxisTable& table) {
  if (stream.dtype != p.dtype || stream.cells() != p.stream_cells() || buffer.dtype != p.dtype ||
      buffer.cells() != p.buffer_cells) {
    Diagnostic d = make_error(
        "E-RUN-102", fmt::format("the write of `{}` into `{}` takes {} stream cells and {} buffer "
                                 "cells of {}, found {} and {}",
                                 p.source, p.target, p.stream_cells(), p.buffer_cells,
                                 ir::name(p.dtype), stream.cells(), buffer.cells()));
    d.stage = "run";
    return d;
  }
  auto live = write_live_positions(p, table);
  if (!live) return std::move(live).take_diagnostics();
  DeviceImage out = buffer;
  ir::datapath::for_each_offset(p.sequencer, [&](std::uint64_t pos, std::uint64_t addr) {
    if (!(*live)[pos] || addr >= out.cells()) return;
    out.bits[addr] = stream.bits[pos];
    out.state[addr] = stream.state[pos];
  });
  return out;
}

} // namespace tujit::runtime
