// Mapping values (docs/mapping.md §2, §3): combine, finalize, SIZE and map on the §9 vectors.
// Expected values are the spec's; "≡" claims are checked by brute force (equivalent_by_map).
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <utility>

using namespace tujit;
using namespace tujit::ir;

namespace {

AxisTable axes_of(std::initializer_list<std::pair<const char*, std::uint64_t>> list) {
  AxisTable t;
  for (auto& [n, s] : list) REQUIRE(t.add(Axis{n, s}));
  return t;
}

Mapping parse(std::string_view text, const AxisTable& axes) {
  auto r = parse_mapping_text(text, axes);
  if (!r) {
    SourceBuffer src("<mapping>", std::string(text));
    FAIL_CHECK(render(r.diagnostics().front(), &src));
  }
  REQUIRE(r.ok());
  return *r;
}

Cell live(std::initializer_list<std::pair<const char*, std::uint64_t>> entries) {
  Index ix;
  for (auto& [n, v] : entries) ix[n] = v;
  return Cell::live(ix);
}

bool is_oob(const Cell& c) {
  return c.kind == Cell::Kind::OutOfBounds;
}
bool is_pad(const Cell& c, PaddingKind k) {
  return c.kind == Cell::Kind::Padding && c.padding == k;
}

// A cell equal (structurally, zero entries included) to the expected live index.
bool same_index(const Cell& c, std::initializer_list<std::pair<const char*, std::uint64_t>> e) {
  if (!c.is_live()) return false;
  Index want;
  for (auto& [n, v] : e) want[n] = v;
  return c.index == want;
}

std::uint64_t coord(const Cell& c, const std::string& axis) {
  auto it = c.index.find(axis);
  return it == c.index.end() ? 0 : it->second;
}

} // namespace

TEST_CASE("combine: not commutative, non-live major wins, then non-live minor", "[mapping-eval]") {
  Cell a = live({{"A", 1}}), b = live({{"A", 2}, {"B", 3}});
  Cell sum = combine(a, b);
  CHECK(same_index(sum, {{"A", 3}, {"B", 3}}));
  CHECK(is_oob(combine(Cell::out_of_bounds(), a)));
  CHECK(is_oob(combine(a, Cell::out_of_bounds())));
  CHECK(is_pad(combine(Cell::pad(PaddingKind::Zero), Cell::out_of_bounds()), PaddingKind::Zero));
  CHECK(is_oob(combine(Cell::out_of_bounds(), Cell::pad(PaddingKind::Zero))));
  CHECK(is_pad(combine(a, Cell::pad(PaddingKind::Bottom)), PaddingKind::Bottom));
  CHECK(is_pad(combine(Cell::pad(PaddingKind::Top), Cell::pad(PaddingKind::Bottom)),
               PaddingKind::Top));
  CHECK(is_pad(combine(Cell::pad(PaddingKind::Bottom), Cell::pad(PaddingKind::Top)),
               PaddingKind::Bottom));
  // An empty index is live: it never stands for padding.
  CHECK(same_index(combine(Cell::live({}), Cell::live({})), {}));
  CHECK(same_index(combine(Cell::live({}), a), {{"A", 1}}));
}

TEST_CASE("index and cell equivalence ignore zero entries only", "[mapping-eval]") {
  CHECK(index_equivalent(Index{{"A", 0}}, Index{}));
  CHECK(index_equivalent(Index{{"A", 0}, {"B", 2}}, Index{{"B", 2}, {"C", 0}}));
  CHECK_FALSE(index_equivalent(Index{{"A", 1}}, Index{}));
  CHECK_FALSE(index_equivalent(Index{{"A", 1}}, Index{{"B", 1}}));
  CHECK_FALSE(index_equivalent(Index{{"A", 1}}, Index{{"A", 2}}));
  CHECK(cell_equivalent(Cell::live({{"A", 0}}), Cell::live({})));
  CHECK_FALSE(cell_equivalent(Cell::live({}), Cell::pad(PaddingKind::Top)));
  CHECK_FALSE(cell_equivalent(Cell::pad(PaddingKind::Zero), Cell::pad(PaddingKind::Top)));
  CHECK(cell_equivalent(Cell::out_of_bounds(), Cell::out_of_bounds()));
  CHECK_FALSE(cell_equivalent(Cell::out_of_bounds(), Cell::pad(PaddingKind::Bottom)));
}

