// Property tests of the canonical factor form (docs/mapping.md §3, §4.2, §4.4, §5, §6) over
// random valid expressions from tests/support/mapping_gen.h, with fixed seeds. The expected side
// is always computed independently: Mapping::map by brute force over every position, or an
// algebraic identity of §3.
#include "ir/mapping/factor.h"
#include "ir/mapping/syntax.h"
#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <random>
#include <set>
#include <sstream>

using namespace tujit;
using namespace tujit::ir;
using tujit::testing::GeneratedMapping;
using tujit::testing::MappingGenerator;
using tujit::testing::MappingGenOptions;

namespace {

constexpr std::uint64_t kSeed = 0x7a6a17f0c7ULL;
constexpr int kExpressions = 3000;

// The run of generated expressions every property uses: half without repeated axes (the
// generator's default), half with an axis named twice (contributions add, may overshoot).
void for_each_generated(std::uint64_t seed, int count,
                        const std::function<void(const GeneratedMapping&)>& body,
                        MappingGenOptions base = {}) {
  MappingGenOptions repeat = base;
  repeat.allow_repeat_axis = true;
  MappingGenerator plain(seed, base), repeated(seed ^ 0x5bd1e995ULL, repeat);
  for (int i = 0; i < count; ++i) body(i % 2 == 0 ? plain.next() : repeated.next());
}

std::set<PaddingKind> padding_kinds(const Mapping& m) {
  std::set<PaddingKind> out;
  std::function<void(const Mapping&)> walk = [&](const Mapping& x) {
    switch (x.kind()) {
    case Mapping::Kind::Symbol:
    case Mapping::Kind::Broadcast:
      return;
    case Mapping::Kind::Pair:
      walk(x.lhs());
      walk(x.rhs());
      return;
    case Mapping::Kind::Padding:
      out.insert(x.padding_kind());
      [[fallthrough]];
    default:
      walk(x.lhs());
    }
  };
  walk(m);
  return out;
}

// Padding kinds a list holds, composite atoms included.
void list_padding_kinds(const FactorList& l, std::set<PaddingKind>& out) {
  for (const Factor& f : l.factors) {
    if (f.is_pad()) out.insert(f.pad);
    if (f.is_term() && f.atom.is_composite()) list_padding_kinds(*f.atom.comp, out);
  }
}
bool kinds_compete(const FactorList& l) {
  std::set<PaddingKind> kinds;
  list_padding_kinds(l, kinds);
  return kinds.size() >= 2;
}

bool has_composite(const FactorList& l) {
  for (const Factor& f : l.factors)
    if (f.is_term() && f.atom.is_composite()) return true;
  return false;
}

std::string describe(const Finalized& f) {
  std::ostringstream os;
  switch (f.kind) {
  case Finalized::Kind::Live:
    os << "{";
    for (const auto& [k, v] : f.index) os << k << ":" << v << " ";
    os << "}";
    break;
  case Finalized::Kind::Padding:
    os << "Pad(" << to_string(f.padding) << ")";
    break;
  case Finalized::Kind::Overshoot:
    os << "overshoot(" << f.overshoot_axis << ")";
    break;
  }
  return os.str();
}

// docs/mapping.md §4.2: finalize(eval(factorize(E), i)) = finalize(E.map(i)), except (a) where
// E.map(i) overshoots eval may give padding, and (b) the padding kind when several kinds compete
// (only possible when E uses two or more kinds). Two overshoots agree whatever axis each names
// first: the axis is diagnostic detail, the cell is not live either way.
bool agrees(const Finalized& got, const Finalized& want, bool kinds_compete) {
  if (got.kind == want.kind) {
    switch (got.kind) {
    case Finalized::Kind::Live:
      return got.index == want.index;
    case Finalized::Kind::Padding:
      return got.padding == want.padding || kinds_compete;
    case Finalized::Kind::Overshoot:
      return true;
    }
  }
  return want.kind == Finalized::Kind::Overshoot && got.kind == Finalized::Kind::Padding; // (a)
}

// The first position where the list disagrees with the expression, or "" when none does.
std::string first_disagreement(const GeneratedMapping& g, const FactorList& l) {
  const bool compete = padding_kinds(g.mapping).size() >= 2;
  const std::uint64_t size = g.mapping.size();
  for (std::uint64_t p = 0; p < size; ++p) {
    const Finalized want = finalize(g.mapping.map(p), PaddingKind::Top, g.axes);
    const Finalized got = finalize(eval(l, p), PaddingKind::Top, g.axes);
    if (!agrees(got, want, compete))
      return "position " + std::to_string(p) + ": map " + describe(want) + ", eval " +
             describe(got);
  }
  return "";
}

// The first position p < n where `part` does not hold the cell `whole` holds, or "".
std::string first_prefix_disagreement(const FactorList& whole, const FactorList& part,
                                      std::uint64_t n, const AxisTable& axes, bool compete) {
  for (std::uint64_t p = 0; p < n; ++p) {
    const Finalized want = finalize(eval(whole, p), PaddingKind::Top, axes);
    const Finalized got = finalize(eval(part, p), PaddingKind::Top, axes);
    if (got.kind != want.kind || !agrees(got, want, compete))
      return "position " + std::to_string(p) + ": whole " + describe(want) + ", part " +
             describe(got);
  }
  return "";
}

std::vector<std::uint64_t> divisors(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d <= n / d; ++d) {
    if (n % d) continue;
    out.push_back(d);
    if (d != n / d) out.push_back(n / d);
  }
  return out;
}

