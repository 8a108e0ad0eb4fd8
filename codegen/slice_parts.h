// The parts of a contraction's stream operand and of its output each live slice touches.
//
// The generated code reads the stream at the slice's spatial offset plus a cell offset
// (stream_load.h), the same cell offsets for every slice, so slice s reads inside
// [offset(s), offset(s) + reach). When the running slices' parts do not overlap, a seeded stream is
// generated part by part on the worker that runs the slice (JitRunOptions::stream_contents), in
// the worker's cache, instead of being filled whole before the run.
//
// A slice writes its output cells at its output offset plus the cells' offsets, again the same for
// every slice. When those cell offsets are 0 .. m-1 and the slices' offsets are 0, m, 2m, ... up
// to the output's end, the output is a row of blocks, one per slice, and its digest can follow the
// slices as they finish (runtime/exec/prefix_digest.h) instead of waiting for the last one
// (docs/cli.md §6).
#pragma once

#include "ir/seq/run_program.h"

#include <cstdint>
#include <vector>

namespace tujit::codegen {

struct StreamParts {
  std::uint64_t reach = 0;  // elements from a slice's offset past the last one it may read
  std::uint64_t slices = 0; // live slices that read the stream (their operands and output live)
  bool disjoint = false;    // no element lies in the parts of two of those slices
};

/// The stream parts of `program`'s live slices `live`.
StreamParts stream_parts(const ir::seq::RunProgram& program,
                         const std::vector<std::uint64_t>& live);

/// The output as blocks of `cells` elements, block k written by the live slice at output offset
/// k·cells; `cells` = 0 when the output is not such a row of blocks.
struct OutputBlocks {
  std::uint64_t cells = 0;
};
OutputBlocks output_blocks(const ir::seq::RunProgram& program,
                           const std::vector<std::uint64_t>& live);

} // namespace tujit::codegen
