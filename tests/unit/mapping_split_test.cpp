// split_at (docs/mapping.md §5, cases C1–C4) on the §9 vectors #23–#35 and the §5 worked
// examples. Expected halves are written as mapping text and compared as normal forms (§10 D-2).
#include "ir/mapping/factor.h"
#include "ir/mapping/syntax.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>

using namespace tujit;
using namespace tujit::ir;

namespace {

AxisTable axes_of(std::string_view text) {
  auto r = parse_axes_text(text);
  REQUIRE(r.ok());
  return *r;
}

FactorList nf(std::string_view text, const AxisTable& axes) {
  auto r = parse_mapping_text(text, axes);
  if (!r) {
    SourceBuffer src("<mapping>", std::string(text));
    FAIL_CHECK(render(r.diagnostics().front(), &src));
  }
  REQUIRE(r.ok());
  return factorize(*r);
}

Factor term(const AxisTable& axes, std::string_view name, std::uint64_t s, std::uint64_t c) {
  const Axis* a = axes.find(name);
  REQUIRE(a != nullptr);
  return Factor::term(Atom::sym(*a), s, c);
}
Factor comp(FactorList g, std::uint64_t s, std::uint64_t c) {
  return Factor::term(Atom::composite(std::move(g)), s, c);
}
FactorList list(std::initializer_list<Factor> fs) {
  return FactorList{std::vector<Factor>(fs)};
}

// split_at(L, n) must give exactly the expected normal forms, and satisfy §5's post-conditions.
void check_split(const AxisTable& ax, std::string_view l_text, std::uint64_t n,
                 std::string_view outer_text, std::string_view inner_text) {
  INFO("split_at(" << l_text << ", " << n << ")");
  const FactorList l = nf(l_text, ax);
  auto s = split_at(l, n);
  REQUIRE(s.ok());
  const FactorList want_outer = nf(outer_text, ax), want_inner = nf(inner_text, ax);
  INFO("outer " << s->outer.debug_string() << " want " << want_outer.debug_string());
  INFO("inner " << s->inner.debug_string() << " want " << want_inner.debug_string());
  CHECK(s->outer == want_outer);
  CHECK(s->inner == want_inner);
  CHECK(s->inner.size() == n);
  CHECK(s->outer.size() == l.size() / n);
  CHECK(pair(s->outer, s->inner) == l);
}

} // namespace

TEST_CASE("§9 #23: split_at(A # 4, B # 4, 8) (C2 above a pad)", "[mapping-factor]") {
  check_split(axes_of("A=2, B=2"), "A # 4, B # 4", 8, "1 # 2", "A, B # 4");
}

TEST_CASE("§9 #24: split_at(A # 4, B, C, 8)", "[mapping-factor]") {
  check_split(axes_of("A=2, B=2, C=2"), "A # 4, B, C", 8, "1 # 2", "A, B, C");
}

TEST_CASE("§9 #25: split_at inside a pad run (C1)", "[mapping-factor]") {
  check_split(axes_of("A=2, B=2, C=2, D=2"), "A # 4, B # 4, C # 16, D # 4", 16,
              "A # 4, B # 4, 1 # 4", "C # 4, D # 4");
}

TEST_CASE("§9 #26: a ragged cut with no pad above makes one composite (C4)", "[mapping-factor]") {
  auto ax = axes_of("A=4, B=4");
  check_split(ax, "B, A # 9", 4, "[B, A # 9] / 4", "[B, A # 9] % 4");
  auto s = split_at(nf("B, A # 9", ax), 4);
  REQUIRE(s.ok());
  const FactorList g = nf("B, A # 9", ax);
  CHECK(s->outer == list({comp(g, 4, 9)}));
  CHECK(s->inner == list({comp(g, 1, 4)}));
}

TEST_CASE("§9 #27: split_at needs n | SIZE", "[mapping-factor]") {
  auto ax = axes_of("A=6");
  auto s = split_at(nf("A # 9", ax), 4);
  REQUIRE_FALSE(s.ok());
  CHECK(s.diagnostics().front().message.find("not divisible") != std::string::npos);
  CHECK_FALSE(split_at(nf("A # 9", ax), 0).ok());
}

TEST_CASE("§9 #28: split_at(A # 16, 4) with A = 8 (C2 under a pad)", "[mapping-factor]") {
  auto ax = axes_of("A=8");
  check_split(ax, "A # 16", 4, "1 # 2, A / 4 % 2", "A % 4");
}

TEST_CASE("§9 #29: split_at(A, B # 4, [C, D] # 8, 16)", "[mapping-factor]") {
  check_split(axes_of("A=2, B=2, C=2, D=2"), "A, B # 4, [C, D] # 8", 16, "A, 1 # 2",
              "B, 1 # 2, C, D");
}

TEST_CASE("§9 #30: split_at(A # 16, 4) with A = 3 (C1)", "[mapping-factor]") {
  check_split(axes_of("A=3"), "A # 16", 4, "1 # 4", "A # 4");
}

TEST_CASE("§9 #31: split_at(1 # 64, 8)", "[mapping-factor]") {
  AxisTable none;
  check_split(none, "1 # 64", 8, "1 # 8", "1 # 8");
  auto s = split_at(nf("1 # 64", none), 8);
  REQUIRE(s.ok());
  CHECK(pair(s->outer, s->inner) == nf("1 # 64", none));
}