TEST_CASE("finalize: zeros dropped, overshoot, padding and out-of-bounds fill", "[mapping-eval]") {
  AxisTable t = axes_of({{"A", 4}, {"B", 3}});
  Finalized f = finalize(live({{"A", 0}, {"B", 2}}), PaddingKind::Top, t);
  CHECK(f.kind == Finalized::Kind::Live);
  CHECK(f.index == Index{{"B", 2}});
  f = finalize(live({{"A", 0}}), PaddingKind::Top, t);
  CHECK(f.kind == Finalized::Kind::Live);
  CHECK(f.index.empty());
  // D-5: an overshoot is its own failure, reported on the first axis in name order.
  f = finalize(live({{"A", 4}, {"B", 3}}), PaddingKind::Top, t);
  CHECK(f.kind == Finalized::Kind::Overshoot);
  CHECK(f.overshoot_axis == "A");
  CHECK(f.padding == PaddingKind::Bottom);
  f = finalize(live({{"A", 3}, {"B", 3}}), PaddingKind::Top, t);
  CHECK(f.kind == Finalized::Kind::Overshoot);
  CHECK(f.overshoot_axis == "B");
  f = finalize(Cell::pad(PaddingKind::Zero), PaddingKind::Top, t);
  CHECK(f.kind == Finalized::Kind::Padding);
  CHECK(f.padding == PaddingKind::Zero);
  // OutOfBounds takes the caller's fill: Top for reads, Bottom for writes.
  CHECK(finalize(Cell::out_of_bounds(), PaddingKind::Top, t).padding == PaddingKind::Top);
  CHECK(finalize(Cell::out_of_bounds(), PaddingKind::Bottom, t).padding == PaddingKind::Bottom);
  CHECK(finalize(Cell::out_of_bounds(), PaddingKind::Bottom, t).kind == Finalized::Kind::Padding);
}

TEST_CASE("factories enforce the static rules of §1.3 and D-6/D-7", "[mapping-eval]") {
  Mapping a = Mapping::symbol(Axis{"A", 8});
  CHECK(Mapping::stride(a, 4).ok());
  CHECK(Mapping::stride(a, 4)->size() == 2);
  CHECK_FALSE(Mapping::stride(a, 3).ok());
  CHECK_FALSE(Mapping::stride(a, 0).ok());
  CHECK_FALSE(Mapping::stride(a, 16).ok());
  CHECK(Mapping::modulo(a, 8).ok());
  CHECK_FALSE(Mapping::modulo(a, 3).ok());
  CHECK_FALSE(Mapping::modulo(a, 0).ok());
  CHECK(Mapping::resize(a, 3).ok());
  CHECK(Mapping::resize(a, 8).ok());
  CHECK_FALSE(Mapping::resize(a, 9).ok());
  CHECK_FALSE(Mapping::resize(a, 0).ok());
  CHECK(Mapping::padding(a, 8, PaddingKind::Top).ok());
  CHECK(Mapping::padding(a, 9, PaddingKind::Zero).ok());
  CHECK_FALSE(Mapping::padding(a, 7, PaddingKind::Top).ok());
  CHECK_FALSE(Mapping::padding(a, 0, PaddingKind::Top).ok());
  CHECK_FALSE(Mapping::broadcast(0).ok());
  CHECK(*Mapping::broadcast(1) == Mapping());
  CHECK(Mapping().size() == 1);
  Mapping big = Mapping::symbol(Axis{"X", std::uint64_t{1} << 32});
  auto sq = Mapping::pair(big, big);
  REQUIRE_FALSE(sq.ok());
  CHECK(sq.diagnostics().front().code == "E-TYPE-306");
  auto almost = Mapping::pair(big, Mapping::symbol(Axis{"Y", (std::uint64_t{1} << 32) - 1}));
  CHECK(almost.ok());
  CHECK(Mapping::stride(a, 3).diagnostics().front().code == "E-TYPE-302");
  CHECK(Mapping::modulo(a, 3).diagnostics().front().code == "E-TYPE-303");
  CHECK(Mapping::resize(a, 9).diagnostics().front().code == "E-TYPE-304");
  CHECK(Mapping::padding(a, 7, PaddingKind::Top).diagnostics().front().code == "E-TYPE-305");
  CHECK(Mapping::broadcast(0).diagnostics().front().code == "E-TYPE-301");
}

