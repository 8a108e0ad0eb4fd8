// The Lane Folder's drain (docs/contraction.md §8) as blocks of 8 output cells that are 8
// consecutive output elements taking 8 consecutive accumulator cells, in affine runs of such
// blocks: the drain of a whole Interleaved output flit is then one 8-lane load, NaN canonicalised
// as a vector, and one 8-lane store, instead of 8 table look-ups (contraction_emit.cpp). Moves the
// same values to the same elements; only the instructions differ.
#pragma once

#include <cstdint>
#include <vector>

namespace tujit::codegen {

inline constexpr std::uint64_t kDrainBlock = 8;

/// Blocks b = 0 … blocks − 1 of a run: output cells first_cell + 8b + j, at output element
/// out + b·out_step + j, taking accumulator cell acc + b·acc_step + j (j < 8).
struct DrainRun {
  std::uint64_t first_cell = 0, blocks = 0;
  std::uint64_t out = 0, out_step = 0;
  std::uint64_t acc = 0, acc_step = 0;
};

/// The runs covering every output cell, from the accumulator cell of each (`acc`, `no_acc` for an
/// output padding cell) and its output element (`out`, `no_out` for a cell the slice does not
/// write); empty when some block is not such a block or more than `max_runs` runs are needed.
std::vector<DrainRun> drain_runs(const std::vector<std::uint32_t>& acc, std::uint32_t no_acc,
                                 const std::vector<std::uint64_t>& out, std::uint64_t no_out,
                                 std::size_t max_runs);

} // namespace tujit::codegen
