// The coordinates a mapping's live cells hold, axis by axis, without listing its positions: what
// a view's held axes need (ir/seq/held_axes.h). A `major, minor` pair's live cells are the pairs
// of live cells of its two sides and their coordinates add (docs/mapping.md §2), so each axis's
// set is the sum set of the two sides' sets: the work follows the sizes of the leaves, not their
// product.
#pragma once

#include "ir/mapping/mapping.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::ir {

struct LiveCoordinates {
  /// Whether any position is live (Cell::Kind::Index); when none is, every set is empty.
  bool any_live = false;
  /// The columns: the axes asked for, in order, then every other axis the mapping names (as
  /// map_table's).
  std::vector<std::string> columns;
  /// Per column, held[c][v] for v below the column's cap: some live position holds coordinate v.
  /// The cap is the axis's size for an asked axis, 1 for the others.
  std::vector<std::vector<bool>> held;
  /// Per column: some live position holds a coordinate at or past the cap.
  std::vector<bool> beyond;
};

/// The coordinates set in `present` (held[c], or any such bitmap), in increasing order.
std::vector<std::uint64_t> set_coordinates(const std::vector<bool>& present);

/// The live coordinates of every position of `m`, equal to collecting map_table(m, axes) over its
/// live rows.
LiveCoordinates live_coordinates(const Mapping& m, const std::vector<Axis>& axes);

/// How many positions of `m` are live (Cell::Kind::Index), from the tree where its live positions
/// are a product of its operands' (pairs, padding, whole prefixes), position by position
/// elsewhere.
std::uint64_t live_positions(const Mapping& m);

} // namespace tujit::ir