TEST_CASE("§9 #1-#3: axis, pair, identity", "[mapping-eval]") {
  AxisTable t = axes_of({{"A", 8}, {"B", 512}});
  Mapping a = parse("A", t);
  CHECK(a.size() == 8);
  CHECK(same_index(a.map(0), {{"A", 0}})); // D-4: the zero coordinate is kept structurally
  CHECK(is_oob(a.map(8)));
  Mapping ab = parse("A, B", t);
  CHECK(ab.size() == 4096);
  CHECK(same_index(ab.map(511), {{"A", 0}, {"B", 511}}));
  CHECK(same_index(ab.map(512), {{"A", 1}, {"B", 0}}));
  CHECK(same_index(ab.map(519), {{"A", 1}, {"B", 7}}));
  CHECK(is_oob(ab.map(4096)));
  CHECK(is_oob(ab.map(~std::uint64_t{0})));
  Mapping one = parse("1", t);
  CHECK(one.size() == 1);
  CHECK(same_index(one.map(0), {}));
  CHECK(is_oob(one.map(1)));
}

TEST_CASE("§9 #4-#5: padding and resize", "[mapping-eval]") {
  AxisTable t = axes_of({{"C", 13}, {"D", 61}});
  Mapping m = parse("C, D # 64", t);
  CHECK(m.size() == 13 * 64);
  CHECK(same_index(m.map(60), {{"C", 0}, {"D", 60}}));
  for (std::uint64_t p = 61; p <= 63; ++p) CHECK(is_pad(m.map(p), PaddingKind::Top));
  CHECK(same_index(m.map(64), {{"C", 1}, {"D", 0}}));
  CHECK(is_pad(parse("C, D #{0} 64", t).map(61), PaddingKind::Zero));
  CHECK(is_pad(parse("C, D #{!} 64", t).map(63), PaddingKind::Bottom));
  CHECK(is_pad(parse("C, D #{*} 64", t).map(62), PaddingKind::Top));

  AxisTable t2 = axes_of({{"C", 2}, {"D", 3}});
  Mapping r = parse("C, D = 2", t2);
  CHECK(r.size() == 4);
  CHECK(same_index(r.map(0), {{"C", 0}, {"D", 0}}));
  CHECK(same_index(r.map(1), {{"C", 0}, {"D", 1}}));
  CHECK(same_index(r.map(2), {{"C", 1}, {"D", 0}}));
  CHECK(same_index(r.map(3), {{"C", 1}, {"D", 1}}));
  CHECK(is_oob(r.map(4)));
}

TEST_CASE("§9 #6-#7: stride, modulo and the book's nested example", "[mapping-eval]") {
  AxisTable t = axes_of({{"B", 512}});
  Mapping s = parse("B / 64", t);
  CHECK(s.size() == 8);
  CHECK(is_oob(s.map(8)));
  CHECK(same_index(s.map(3), {{"B", 192}}));
  Mapping m = parse("B % 64", t);
  CHECK(m.size() == 64);
  CHECK(same_index(m.map(63), {{"B", 63}}));
  Mapping sm = parse("B / 64, B % 64", t);
  CHECK(same_index(sm.map(130), {{"B", 130}}));
  CHECK(equivalent_by_map(sm, parse("B", t)));

  Mapping book = parse("B / 64, B % 32, B / 32 % 2", t);
  CHECK(book.size() == 512);
  CHECK(same_index(book.map(67), {{"B", 97}}));
  CHECK(is_oob(book.map(512)));
  // Position 64i + 2j + k reads B = 64i + j + 32k (docs/mapping.md §3).
  for (std::uint64_t i = 0; i < 8; ++i)
    for (std::uint64_t j = 0; j < 32; ++j)
      for (std::uint64_t k = 0; k < 2; ++k)
        CHECK(same_index(book.map(64 * i + 2 * j + k), {{"B", 64 * i + j + 32 * k}}));
}

