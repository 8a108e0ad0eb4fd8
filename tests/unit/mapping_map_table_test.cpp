// map_table (ir/mapping/map_table.h) against Mapping::map, the one-position evaluation of
// docs/mapping.md §3, on random valid mappings of every node kind: same kind, same padding and the
// same coordinates at every position, with axes asked for in a different order than the mapping
// names them and with some of its axes not asked for at all.
#include "ir/mapping/live_coordinates.h"
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

TEST_CASE("live_coordinates equals map_table's live rows, collected, on random mappings",
          "[mapping]") {
  // The per-axis sets built from the tree (sum sets at pairs) against the position-by-position
  // table, with caps below, at and above each axis's size so that the split between held
  // coordinates and those past the cap is exercised.
  testing::MappingGenOptions opts;
  opts.allow_repeat_axis = true; // sums of one axis's digits, overshoots included
  testing::MappingGenerator gen(20261202, opts);
  std::size_t beyond = 0;
  for (int i = 0; i < 400; ++i) {
    const testing::GeneratedMapping g = gen.next();
    std::vector<Axis> asked = g.axes.axes();
    if (i % 3 == 1 && !asked.empty()) asked.pop_back(); // one axis left to the other columns
    for (std::size_t a = 0; a < asked.size(); ++a)      // caps: half, equal, double the size
      asked[a].size = std::max<std::uint64_t>(1, asked[a].size * (1 + (i + a) % 3) / 2);
    INFO(g.mapping.to_string());
    const MappedTable t = map_table(g.mapping, asked);
    const LiveCoordinates live = live_coordinates(g.mapping, asked);
    REQUIRE(live.columns == t.columns);
    std::vector<std::vector<bool>> held(t.columns.size());
    std::vector<bool> past(t.columns.size(), false);
    bool any = false;
    for (std::size_t c = 0; c < t.columns.size(); ++c)
      held[c].assign(c < asked.size() ? asked[c].size : 1, false);
    for (std::uint64_t p = 0; p < t.size; ++p) {
      if (t.kind[p] != Cell::Kind::Index) continue;
      any = true;
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        const std::uint64_t v = t.at(p)[c];
        if (v < held[c].size())
          held[c][v] = true;
        else
          past[c] = true;
      }
    }
    CHECK(live.any_live == any);
    CHECK(live.held == held);
    CHECK(live.beyond == past);
    beyond += std::count(past.begin(), past.end(), true);
  }
  CHECK(beyond > 20); // the cap splits sets often enough to be tested
}

TEST_CASE("live_positions equals the live positions counted one by one, on random mappings",
          "[mapping]") {
  testing::MappingGenOptions opts;
  opts.allow_repeat_axis = true;
  testing::MappingGenerator gen(20261208, opts);
  for (int i = 0; i < 400; ++i) {
    const testing::GeneratedMapping g = gen.next();
    INFO(g.mapping.to_string());
    std::uint64_t live = 0;
    for (std::uint64_t p = 0; p < g.mapping.size(); ++p)
      live += g.mapping.map(p).kind == Cell::Kind::Index ? 1 : 0;
    REQUIRE(live_positions(g.mapping) == live);
  }
}