std::string context(const GeneratedMapping& g) {
  std::string s = "axes:";
  for (const Axis& a : g.axes.axes()) s += " " + a.name + "=" + std::to_string(a.size);
  return s + "\nmapping: " + g.mapping.to_string();
}

} // namespace

TEST_CASE("factor property: normalize is idempotent and factorize keeps SIZE", "[mapping-factor]") {
  const std::uint64_t errors_before = factor_internal_errors();
  int checked = 0;
  for_each_generated(kSeed, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    INFO(context(g) << "\nnormal form: " << l.debug_string());
    REQUIRE(l.size() == g.mapping.size());
    REQUIRE(normalize(l) == l);
    // Also on a list that needs rewriting: the list followed by itself, un-normalized.
    const std::uint64_t size = l.size();
    if (size > 0 && size <= (1ULL << 32)) {
      FactorList raw = l;
      for (Factor f : l.factors) {
        if (f.is_pad()) f.total *= size;
        raw.factors.push_back(std::move(f));
      }
      const FactorList once = normalize(raw);
      REQUIRE(once.size() == size * size);
      REQUIRE(normalize(once) == once);
      REQUIRE(once == pair(l, l));
    }
    ++checked;
  });
  CHECK(checked == kExpressions);
  CHECK(factor_internal_errors() == errors_before);
}

TEST_CASE("factor property: factorize preserves map up to §4.2 (a), (b)", "[mapping-factor]") {
  int checked = 0;
  for_each_generated(kSeed + 1, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    INFO(context(g) << "\nnormal form: " << l.debug_string());
    CHECK(first_disagreement(g, l) == "");
    ++checked;
  });
  CHECK(checked == kExpressions);
}

// §4.2's additive resolution of composite atoms (raw[atom] += d·s, then eval(G, v) on the sum)
// is exact only when the summed value does not carry across a ragged digit of G. The same
// composite read by two independent digits breaks the property the spec claims for "every
// expression": reported as a spec problem. Expected values derived by hand from §3 and §4.2.
TEST_CASE("factor property: §4.2 counterexample with a repeated composite", "[mapping-factor]") {
  auto axes = parse_axes_text("A=4, B=3");
  REQUIRE(axes.ok());
  auto m = parse_mapping_text("[[B, A % 2] = 5], [[B, A % 2] = 5]", *axes);
  REQUIRE(m.ok());
  const FactorList l = factorize(*m);
  // X = [B, A % 2] = 5 is Term(Comp G, 1, 5) with G = [Term(A,1,2), Term(B,1,3)] (§6); X, X
  // pairs two digits of the same composite.
  FactorList g{
      {Factor::term(Atom::sym(Axis{"A", 4}), 1, 2), Factor::term(Atom::sym(Axis{"B", 3}), 1, 3)}};
  const Atom x = Atom::composite(g);
  CHECK(l == FactorList{{Factor::term(x, 1, 5), Factor::term(x, 1, 5)}});
  // Position 6 = 5·1 + 1: map adds X.map(1) = {A:1} twice → {A:2} (live, A = 4).
  const Finalized want = finalize(m->map(6), PaddingKind::Top, *axes);
  CHECK(want.kind == Finalized::Kind::Live);
  CHECK(want.index == Index{{"A", 2}});
  // eval sums the composite first: G at 1 + 1 = 2 → {B: 1}.
  const Finalized got = finalize(eval(l, 6), PaddingKind::Top, *axes);
  CHECK(got.kind == Finalized::Kind::Live);
  CHECK(got.index == Index{{"B", 1}});
}