TEST_CASE("§9 #32: the modulo piece shares its stride partner's atom", "[mapping-factor]") {
  auto ax = axes_of("R=19, A=2");
  check_split(ax, "R # 24 % 4, A", 4, "R # 24 / 2 % 2", "R # 24 % 2, A");
  auto s = split_at(nf("R # 24 % 4, A", ax), 4);
  REQUIRE(s.ok());
  CHECK(pair(nf("R # 24 / 4", ax), s->outer) == nf("R # 24 / 4, R # 24 / 2 % 2", ax));
  // Both pieces are digits of the one composite R # 24 (minimal aligned period 24).
  const FactorList g = nf("R # 24", ax);
  CHECK(s->outer == list({comp(g, 2, 2)}));
  CHECK(s->inner == list({term(ax, "A", 1, 2), comp(g, 1, 2)}));
}

TEST_CASE("§9 #33: collect i8 split of B # 64 at 32 (C3 then C4)", "[mapping-factor]") {
  auto ax = axes_of("A=8, B=56");
  check_split(ax, "B # 64", 32, "B # 64 / 32", "B # 64 % 32");
  check_split(ax, "B # 64", 32, "[B / 8 # 8] / 4", "[B / 8 # 8] % 4, B % 8");
  auto s = split_at(nf("B # 64", ax), 32);
  REQUIRE(s.ok());
  CHECK(render_text(s->outer) == "[B / 8 # 8] / 4");
  CHECK(render_text(s->inner) == "[B / 8 # 8] % 4, B % 8");
}

TEST_CASE("§9 #34: to_trf bf16 split", "[mapping-factor]") {
  auto ax = axes_of("N=8, K=32");
  check_split(ax, "N, K / 16", 2, "N", "K / 16");
  CHECK(nf("K / 16, K % 16", ax) == nf("K", ax));
}

TEST_CASE("§9 #35: split_at(A, D / 2, 4)", "[mapping-factor]") {
  check_split(axes_of("A=4, D=32"), "A, D / 2", 4, "A, D / 8", "D / 2 % 4");
}

TEST_CASE("§5 worked examples", "[mapping-factor]") {
  // R # 16, R = 5, n = 4: C4 with d = 8.
  auto r5 = axes_of("R=5");
  check_split(r5, "R # 16", 4, "[1 # 2, [R # 8] / 4]", "[R # 8] % 4");
  // R # 64, R = 50, n = 8: C3 (g = 2) then C4.
  auto r50 = axes_of("R=50");
  check_split(r50, "R # 64", 8, "[R / 2 # 32] / 4", "[R / 2 # 32] % 4, R % 2");
  // [[A, B] # 10] / 2: the pad above the ragged A digit joins the block (d = 10).
  auto ab = axes_of("A=2, B=3");
  auto s = split_at(nf("[A, B] # 10", ab), 2);
  REQUIRE(s.ok());
  CHECK(s->outer == list({comp(nf("[A, B] # 10", ab), 2, 5)}));
  // n = 1 is the identity split.
  auto one = split_at(nf("[A, B] # 10", ab), 1);
  REQUIRE(one.ok());
  CHECK(one->outer == nf("[A, B] # 10", ab));
  CHECK(one->inner.empty());
  // A pad run whose minimal aligned period is an inner total: R # 8 # 16 split at 4 keeps the
  // outer Pad outside the composite (d = 8, outside = [Pad 4]).
  auto r5b = axes_of("R=5");
  auto t = split_at(nf("R #{0} 8 # 16", r5b), 4);
  REQUIRE(t.ok());
  const FactorList g = nf("R #{0} 8", r5b);
  CHECK(t->outer == list({comp(g, 4, 2), Factor::padding(4, PaddingKind::Top)}));
  CHECK(t->inner == list({comp(g, 1, 4)}));
}

TEST_CASE("§5 C4: the minimal aligned period over a run of pads", "[mapping-factor]") {
  auto ax = axes_of("R=5");
  const Factor r = term(ax, "R", 1, 5);
  // The cut falls at the Pad 6 (a = 5, gcd(2, 5) = 1: C4); the run is [Pad 6 zero, Pad 16 top],
  // live 5. d = 6 fails (6 ∤ 16), d = 8 divides 16: G closes at 8 with the kind of the first
  // run pad >= 8 (top), keeps Pad 6, and Pad 16 stays outside as 16/2.
  {
    auto s = split_at(nf("R #{0} 6 # 16", ax), 2);
    REQUIRE(s.ok());
    const FactorList g =
        list({r, Factor::padding(6, PaddingKind::Zero), Factor::padding(8, PaddingKind::Top)});
    CHECK(s->outer == list({comp(g, 2, 4), Factor::padding(8, PaddingKind::Top)}));
    CHECK(s->inner == list({comp(g, 1, 2)}));
  }
  // Run [Pad 12 zero, Pad 24 top], n = 2: d = 6 < 12 divides both; G = [R, Pad(6, zero)] and
  // both run pads stay outside.
  {
    auto s = split_at(nf("R #{0} 12 # 24", ax), 2);
    REQUIRE(s.ok());
    const FactorList g = list({r, Factor::padding(6, PaddingKind::Zero)});
    CHECK(s->outer == list({comp(g, 2, 3), Factor::padding(6, PaddingKind::Zero),
                            Factor::padding(12, PaddingKind::Top)}));
    CHECK(s->inner == list({comp(g, 1, 2)}));
  }
  // Pad 20 at a = 12: gcd(4, 12) = 4 = n divides a, so it lies above; the cut is at Pad 12
  // (a = 5, C4) with run totals 12 and 20: 8 ∤ 12, 12 ∤ 20, 16 ∤ 20, so d = 20.
  {
    auto s = split_at(nf("R #{0} 12 # 20", ax), 4);
    REQUIRE(s.ok());
    const FactorList g = nf("R #{0} 12 # 20", ax);
    CHECK(s->outer == list({comp(g, 4, 5)}));
    CHECK(s->inner == list({comp(g, 1, 4)}));
  }
}
