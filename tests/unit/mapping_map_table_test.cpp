// map_table (ir/mapping/map_table.h) against Mapping::map, the one-position evaluation of
// docs/mapping.md §3, on random valid mappings of every node kind: same kind, same padding and the
// same coordinates at every position, with axes asked for in a different order than the mapping
// names them and with some of its axes not asked for at all.
#include "ir/mapping/map_table.h"
#include "ir/mapping/syntax.h"
#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace tujit;
using namespace tujit::ir;

namespace {

void require_equal_to_map(const Mapping& m, const std::vector<Axis>& asked) {
  const MappedTable t = map_table(m, asked);
  REQUIRE(t.size == m.size());
  for (std::size_t c = 0; c < asked.size(); ++c) REQUIRE(t.columns[c] == asked[c].name);
  for (std::uint64_t p = 0; p < m.size(); ++p) {
    const Cell cell = m.map(p);
    INFO(m.to_string() << " at " << p);
    REQUIRE(t.kind[p] == cell.kind);
    if (cell.kind == Cell::Kind::Padding) REQUIRE(t.padding[p] == cell.padding);
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
      const auto it = cell.index.find(t.columns[c]);
      REQUIRE(t.at(p)[c] == (it == cell.index.end() ? 0 : it->second));
    }
    for (const auto& [axis, v] : cell.index) // no coordinate the table has no column for
      REQUIRE((v == 0 || std::find(t.columns.begin(), t.columns.end(), axis) != t.columns.end()));
  }
}

} // namespace

TEST_CASE("map_table equals Mapping::map at every position of random mappings", "[mapping]") {
  testing::MappingGenOptions opts;
  opts.allow_repeat_axis = true; // sums of one axis's digits, overshoots included
  testing::MappingGenerator gen(20261201, opts);
  for (int i = 0; i < 400; ++i) {
    const testing::GeneratedMapping g = gen.next();
    std::vector<Axis> all = g.axes.axes();
    require_equal_to_map(g.mapping, all);
    std::reverse(all.begin(), all.end());
    if (!all.empty()) all.pop_back(); // one axis left to the extra columns
    require_equal_to_map(g.mapping, all);
  }
}

TEST_CASE("map_table on the book's padded slice mapping", "[mapping]") {
  AxisTable axes;
  REQUIRE(axes.add(Axis{"V", 32}));
  auto m = parse_mapping_text("V % 16 # 256", axes);
  REQUIRE(m.ok());
  const MappedTable t = map_table(*m, axes.axes());
  REQUIRE(t.size == 256);
  for (std::uint64_t p = 0; p < 256; ++p) {
    // Positions below 16 hold V = p (the first 16 of V's 32 coordinates); the rest are top
    // padding (`#` without a value, docs/mapping.md §1).
    REQUIRE(t.kind[p] == (p < 16 ? Cell::Kind::Index : Cell::Kind::Padding));
    if (p < 16)
      REQUIRE(t.at(p)[0] == p);
    else
      REQUIRE(t.padding[p] == PaddingKind::Top);
  }
}
