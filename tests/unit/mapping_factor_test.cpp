// The canonical factor form (docs/mapping.md §4, §6, §8, §10) on the spec's test vectors (§9):
// normal forms compared structurally (§10 D-2), eval, resize, leaves, rendering,
// remove_padding and padding_per_stride. split_at vectors are in mapping_split_test.cpp.
#include "ir/mapping/factor.h"
#include "ir/mapping/syntax.h"
#include "ir/target/rngd.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <utility>

using namespace tujit;
using namespace tujit::ir;

namespace {

AxisTable axes_of(std::string_view text) {
  auto r = parse_axes_text(text);
  REQUIRE(r.ok());
  return *r;
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

// normalize(E) = factorize(E) (§4.4).
FactorList nf(std::string_view text, const AxisTable& axes) {
  INFO("mapping: " << text);
  return factorize(parse(text, axes));
}

Factor term(const AxisTable& axes, std::string_view name, std::uint64_t s, std::uint64_t c) {
  const Axis* a = axes.find(name);
  REQUIRE(a != nullptr);
  return Factor::term(Atom::sym(*a), s, c);
}
Factor comp(FactorList g, std::uint64_t s, std::uint64_t c) {
  return Factor::term(Atom::composite(std::move(g)), s, c);
}
Factor pad(std::uint64_t t, PaddingKind k = PaddingKind::Top) {
  return Factor::padding(t, k);
}
FactorList list(std::initializer_list<Factor> fs) {
  return FactorList{std::vector<Factor>(fs)};
}

bool live_is(const Cell& c, std::initializer_list<std::pair<const char*, std::uint64_t>> e) {
  if (!c.is_live()) return false;
  Index want;
  for (auto& [n, v] : e) want[n] = v;
  return index_equivalent(c.index, want);
}
bool pad_is(const Cell& c, PaddingKind k) {
  return c.kind == Cell::Kind::Padding && c.padding == k;
}

#define CHECK_NF_EQ(axes, a, b)                                                                    \
  do {                                                                                             \
    const FactorList lhs_ = nf(a, axes), rhs_ = nf(b, axes);                                       \
    INFO(a << " -> " << lhs_.debug_string() << "\n" << b << " -> " << rhs_.debug_string());        \
    CHECK(lhs_ == rhs_);                                                                           \
  } while (0)

} // namespace

TEST_CASE("§9 #12: A % 1 is the identity", "[mapping-factor]") {
  auto ax = axes_of("A=8");
  CHECK_NF_EQ(ax, "A % 1", "1");
  CHECK(nf("A % 1", ax).empty());
}

TEST_CASE("§9 #13: R # 16 / 4 with R = 5 (ragged cut, C4)", "[mapping-factor]") {
  auto ax = axes_of("R=5");
  const FactorList l = nf("R # 16 / 4", ax);
  CHECK_NF_EQ(ax, "R # 16 / 4", "[1 # 2, [R # 8] / 4]");
  // §5 worked example: outer [Term(Comp(R # 8), 4, 2), Pad 4].
  CHECK(l == list({comp(list({term(ax, "R", 1, 5), pad(8)}), 4, 2), pad(4)}));
  CHECK(live_is(eval(l, 0), {{"R", 0}}));
  CHECK(live_is(eval(l, 1), {{"R", 4}}));
  CHECK(pad_is(eval(l, 2), PaddingKind::Top));
  CHECK(pad_is(eval(l, 3), PaddingKind::Top));
  CHECK(eval(l, 4).kind == Cell::Kind::OutOfBounds);
  CHECK(nf("R # 16 % 4", ax) == list({comp(list({term(ax, "R", 1, 5), pad(8)}), 1, 4)}));
}

TEST_CASE("§9 #14: R # 64 / 8 with R = 3 is 1 # 8", "[mapping-factor]") {
  auto ax = axes_of("R=3");
  CHECK_NF_EQ(ax, "R # 64 / 8", "1 # 8");
  const FactorList l = nf("R # 64 / 8", ax);
  CHECK(live_is(eval(l, 0), {}));
  for (std::uint64_t p = 1; p < 8; ++p) CHECK(pad_is(eval(l, p), PaddingKind::Top));
}

TEST_CASE("§9 #15, #16: a ragged stride paired with an axis", "[mapping-factor]") {
  auto ax = axes_of("R=3, A=5");
  CHECK_NF_EQ(ax, "R # 16 / 4, A", "A # 20");
  CHECK_NF_EQ(ax, "R # 64 / 8, A", "A # 40");
  auto ax16 = axes_of("R=5, A=5");
  CHECK_NF_EQ(ax16, "R # 16 / 4, A", "[[[R # 8] / 4] # 4], A");
}

TEST_CASE("§9 #17: [A # 16 / 4] / 2 with A = 5 is 1 # 2", "[mapping-factor]") {
  auto ax = axes_of("A=5");
  CHECK_NF_EQ(ax, "[A # 16 / 4] / 2", "1 # 2");
}

TEST_CASE("§9 #18: the stride/modulo pieces of R # 16 recombine (R = 14)", "[mapping-factor]") {
  auto ax = axes_of("R=14");
  CHECK_NF_EQ(ax, "R # 16 / 4, R # 16 % 4", "R # 16");
  CHECK(nf("R # 16", ax) == list({term(ax, "R", 1, 14), pad(16)}));
  // §5 "Full normalize example": G = [Term(R,2,7), Pad 8].
  const FactorList g = list({term(ax, "R", 2, 7), pad(8)});
  CHECK(nf("R # 16 / 4", ax) == list({comp(g, 2, 4)}));
  CHECK(nf("R # 16 % 4", ax) == list({term(ax, "R", 1, 2), comp(g, 1, 2)}));
  // map(14) overshoots (R: 14) while the normal form holds padding there: §4.2 exception (a).
  const Mapping m = parse("R # 16 / 4, R # 16 % 4", ax);
  const Cell c = m.map(14);
  REQUIRE(c.is_live());
  CHECK(c.index.at("R") == 14);
  CHECK(finalize(c, PaddingKind::Top, ax).kind == Finalized::Kind::Overshoot);
  CHECK(pad_is(eval(nf("R # 16 / 4, R # 16 % 4", ax), 14), PaddingKind::Top));
}

TEST_CASE("§9 #19: R # 64 / 8 with R = 50 (C3 then C4)", "[mapping-factor]") {
  auto ax = axes_of("R=50");
  const FactorList l = nf("R # 64 / 8", ax);
  CHECK(live_is(eval(l, 0), {{"R", 0}}));
  CHECK(live_is(eval(l, 1), {{"R", 8}}));
  CHECK(live_is(eval(l, 6), {{"R", 48}}));
  CHECK(pad_is(eval(l, 7), PaddingKind::Top));
  CHECK_NF_EQ(ax, "R # 64 / 8", "[R / 2 # 32] / 4");
  CHECK_NF_EQ(ax, "R # 64 / 8", "R # 64 / 2 / 4");
  CHECK(l == list({comp(list({term(ax, "R", 2, 25), pad(32)}), 4, 8)}));
  CHECK(render_text(l) == "[R / 2 # 32] / 4");
}

TEST_CASE("§9 #20: [A, B] # 10 / 2 is one composite term", "[mapping-factor]") {
  auto ax = axes_of("A=2, B=3");
  const FactorList l = nf("[A, B] # 10 / 2", ax);
  REQUIRE(l.factors.size() == 1);
  CHECK(l.factors[0].is_term());
  CHECK(l.factors[0].atom.is_composite());
  // §5: Term(Comp([A, B] # 10), 2, 5).
  CHECK(l == list({comp(nf("[A, B] # 10", ax), 2, 5)}));
  CHECK(live_is(eval(l, 0), {}));
  CHECK(live_is(eval(l, 1), {{"B", 2}}));
  CHECK(live_is(eval(l, 2), {{"A", 1}, {"B", 1}}));
  CHECK(pad_is(eval(l, 3), PaddingKind::Top));
  CHECK(pad_is(eval(l, 4), PaddingKind::Top));
}

TEST_CASE("§9 #21: adjacent pads (N2, N3)", "[mapping-factor]") {
  AxisTable none;
  CHECK_NF_EQ(none, "1 #{!} 4 #{!} 8", "1 #{!} 8");
  CHECK_NF_EQ(none, "1 # 4 # 8", "1 # 8");
  CHECK(nf("1 #{!} 4 # 8", none) == list({pad(4, PaddingKind::Bottom), pad(8)}));
  auto ax = axes_of("A=3");
  CHECK_NF_EQ(ax, "A #{!} 4 #{!} 8", "A #{!} 8");
  CHECK(nf("A # 4 #{0} 8", ax) == list({term(ax, "A", 1, 3), pad(4), pad(8, PaddingKind::Zero)}));
  CHECK_NF_EQ(ax, "A # 3", "A"); // N2
}

TEST_CASE("§9 #22 and §6: resize and is_resize_of", "[mapping-factor]") {
  auto ax = axes_of("N=8");
  CHECK(is_resize_of(nf("N", ax), nf("N # 32", ax)));
  CHECK(is_resize_of(nf("N", ax), nf("N # 16", ax)));
  CHECK(is_resize_of(nf("N", ax), nf("N # 8", ax)));
  CHECK(is_resize_of(nf("N # 16", ax), nf("N # 32", ax)));
  CHECK(is_resize_of(nf("N # 8", ax), nf("N # 32", ax)));
  CHECK(is_resize_of(nf("N = 4", ax), nf("N # 16", ax)));
  CHECK_FALSE(is_resize_of(nf("N # 32", ax), nf("N # 16", ax))); // larger
  CHECK_FALSE(is_resize_of(nf("N / 2", ax), nf("N", ax)));       // not a prefix
  // §6 examples.
  CHECK_NF_EQ(ax, "(N # 16) = 4", "N = 4");
  CHECK_NF_EQ(ax, "(N # 16) = 4", "N % 4");
  CHECK_NF_EQ(ax, "N # 32 = 16", "N # 16");
  auto ab = axes_of("A=2, B=3");
  CHECK(nf("[A, B] = 5", ab) == list({comp(nf("A, B", ab), 1, 5)}));
  auto r = resize(nf("N", ax), 9);
  CHECK_FALSE(r.ok());
  CHECK_FALSE(resize(nf("N", ax), 0).ok());
  CHECK(resize(nf("N # 32", ax), 1)->empty());
}

TEST_CASE("§10 D-3: modulo and resize share (atom, stride, count)", "[mapping-factor]") {
  auto ax = axes_of("A=8");
  CHECK_NF_EQ(ax, "A % 4", "A = 4");
  auto a5 = axes_of("A=5");
  // `A # 8 % 4` follows split semantics (a composite piece), `A # 8 = 4` prefix semantics.
  CHECK(nf("A # 8 % 4", a5) == list({comp(nf("A # 8", a5), 1, 4)}));
  CHECK_NF_EQ(a5, "A # 8 = 4", "A % 5 = 4");
  CHECK(nf("A # 8 = 4", a5) == list({term(a5, "A", 1, 4)}));
}

TEST_CASE("§9 #37: digit merge (N4) only for contiguous digits", "[mapping-factor]") {
  auto ax = axes_of("A=8");
  CHECK_NF_EQ(ax, "A / 2, A % 2", "A");
  CHECK(nf("A % 2, A / 2", ax) == list({term(ax, "A", 2, 4), term(ax, "A", 1, 2)}));
  auto bx = axes_of("B=512");
  CHECK_NF_EQ(bx, "B / 64, B % 64", "B"); // §9 #6
}

TEST_CASE("§9 #38: broadcasts (N5) and pads of two kinds", "[mapping-factor]") {
  AxisTable none;
  CHECK_NF_EQ(none, "2, 3", "6");
  CHECK(nf("6", none) == list({Factor::bcast(6)}));
  CHECK(nf("1 # 2, 1 #{!} 3", none) == list({pad(3, PaddingKind::Bottom), pad(6)}));
  CHECK_FALSE(nf("1 # 2", none) == nf("2", none));
}

TEST_CASE("§9 #39: [A, B] # 64 ≡ A # 16, B, padding_per_stride", "[mapping-factor]") {
  auto ax = axes_of("A=3, B=4");
  CHECK_NF_EQ(ax, "[A, B] # 64", "A # 16, B");
  const auto pps = padding_per_stride(nf("[A, B] # 64", ax));
  CHECK(pps == std::map<std::uint64_t, std::uint64_t>{{1, 4}, {4, 16}});
  CHECK(render_text(nf("[A, B] # 64", ax)) == "A # 16, B");
}

TEST_CASE("§9 #58: padding_per_stride", "[mapping-factor]") {
  using PPS = std::map<std::uint64_t, std::uint64_t>;
  auto ax = axes_of("A=4, B=2");
  CHECK(padding_per_stride(nf("A # 8, B", ax)) == PPS{{1, 2}, {2, 8}});
  auto ab = axes_of("A=2, B=3");
  CHECK(padding_per_stride(nf("[A, B] # 10", ab)) == PPS{{1, 10}});
  auto a4 = axes_of("A=4");
  CHECK(padding_per_stride(nf("A, 1 # 8", a4)) == PPS{{1, 8}, {8, 4}});
}

TEST_CASE("§9 #59: byte and flit helpers", "[mapping-factor]") {
  STATIC_REQUIRE(size_in_bytes(16, 32) == 64);
  STATIC_REQUIRE(length_from_bytes(16, 32) == 16);
  STATIC_REQUIRE(align_up(51, 32) == 64);
  STATIC_REQUIRE(!target::is_valid_lane_size(3));
  STATIC_REQUIRE(target::is_valid_lane_size(8));
}

TEST_CASE("§9 #60 and §10 D-8: path dependence of composite pieces", "[mapping-factor]") {
  auto ax = axes_of("G=8, E=5");
  const FactorList l = nf("[G, E] / 2 / 10", ax);
  CHECK(render_text(l) == "[G, E] / 20");
  CHECK_FALSE(l == nf("[G, E] / 20", ax));
  CHECK_NF_EQ(ax, "[G, E] / 20", "G / 4");
  auto db = axes_of("D=6, B=3");
  CHECK_FALSE(nf("[[D, B], B] / 6 / 3", db) == nf("[[D, B], B] / 18", db));
}

TEST_CASE("§9 #36 and §4.6: remove_padding on lists and trees", "[mapping-factor]") {
  auto ax = axes_of("A=4, C=4");
  auto s = split_at(nf("A # 16, C", ax), 4);
  REQUIRE(s.ok());
  CHECK(remove_padding(normalize(s->outer)) == nf("A", ax));
  CHECK(remove_padding(nf("A # 16", ax)) == nf("A", ax));
  // Only the outer run of Pads goes.
  auto a3 = axes_of("A=3, C=4");
  CHECK(remove_padding(nf("A # 4 #{0} 8, C", a3)) == nf("A, C", a3));
  CHECK(remove_padding(nf("C, A # 4 #{0} 8", a3)) == nf("C, A # 4 #{0} 8", a3));
  CHECK(remove_padding(nf("[C, A] # 16 #{0} 32 # 64", a3)) == nf("C, A", a3));
  // The tree form (§4.6, [REF]).
  CHECK(remove_padding(parse("A # 16", ax)) == parse("A", ax));
  CHECK(remove_padding(parse("1 # 4, C", ax)) == parse("C", ax));
  CHECK(remove_padding(parse("A # 8, C # 8", ax)) == parse("A, C # 8", ax));
  CHECK(remove_padding(parse("A / 2", ax)) == parse("A / 2", ax));
}

TEST_CASE("§4.5: axis leaves", "[mapping-factor]") {
  auto ax = axes_of("A=2, B=2, C=2, D=2");
  const FactorList l = nf("A, B # 4, [C, D] # 8", ax);
  CHECK(l == list({term(ax, "D", 1, 2), term(ax, "C", 1, 2), pad(8), term(ax, "B", 1, 2), pad(32),
                   term(ax, "A", 1, 2)}));
  const auto ls = leaves(l);
  REQUIRE(ls.size() == 4);
  CHECK((ls[0].stride == 1 && ls[0].extent == 2 && ls[0].live == 2 && !ls[0].group));
  CHECK((ls[1].stride == 2 && ls[1].extent == 4 && ls[1].live == 2 && !ls[1].group));
  CHECK((ls[2].stride == 8 && ls[2].extent == 4 && ls[2].live == 2));
  CHECK((ls[3].stride == 32 && ls[3].extent == 2));
  CHECK(render_text(l) == "A, B # 4, C # 4, D");

  auto ab = axes_of("A=2, B=3");
  const auto g = leaves(nf("[A, B] # 10", ab));
  REQUIRE(g.size() == 1);
  CHECK((g[0].group && g[0].stride == 1 && g[0].extent == 10 && g[0].live == 6));
  CHECK(render_text(nf("[A, B] # 10", ab)) == "[A, B] # 10");

  AxisTable none;
  const auto p = leaves(nf("1 #{!} 3 # 6", none));
  REQUIRE(p.size() == 1);
  CHECK((p[0].pure_padding && p[0].stride == 1 && p[0].extent == 6 && p[0].live == 1));
}

TEST_CASE("§4.6: rendering examples", "[mapping-factor]") {
  auto a8 = axes_of("A=8");
  auto s = split_at(nf("A # 16", a8), 4);
  REQUIRE(s.ok());
  CHECK(render_text(s->outer) == "A / 4 # 4");
  CHECK(render(s->outer) == parse("A / 4 # 4", a8));
  auto ra = axes_of("R=5, A=5");
  const FactorList l = nf("[R # 16 / 4, A]", ra);
  CHECK(render_text(l) == "[R # 8] / 4 # 4, A");
  CHECK(render(l) == parse("[R # 8] / 4 # 4, A", ra));
  // Operator choices (§4.6): `% c` when c | n/s, `= c` otherwise, `= s·c / s` when s ∤ n.
  auto a12 = axes_of("A=12");
  CHECK(render_text(nf("A / 2 % 3", a12)) == "A / 2 % 3");
  CHECK(render_text(nf("A / 2 = 4", a12)) == "A / 2 = 4");
  CHECK(render_text(nf("A = 10 / 5", a12)) == "A = 10 / 5");
  CHECK(render_text(nf("A = 5", a12)) == "A = 5");
  CHECK(render_text(nf("A #{0} 16, 3, 1 #{!} 2", a12)) == "A #{0} 16, 3, 1 #{!} 2");
  CHECK(render_text(FactorList{}) == "1");
  CHECK(render(FactorList{}) == Mapping());
}

TEST_CASE("§4.2 eval: composites are resolved from their summed value", "[mapping-factor]") {
  // X = R # 8 % 4 (R = 5) is Term(Comp(R # 8), 1, 4); X, X, X reads the composite three times
  // and eval adds the three digits before resolving G = R # 8 (§4.2, D-9).
  auto ax = axes_of("R=5");
  const Mapping m = parse("[R # 8 % 4], [R # 8 % 4], [R # 8 % 4]", ax);
  const FactorList l = factorize(m);
  const FactorList g = nf("R # 8", ax);
  CHECK(l == list({comp(g, 1, 4), comp(g, 1, 4), comp(g, 1, 4)}));
  // p = 16i + 4j + k → v = i + j + k.
  CHECK(live_is(eval(l, 16 + 4 + 1), {{"R", 3}}));
  // v = 6: inside G's padding, while map overshoots (R: 6): exception (a).
  CHECK(pad_is(eval(l, 32 + 8 + 2), PaddingKind::Top));
  CHECK(finalize(m.map(32 + 8 + 2), PaddingKind::Top, ax).kind == Finalized::Kind::Overshoot);
  // v = 9 >= SIZE(G) = 8: an overshoot, as map's (R: 9).
  CHECK(finalize(eval(l, 63), PaddingKind::Top, ax).kind == Finalized::Kind::Overshoot);
  CHECK(finalize(m.map(63), PaddingKind::Top, ax).kind == Finalized::Kind::Overshoot);
  // Two digits of the composite R # 8 (strides 4 and 1): live cells agree with map.
  const FactorList pieces = nf("[R # 16 / 4] % 2, R # 16 % 4", ax);
  const Mapping nm = parse("[R # 16 / 4] % 2, R # 16 % 4", ax);
  for (std::uint64_t p = 0; p < nm.size(); ++p) {
    const Finalized want = finalize(nm.map(p), PaddingKind::Top, ax);
    const Finalized got = finalize(eval(pieces, p), PaddingKind::Top, ax);
    INFO("position " << p);
    if (want.kind == Finalized::Kind::Overshoot) {
      // §4.2 (a): padding of a composite may stand where map overshoots (R: 4 + j, j >= 1).
      CHECK(p >= 5);
      CHECK(got.kind == Finalized::Kind::Padding);
    } else {
      CHECK(got.kind == want.kind);
      CHECK(got.index == want.index);
    }
  }
}
