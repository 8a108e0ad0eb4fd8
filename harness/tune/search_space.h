// The search space of `tujit tune` (docs/tune.md §2), enumerated structurally.
//
// Outer part, materialised as Blocks: the spatial share of every output axis (Cluster × Slice),
// the lane share of every column axis, the packet share of every stream axis. Inner part,
// expanded per block: the order of the stream's Time digits, PackSize, the order of the TRF
// Element's rows, LaneMode. Every choice has an index (its position in this order); shards and
// the ranking's tie-break use it, so any thread count and any sharding enumerate the same space.
//
// Pruned while generating, each by the verifier rule it would break (counted per rule, as partial
// assignments): more than 2 × 256 live slices or a cluster digit the sizes do not have (E-HW-001 /
// E-HW-002), more than 8 lanes (E-OUTER-002), a packet over one flit (E-HW-004), PackSize 2
// without an even innermost Time digit (E-OUTER-005). Not generated at all: variants that differ
// only by which digit of an axis holds which coordinates, or by the order of digits inside one
// spatial / lane / broadcast / packet mapping (candidate.h: the per-slice program is the same);
// contracted axes on Cluster / Slice (the partial sums would need a Vector Engine reduction, which
// tujit does not simulate).
#pragma once

#include "harness/tune/candidate.h"
#include "harness/tune/problem.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tujit::tune {

struct Block {
  Choice base; // pieces set; orders, PackSize and mode filled by expand()
  std::uint64_t first_index = 0;
  std::uint64_t count = 0; // choices the block expands to
  std::uint64_t live_slices = 1;
  std::uint64_t stream_flits = 1; // |Time|: the stream's flits per slice
  std::uint64_t trf_cells = 1; // one slice's TRF share (Lane × its digits, packet padding aside)
};

struct SearchSpace {
  std::vector<Block> blocks; // enumeration order: most live slices first, then fewest stream
                             // flits (the likely fastest first), then the smallest TRF share
  std::uint64_t size = 0;    // choices over all blocks
  /// Partial assignments not generated, per verifier rule code.
  std::map<std::string, std::uint64_t> pruned;
};

/// Builds the blocks of `p`'s space.
SearchSpace make_search_space(const Problem& p);

/// The choice with enumeration index `index` (< space.size).
Choice choice_at(const Problem& p, const SearchSpace& space, std::uint64_t index);

/// Calls `emit` with every choice of `block` in order (indices block.first_index …); stops early
/// when `emit` returns false. Returns the number emitted.
std::uint64_t expand(const Problem& p, const Block& block,
                     const std::function<bool(const Choice&)>& emit);

} // namespace tujit::tune