TEST_CASE("§9 #8-#9: tiled and multi-axis positions", "[mapping-eval]") {
  AxisTable t = axes_of({{"H", 6}, {"W", 8}});
  Mapping m = parse("H / 2, W / 2, H % 2, W % 2", t);
  CHECK(m.size() == 48);
  const std::pair<std::uint64_t, std::uint64_t> want[] = {{0, 0}, {0, 1}, {1, 0}, {1, 1},
                                                          {0, 2}, {0, 3}, {1, 2}, {1, 3}};
  for (std::uint64_t p = 0; p < 8; ++p) {
    Cell c = m.map(p);
    REQUIRE(c.is_live());
    CHECK(coord(c, "H") == want[p].first);
    CHECK(coord(c, "W") == want[p].second);
  }
  AxisTable t2 = axes_of({{"N", 4}, {"C", 64}, {"H", 32}, {"W", 32}});
  CHECK(same_index(parse("C, H, W", t2).map(17509), {{"C", 17}, {"H", 3}, {"W", 5}}));
  CHECK(same_index(parse("N, H, W", t2).map(1125), {{"N", 1}, {"H", 3}, {"W", 5}}));
}

TEST_CASE("§9 #12-#21, #37-#39: equivalences that hold cell by cell", "[mapping-eval]") {
  auto eq = [](const char* a, const char* b, const AxisTable& t) {
    INFO(a << "  vs  " << b);
    CHECK(equivalent_by_map(parse(a, t), parse(b, t)));
  };
  eq("A % 1", "1", axes_of({{"A", 8}}));
  {
    AxisTable t = axes_of({{"R", 5}});
    Mapping m = parse("R # 16 / 4", t);
    CHECK(same_index(m.map(0), {{"R", 0}}));
    CHECK(same_index(m.map(1), {{"R", 4}}));
    CHECK(is_pad(m.map(2), PaddingKind::Top));
    CHECK(is_pad(m.map(3), PaddingKind::Top));
  }
  eq("R # 64 / 8", "1 # 8", axes_of({{"R", 3}}));
  eq("R # 16 / 4, A", "A # 20", axes_of({{"R", 3}, {"A", 5}}));
  eq("R # 64 / 8, A", "A # 40", axes_of({{"R", 3}, {"A", 5}}));
  eq("R # 16 / 4, A", "[[[R # 8] / 4] # 4], A", axes_of({{"R", 5}, {"A", 5}}));
  eq("[A # 16 / 4] / 2", "1 # 2", axes_of({{"A", 5}}));
  {
    // #18: the pieces re-pair to `R # 16` except at position 14, which overshoots in `map`.
    AxisTable t = axes_of({{"R", 14}});
    Mapping m = parse("R # 16 / 4, R # 16 % 4", t);
    CHECK(same_index(m.map(14), {{"R", 14}}));
    CHECK(finalize(m.map(14), PaddingKind::Top, t).kind == Finalized::Kind::Overshoot);
    Mapping r16 = parse("R # 16", t);
    for (std::uint64_t p = 0; p < 14; ++p) CHECK(cell_equivalent(m.map(p), r16.map(p)));
    CHECK(same_index(m.map(15), {{"R", 15}})); // padding in `R # 16`, an overshoot here
    CHECK(is_pad(r16.map(15), PaddingKind::Top));
  }
  {
    AxisTable t = axes_of({{"R", 50}});
    Mapping m = parse("R # 64 / 8", t);
    CHECK(same_index(m.map(0), {{"R", 0}}));
    CHECK(same_index(m.map(1), {{"R", 8}}));
    CHECK(same_index(m.map(6), {{"R", 48}}));
    CHECK(is_pad(m.map(7), PaddingKind::Top));
    eq("R # 64 / 8", "R # 64 / 2 / 4", t);
  }
  {
    AxisTable t = axes_of({{"A", 2}, {"B", 3}});
    Mapping m = parse("[A, B] # 10 / 2", t);
    CHECK(m.size() == 5);
    CHECK(cell_equivalent(m.map(0), Cell::live({})));
    CHECK(cell_equivalent(m.map(1), live({{"B", 2}})));
    CHECK(cell_equivalent(m.map(2), live({{"A", 1}, {"B", 1}})));
    CHECK(is_pad(m.map(3), PaddingKind::Top));
    CHECK(is_pad(m.map(4), PaddingKind::Top));
  }
  eq("1 #{!} 4 #{!} 8", "1 #{!} 8", AxisTable{});
  eq("1 # 4 # 8", "1 # 8", AxisTable{});
  {
    Mapping m = parse("1 #{!} 4 # 8", AxisTable{});
    CHECK(is_pad(m.map(3), PaddingKind::Bottom));
    CHECK(is_pad(m.map(4), PaddingKind::Top));
  }
  eq("A / 2, A % 2", "A", axes_of({{"A", 8}}));
  CHECK_FALSE(equivalent_by_map(parse("A % 2, A / 2", axes_of({{"A", 8}})),
                                parse("A", axes_of({{"A", 8}}))));
  eq("2, 3", "6", AxisTable{});
  CHECK_FALSE(equivalent_by_map(parse("1 # 2", AxisTable{}), parse("2", AxisTable{})));
  eq("[A, B] # 64", "A # 16, B", axes_of({{"A", 3}, {"B", 4}}));
}

