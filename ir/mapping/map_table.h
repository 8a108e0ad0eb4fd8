// Every position of a mapping evaluated at once (docs/mapping.md §3): the cells Mapping::map gives
// one at a time, as dense columns over a fixed list of axes. Lowering evaluates each slot's
// mapping over all of its positions (thousands for a Time mapping); building one Index (a map of
// axis names) per position made that the largest serial part of a run.
#pragma once

#include "ir/mapping/mapping.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::ir {

struct MappedTable {
  std::uint64_t size = 0;
  /// The columns: the axes asked for, in order, then every other axis the mapping names.
  std::vector<std::string> columns;
  /// Per position, the cell's kind and (Kind::Padding) its padding kind.
  std::vector<Cell::Kind> kind;
  std::vector<PaddingKind> padding;
  /// Per position and column, the coordinate (0 off live cells): [size][columns.size()].
  std::vector<std::uint64_t> coord;

  const std::uint64_t* at(std::uint64_t p) const { return coord.data() + p * columns.size(); }
};

/// map(p) for every p < SIZE(m): for each p, kind/padding equal Mapping::map(p)'s, and a live
/// cell's Index holds exactly the non-zero columns of row p.
MappedTable map_table(const Mapping& m, const std::vector<Axis>& axes);

} // namespace tujit::ir
