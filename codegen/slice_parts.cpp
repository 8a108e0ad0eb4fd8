#include "codegen/slice_parts.h"

#include "ir/seq/held_axes.h"

#include <algorithm>

namespace tujit::codegen {

StreamParts stream_parts(const ir::seq::RunProgram& rp, const std::vector<std::uint64_t>& live) {
  StreamParts parts;
  // Every cell offset the code may load: the live cells', and the dead flits' offset 0 (their
  // loads are not guarded by liveness). The vector path's loads span a flit's cells [0, run),
  // which lie between offset 0 and its last live cell.
  const ir::seq::CellStreams& c = rp.input().streams.cells;
  parts.reach =
      (c.separable ? c.outer.max_offset() + c.inner.max_offset() : c.full.max_offset()) + 1;
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t s : live) {
    const ir::seq::CellAddress sb = rp.input().streams.spatial.at(s);
    if (sb.state != ir::CellState::Live ||
        rp.contraction().trf.streams.spatial.at(s).state != ir::CellState::Live ||
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

OutputBlocks output_blocks(const ir::seq::RunProgram& rp, const std::vector<std::uint64_t>& live) {
  // Dense blocks (each live slice writes all of its cells, contraction_run.cpp SliceRun::run)
  // that neither overlap nor leave a gap lie at 0, m, 2m, ... to the output's end.
  const std::optional<std::uint64_t> m = ir::seq::dense_block(rp.output.cells);
  if (!m) return {};
  const auto coverage =
      ir::seq::block_coverage(rp.output, ir::seq::element_count(rp.output.axes), &live);
  return {coverage && coverage->unreached == 0 ? *m : 0};
}

} // namespace tujit::codegen