TEST_CASE("§3 identities of equivalence hold by map", "[mapping-eval]") {
  AxisTable t = axes_of({{"A", 6}, {"B", 4}});
  const char* es[] = {"A", "A, B", "B # 7", "[A, B] / 3", "A = 5, B % 2", "2, A"};
  for (const char* e : es) {
    INFO(e);
    Mapping m = parse(e, t);
    std::string s = m.to_string();
    CHECK(equivalent_by_map(m, parse("[" + s + "], 1", t)));
    CHECK(equivalent_by_map(m, parse("1, [" + s + "]", t)));
    CHECK(equivalent_by_map(m, parse("[" + s + "] / 1", t)));
    CHECK(equivalent_by_map(m, parse("[" + s + "] # " + std::to_string(m.size()), t)));
    CHECK(equivalent_by_map(m, parse("[" + s + "] = " + std::to_string(m.size()), t)));
    CHECK(equivalent_by_map(parse("[" + s + "] % 1", t), parse("1", t)));
    CHECK(equivalent_by_map(m, parse("[" + s + "] / 1, [" + s + "] % 1", t)));
  }
  // E ≡ [{E} / n, {E} % n] holds cell by cell when the cut n lies on a digit boundary of E.
  for (const char* cut :
       {"A / 2, A % 2", "A / 3, A % 3", "[A, B] / 2, [A, B] % 2", "[A, B] / 4, [A, B] % 4",
        "[A, B] / 8, [A, B] % 8", "[A, B] / 12, [A, B] % 12"}) {
    INFO(cut);
    std::string whole = std::string(cut).substr(0, 1) == "A" ? "A" : "A, B";
    CHECK(equivalent_by_map(parse(cut, t), parse(whole, t)));
  }
  // A ragged cut carries: by `map` the pieces are not the whole (only normal forms agree, §5).
  Mapping ragged = parse("[A, B] / 3, [A, B] % 3", t);
  CHECK(same_index(ragged.map(5), {{"A", 0}, {"B", 5}})); // position 3 + position 2: B overshoots
  Mapping ragged2 = parse("[A = 5, B % 2] / 5, [A = 5, B % 2] % 5", t);
  CHECK(same_index(ragged2.map(6), {{"A", 2}, {"B", 2}})); // in range, yet not {A:3, B:0}
  CHECK(same_index(parse("A = 5, B % 2", t).map(6), {{"A", 3}, {"B", 0}}));
  // [[A, B] / ‖B‖] ≡ A and [[A, B] % ‖B‖] ≡ B; pairing is associative.
  CHECK(equivalent_by_map(parse("[A, B] / 4", t), parse("A", t)));
  CHECK(equivalent_by_map(parse("[A, B] % 4", t), parse("B", t)));
  CHECK(equivalent_by_map(parse("[A, B], 3", t), parse("A, [B, 3]", t)));
}

