#include "codegen/slice_parts.h"

#include <algorithm>

namespace tujit::codegen {

StreamParts stream_parts(const ir::seq::RunProgram& rp, const std::vector<std::uint64_t>& live) {
  StreamParts parts;
  // Every cell offset the code may load: the live cells', and the dead flits' offset 0 (their
  // loads are not guarded by liveness). The vector path's loads span a flit's cells [0, run),
  // which lie between offset 0 and its last live cell.
  const ir::seq::CellStreams& c = rp.stream.streams.cells;
  parts.reach =
      (c.separable ? c.outer.max_offset() + c.inner.max_offset() : c.full.max_offset()) + 1;
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t s : live) {
    const ir::seq::CellAddress sb = rp.stream.streams.spatial.at(s);
    if (sb.state != ir::CellState::Live ||
        rp.trf.streams.spatial.at(s).state != ir::CellState::Live ||
        rp.output.spatial.at(s).state != ir::CellState::Live)
      continue; // runs no code (contraction_run.cpp SliceRun::run)
    offsets.push_back(sb.offset);
  }
  parts.slices = offsets.size();
  std::sort(offsets.begin(), offsets.end());
  parts.disjoint = true;
  for (std::size_t i = 1; i < offsets.size() && parts.disjoint; ++i)
    parts.disjoint = offsets[i] - offsets[i - 1] >= parts.reach;
  return parts;
}

OutputBlocks output_blocks(const ir::seq::RunProgram& rp, const std::vector<std::uint64_t>& live,
                           const std::vector<std::uint64_t>& out_offset, std::uint64_t no_output) {
  // The cells' offsets are exactly 0 .. m-1, each once.
  std::vector<bool> seen;
  for (std::uint64_t o : out_offset) {
    if (o == no_output) continue;
    if (o >= out_offset.size()) return {};
    if (seen.size() <= o) seen.resize(o + 1, false);
    if (seen[o]) return {};
    seen[o] = true;
  }
  const std::uint64_t m = seen.size();
  if (m == 0 || std::find(seen.begin(), seen.end(), false) != seen.end()) return {};
  // Every live slice that writes (its output position live) writes all of its cells
  // (contraction_run.cpp SliceRun::run); their offsets are 0, m, 2m, ... to the output's end.
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t s : live) {
    const ir::seq::CellAddress ob = rp.output.spatial.at(s);
    if (ob.state == ir::CellState::Live) offsets.push_back(ob.offset);
  }
  std::sort(offsets.begin(), offsets.end());
  std::uint64_t elements = 1;
  for (const ir::Axis& a : rp.output.axes) elements *= a.size;
  if (offsets.size() * m != elements) return {};
  for (std::size_t k = 0; k < offsets.size(); ++k)
    if (offsets[k] != k * m) return {};
  return {m};
}

} // namespace tujit::codegen