TEST_CASE("factor property: [E / n, E % n] ≡ E for every divisor n of SIZE", "[mapping-factor]") {
  int checked = 0;
  for_each_generated(kSeed + 2, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    for (std::uint64_t n : divisors(g.mapping.size())) {
      INFO(context(g) << "\nn = " << n << "\nnormal form: " << l.debug_string());
      auto e = Mapping::pair(*Mapping::stride(g.mapping, n), *Mapping::modulo(g.mapping, n));
      REQUIRE(e.ok());
      const FactorList back = factorize(*e);
      INFO("pieces: " << back.debug_string());
      REQUIRE(back == l);
    }
    ++checked;
  });
  CHECK(checked == kExpressions);
}

TEST_CASE("factor property: split_at recomposes and reads the right positions",
          "[mapping-factor]") {
  int checked = 0;
  std::mt19937_64 rng(kSeed + 3);
  for_each_generated(kSeed + 3, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    const bool compete = kinds_compete(l);
    const std::uint64_t size = l.size();
    std::vector<std::uint64_t> ds = divisors(size);
    std::shuffle(ds.begin(), ds.end(), rng);
    ds.resize(std::min<std::size_t>(ds.size(), 4));
    for (std::uint64_t n : ds) {
      INFO(context(g) << "\nn = " << n << "\nnormal form: " << l.debug_string());
      auto s = split_at(l, n);
      REQUIRE(s.ok());
      INFO("outer " << s->outer.debug_string() << "\ninner " << s->inner.debug_string());
      REQUIRE(s->inner.size() == n);
      REQUIRE(s->outer.size() == size / n);
      REQUIRE(normalize(s->outer) == s->outer);
      REQUIRE(normalize(s->inner) == s->inner);
      REQUIRE(pair(s->outer, s->inner) == l);
      // Modulo(L, n) reads positions 0..n-1 of L. Where Pads of two kinds cover one
      // position, which one eval meets first depends on the list's shape (§10 D-9, §4.2 (b)).
      REQUIRE(first_prefix_disagreement(l, s->inner, n, g.axes, compete) == "");
    }
    ++checked;
  });
  CHECK(checked == kExpressions);
}

TEST_CASE("factor property: resize(L, r) reads the first r cells of L", "[mapping-factor]") {
  int checked = 0;
  std::mt19937_64 rng(kSeed + 4);
  for_each_generated(kSeed + 4, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    const bool compete = kinds_compete(l);
    const std::uint64_t size = l.size();
    for (int k = 0; k < 3; ++k) {
      const std::uint64_t r = std::uniform_int_distribution<std::uint64_t>(1, size)(rng);
      INFO(context(g) << "\nr = " << r << "\nnormal form: " << l.debug_string());
      auto x = resize(l, r);
      REQUIRE(x.ok());
      INFO("resized " << x->debug_string());
      REQUIRE(x->size() == r);
      REQUIRE(normalize(*x) == *x);
      REQUIRE(is_resize_of(*x, l));
      // The expression `E = r` factorizes to the same list.
      REQUIRE(factorize(*Mapping::resize(g.mapping, r)) == *x);
      REQUIRE(first_prefix_disagreement(l, *x, r, g.axes, compete) == ""); // as for split_at
    }
    ++checked;
  });
  CHECK(checked == kExpressions);
}

TEST_CASE("factor property: rendering re-parses to the same normal form", "[mapping-factor]") {
  int checked = 0;
  for_each_generated(kSeed + 5, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    if (has_composite(l)) return; // §4.6: the round trip is promised without composite atoms
    const std::string text = render_text(l);
    INFO(context(g) << "\nnormal form: " << l.debug_string() << "\nrendered: " << text);
    auto back = parse_mapping_text(text, g.axes);
    REQUIRE(back.ok());
    REQUIRE(factorize(*back) == l);
    REQUIRE(factorize(render(l)) == l);
    REQUIRE(render(l) == *back);
    ++checked;
  });
  CHECK(checked >= kExpressions / 2);
}