TEST_CASE("repeated axes add and may overshoot", "[mapping-eval]") {
  AxisTable t = axes_of({{"A", 4}});
  Mapping m = parse("A, A", t);
  CHECK(same_index(m.map(6), {{"A", 1 + 2}}));
  CHECK(same_index(m.map(15), {{"A", 6}}));
  Finalized f = finalize(m.map(15), PaddingKind::Top, t);
  CHECK(f.kind == Finalized::Kind::Overshoot);
  CHECK(f.overshoot_axis == "A");
}

TEST_CASE("axes(): each axis once, first occurrence order", "[mapping-eval]") {
  AxisTable t = axes_of({{"A", 4}, {"B", 8}, {"C", 2}});
  auto v = parse("C, [B / 2, A], B % 2, C", t).axes();
  REQUIRE(v.size() == 3);
  CHECK(v[0].name == "C");
  CHECK(v[1].name == "B");
  CHECK(v[2].name == "A");
  CHECK(parse("1 # 4", t).axes().empty());
}

namespace {
// An independent evaluator: the whole cell table of a node, built bottom-up with array operations
// straight from the §3 table (Pair = outer product with combine, Stride = every s-th cell,
// Modulo/Resize = a prefix, Padding = appended padding cells).
std::vector<Cell> table(const Mapping& m) {
  std::vector<Cell> out;
  switch (m.kind()) {
  case Mapping::Kind::Symbol:
    for (std::uint64_t i = 0; i < m.size(); ++i) out.push_back(Cell::live({{m.axis().name, i}}));
    return out;
  case Mapping::Kind::Broadcast:
    return std::vector<Cell>(m.size(), Cell::live({}));
  case Mapping::Kind::Pair: {
    auto major = table(m.lhs()), minor = table(m.rhs());
    for (const auto& a : major)
      for (const auto& b : minor) out.push_back(combine(a, b));
    return out;
  }
  case Mapping::Kind::Stride: {
    auto x = table(m.lhs());
    for (std::size_t i = 0; i < x.size(); i += m.number()) out.push_back(x[i]);
    return out;
  }
  case Mapping::Kind::Modulo:
  case Mapping::Kind::Resize: {
    auto x = table(m.lhs());
    x.resize(m.number());
    return x;
  }
  case Mapping::Kind::Padding: {
    auto x = table(m.lhs());
    x.resize(m.number(), Cell::pad(m.padding_kind()));
    return x;
  }
  }
  return out;
}
} // namespace

TEST_CASE("map agrees with a bottom-up table evaluator on generated mappings", "[mapping-eval]") {
  testing::MappingGenOptions opts;
  opts.allow_repeat_axis = true; // repeated axes add (and may overshoot) in both evaluators
  opts.max_size = 512;
  testing::MappingGenerator gen(31337, opts);
  for (int n = 0; n < 1500; ++n) {
    auto g = gen.next();
    INFO(g.mapping.to_string());
    auto cells = table(g.mapping);
    REQUIRE(cells.size() == g.mapping.size());
    for (std::uint64_t i = 0; i < cells.size(); ++i) {
      Cell c = g.mapping.map(i);
      bool same = c.kind == cells[i].kind && c.index == cells[i].index &&
                  (c.kind != Cell::Kind::Padding || c.padding == cells[i].padding);
      if (!same) FAIL_CHECK("position " << i);
    }
    CHECK(g.mapping.map(g.mapping.size()).kind == Cell::Kind::OutOfBounds);
  }
}