TEST_CASE("factor property: remove_padding deletes exactly the outer pad run", "[mapping-factor]") {
  int checked = 0;
  for_each_generated(kSeed + 6, kExpressions, [&](const GeneratedMapping& g) {
    const FactorList l = factorize(g.mapping);
    const FactorList r = remove_padding(l);
    INFO(context(g) << "\nnormal form: " << l.debug_string() << "\nresult: " << r.debug_string());
    REQUIRE(r.factors.size() <= l.factors.size());
    for (std::size_t i = 0; i < r.factors.size(); ++i) REQUIRE(r.factors[i] == l.factors[i]);
    for (std::size_t i = r.factors.size(); i < l.factors.size(); ++i)
      REQUIRE(l.factors[i].is_pad());
    REQUIRE((r.empty() || !r.factors.back().is_pad()));
    REQUIRE(normalize(r) == r);
    ++checked;
  });
  CHECK(checked == kExpressions);
}

TEST_CASE("factor property: the §3 equivalence identities are equalities of normal forms",
          "[mapping-factor]") {
  int checked = 0;
  MappingGenerator more(kSeed + 8);
  for_each_generated(kSeed + 7, kExpressions, [&](const GeneratedMapping& g) {
    const Mapping& e = g.mapping;
    const FactorList l = factorize(e);
    const std::uint64_t size = e.size();
    INFO(context(g) << "\nnormal form: " << l.debug_string());
    const Mapping one;
    REQUIRE(factorize(*Mapping::pair(e, one)) == l);                        // E ≡ [{E}, 1]
    REQUIRE(factorize(*Mapping::pair(one, e)) == l);                        // E ≡ [1, {E}]
    REQUIRE(factorize(*Mapping::stride(e, 1)) == l);                        // E / 1
    REQUIRE(factorize(*Mapping::padding(e, size, PaddingKind::Zero)) == l); // E # SIZE
    REQUIRE(factorize(*Mapping::resize(e, size)) == l);                     // E = SIZE
    REQUIRE(factorize(*Mapping::modulo(e, 1)).empty());                     // E % 1 ≡ 1
    // Pairing is associative; [[A, B] / ‖B‖] ≡ A and [[A, B] % ‖B‖] ≡ B.
    const Mapping b = more.next_over(g.axes);
    const Mapping c = more.next_over(g.axes);
    if (size <= (1ULL << 40) / b.size() / c.size()) {
      INFO("B = " << b.to_string() << "\nC = " << c.to_string());
      const Mapping ab = *Mapping::pair(e, b);
      REQUIRE(factorize(*Mapping::pair(ab, c)) ==
              factorize(*Mapping::pair(e, *Mapping::pair(b, c))));
      REQUIRE(factorize(*Mapping::stride(ab, b.size())) == l);
      REQUIRE(factorize(*Mapping::modulo(ab, b.size())) == factorize(b));
    }
    ++checked;
  });
  CHECK(checked == kExpressions);
}

namespace {

// Random valid trees whose sizes reach the u64 limit (the generator above keeps SIZE small for
// brute force). Axis sizes are products of known factors so that divisors for `/` and `%` are
// at hand; pads add ragged totals (near-primes included).
class HugeBuilder {
public:
  explicit HugeBuilder(std::uint64_t seed) : rng_(seed) {
    static constexpr std::array<std::uint64_t, 8> sizes = {
        1ULL << 63,
        3ULL << 61,
        2305843009213693951ULL /* 2^61 - 1, prime */,
        4294967291ULL * 2147483647ULL /* two primes */,
        1ULL << 32,
        6ULL,
        50ULL,
        1000000007ULL};
    const char* names[] = {"A", "B", "C", "D", "R", "L1", "W_2", "N"};
    for (std::size_t i = 0; i < sizes.size(); ++i) axes_.add(Axis{names[i], sizes[i]});
  }
  const AxisTable& axes() const { return axes_; }

  Mapping gen(int depth) {
    if (depth == 0 || pick(5) == 0) return leaf();
    Mapping x = gen(depth - 1);
    const std::uint64_t s = x.size();
    switch (pick(5)) {
    case 0: {
      Mapping y = gen(depth - 1);
      if (y.size() != 0 && s <= UINT64_MAX / y.size())
        return pick(2) ? *Mapping::pair(x, y) : *Mapping::pair(y, x);
      return x;
    }
    case 1:
      return *Mapping::stride(x, divisor(s));
    case 2:
      return *Mapping::modulo(x, divisor(s));
    case 3: {
      const std::uint64_t r = pick(2) ? s - s / (2 + pick(5)) : 1 + pick(s);
      return *Mapping::resize(x, std::max<std::uint64_t>(1, std::min(r, s)));
    }
    default: {
      std::uint64_t t = s;
      switch (pick(4)) {
      case 0:
        t = s + 1 + pick(7) < s ? UINT64_MAX : s + 1 + pick(7);
        break;
      case 1:
        t = s <= UINT64_MAX / 2 ? s * 2 : UINT64_MAX;
        break;
      case 2:
        t = s <= (1ULL << 63) ? std::bit_ceil(s) : UINT64_MAX;
        break;
      default:
        t = UINT64_MAX - pick(3);
        break;
      }
      static constexpr std::array<PaddingKind, 3> kinds = {PaddingKind::Top, PaddingKind::Zero,
                                                           PaddingKind::Bottom};
      return *Mapping::padding(x, std::max(t, s), kinds[pick(3)]);
    }
    }
  }

  std::uint64_t pick(std::uint64_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<std::uint64_t>(0, n - 1)(rng_);
  }
  // A divisor of s built from its small prime factors and the known large primes.
  std::uint64_t divisor(std::uint64_t s) {
    std::uint64_t d = 1, rest = s;
    for (std::uint64_t p : {2ULL, 3ULL, 5ULL, 7ULL, 11ULL, 13ULL, 4294967291ULL, 2147483647ULL,
                            1000000007ULL, 2305843009213693951ULL}) {
      while (rest % p == 0) {
        rest /= p;
        if (pick(3) == 0) d *= p;
      }
    }
    if (pick(8) == 0) d = s; // the whole size, sometimes
    return d;
  }

private:
  Mapping leaf() {
    if (pick(6) == 0) return *Mapping::broadcast(2 + pick(1000));
    return Mapping::symbol(axes_.axes()[pick(axes_.axes().size())]);
  }
  std::mt19937_64 rng_;
  AxisTable axes_;
};

} // namespace

TEST_CASE("factor robustness: deep nesting, repeated axes", "[mapping-factor]") {
  const std::uint64_t errors_before = factor_internal_errors();
  MappingGenOptions deep;
  deep.max_depth = 9;
  deep.max_size = 1 << 20;
  deep.max_axes = 6;
  deep.max_axis_size = 1 << 12;
  deep.allow_repeat_axis = true;
  MappingGenerator gen(kSeed + 9, deep);
  std::mt19937_64 rng(kSeed + 9);
  for (int i = 0; i < 600; ++i) {
    const GeneratedMapping g = gen.next();
    const FactorList l = factorize(g.mapping);
    INFO(context(g) << "\nnormal form: " << l.debug_string());
    REQUIRE(l.size() == g.mapping.size());
    REQUIRE(normalize(l) == l);
    std::vector<std::uint64_t> ds = divisors(l.size());
    const std::uint64_t n = ds[rng() % ds.size()];
    auto s = split_at(l, n);
    REQUIRE(s.ok());
    REQUIRE(pair(s->outer, s->inner) == l);
    auto x = resize(l, 1 + rng() % l.size());
    REQUIRE(x.ok());
    (void)render_text(l);
    (void)render(l);
    (void)padding_per_stride(l);
    for (int k = 0; k < 8; ++k) (void)eval(l, rng() % l.size());
  }
  CHECK(factor_internal_errors() == errors_before);
}

TEST_CASE("factor robustness: sizes up to the u64 limit", "[mapping-factor]") {
  const std::uint64_t errors_before = factor_internal_errors();
  HugeBuilder b(kSeed + 10);
  for (int i = 0; i < 400; ++i) {
    const Mapping e = b.gen(6);
    const FactorList l = factorize(e);
    INFO("mapping: " << e.to_string() << "\nnormal form: " << l.debug_string());
    REQUIRE(l.size() == e.size());
    REQUIRE(normalize(l) == l);
    const std::uint64_t n = b.divisor(e.size());
    auto s = split_at(l, n);
    REQUIRE(s.ok());
    REQUIRE(pair(s->outer, s->inner) == l);
    auto x = resize(l, 1 + b.pick(l.size()));
    REQUIRE(x.ok());
    (void)render_text(l);
    (void)padding_per_stride(l);
    // eval agrees with map at sampled positions (§4.2, exceptions (a)/(b)).
    const bool compete = padding_kinds(e).size() >= 2;
    for (int k = 0; k < 8; ++k) {
      const std::uint64_t p = b.pick(e.size());
      const Finalized want = finalize(e.map(p), PaddingKind::Top, b.axes());
      const Finalized got = finalize(eval(l, p), PaddingKind::Top, b.axes());
      INFO("position " << p << ": map " << describe(want) << ", eval " << describe(got));
      REQUIRE(agrees(got, want, compete));
    }
  }
  CHECK(factor_internal_errors() == errors_before);
}
