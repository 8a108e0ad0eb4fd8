// Surface syntax of mappings (docs/mapping.md §1, §2 i![…], §9 #10-#11, §10 D-6/D-7/D-15/D-16):
// one test per grammar rule, one per diagnostic (code and byte offset asserted), printing round
// trips over generated expressions, and mutated / random inputs that must never crash.
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "tests/support/mapping_gen.h"

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <utility>

using namespace tujit;
using namespace tujit::ir;

namespace {

AxisTable axes_of(std::initializer_list<std::pair<const char*, std::uint64_t>> list) {
  AxisTable t;
  for (auto& [n, s] : list) REQUIRE(t.add(Axis{n, s}));
  return t;
}

Mapping parse_ok(std::string_view text, const AxisTable& axes) {
  auto r = parse_mapping_text(text, axes);
  if (!r) {
    SourceBuffer src("<mapping>", std::string(text));
    FAIL_CHECK(render(r.diagnostics().front(), &src));
  }
  REQUIRE(r.ok());
  return *r;
}

// The first diagnostic of a rejected mapping text.
Diagnostic parse_err(std::string_view text, const AxisTable& axes) {
  auto r = parse_mapping_text(text, axes);
  INFO(text);
  REQUIRE_FALSE(r.ok());
  REQUIRE_FALSE(r.diagnostics().empty());
  const Diagnostic& d = r.diagnostics().front();
  CHECK(d.severity == Severity::Error);
  CHECK(d.stage == "parse");
  CHECK_FALSE(d.message.empty());
  return d;
}

// Asserts code and the byte offset the diagnostic points at.
void expect_err(std::string_view text, const AxisTable& axes, const char* code,
                std::uint32_t offset) {
  Diagnostic d = parse_err(text, axes);
  SourceBuffer src("<mapping>", std::string(text));
  INFO(render(d, &src));
  CHECK(d.code == code);
  REQUIRE(d.span.has_value());
  CHECK(d.span->offset == offset);
}

struct Lexed {
  SourceBuffer src;
  std::vector<Token> toks;
  explicit Lexed(std::string text) : src("<t>", std::move(text)) {
    Diagnostics ds;
    toks = lex(src, ds);
    REQUIRE(ds.empty());
  }
  /// The tokens strictly between the first `[` at index `open` and the last `]`, no Eof.
  std::span<const Token> inner(std::size_t open) const {
    return std::span<const Token>(toks).subspan(open + 1, toks.size() - open - 3);
  }
  std::span<const Token> all_but_eof() const {
    return std::span<const Token>(toks).first(toks.size() - 1);
  }
};

Result<Index> index_of(std::string text, const MappingContext& ctx) {
  Lexed l(std::move(text));
  return parse_index(l.all_but_eof(), ctx);
}

Result<std::vector<Axis>> axes_decl(std::string text) {
  Lexed l(std::move(text));
  return parse_axes(l.all_but_eof());
}

Mapping sym(const AxisTable& t, const char* name) {
  return Mapping::symbol(*t.find(name));
}

} // namespace

// ---- grammar rules (§1.2) ----------------------------------------------------------------------

TEST_CASE("syntax: primaries build symbols and broadcasts, `1` is the identity",
          "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}, {"L1", 4}, {"ASD_CX", 2}});
  CHECK(parse_ok("A", t) == sym(t, "A"));
  CHECK(parse_ok("L1", t) == sym(t, "L1"));
  CHECK(parse_ok("ASD_CX", t) == sym(t, "ASD_CX"));
  CHECK(parse_ok("1", t) == Mapping());
  CHECK(parse_ok("4", t) == *Mapping::broadcast(4));
  CHECK(parse_ok("4", t).kind() == Mapping::Kind::Broadcast);
  CHECK(parse_ok("  A  // comment\n", t) == sym(t, "A"));
}

TEST_CASE("syntax: every postfix operator builds its node", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}});
  Mapping a = sym(t, "A");
  CHECK(parse_ok("A / 2", t) == *Mapping::stride(a, 2));
  CHECK(parse_ok("A % 2", t) == *Mapping::modulo(a, 2));
  CHECK(parse_ok("A = 3", t) == *Mapping::resize(a, 3));
  CHECK(parse_ok("A # 9", t) == *Mapping::padding(a, 9, PaddingKind::Top));
  CHECK(parse_ok("A #{*} 9", t) == *Mapping::padding(a, 9, PaddingKind::Top));
  CHECK(parse_ok("A #{0} 9", t) == *Mapping::padding(a, 9, PaddingKind::Zero));
  CHECK(parse_ok("A #{!} 9", t) == *Mapping::padding(a, 9, PaddingKind::Bottom));
  CHECK_FALSE(parse_ok("A % 2", t) == parse_ok("A = 2", t)); // trees differ, cells agree
}

TEST_CASE("syntax: FILL allows spaces, `# {0}` is zero fill, `# {N}` a constant",
          "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}});
  Mapping a = sym(t, "A");
  CHECK(parse_ok("A # { 0 } 9", t) == *Mapping::padding(a, 9, PaddingKind::Zero));
  CHECK(parse_ok("A # {0} 9", t) == *Mapping::padding(a, 9, PaddingKind::Zero));
  CHECK(parse_ok("A#{!}9", t) == *Mapping::padding(a, 9, PaddingKind::Bottom));
  CHECK(parse_ok("A # { * } 9", t) == *Mapping::padding(a, 9, PaddingKind::Top));
  CHECK(parse_ok("A # {16}", t) == *Mapping::padding(a, 16, PaddingKind::Top));
  CHECK(parse_ok("A #{0} {16}", t) == *Mapping::padding(a, 16, PaddingKind::Zero));
  // `#{0}` needs its padding total after it.
  expect_err("A #{0}", t, "E-PARSE-102", 6);
  expect_err("A # {0} / 2", t, "E-PARSE-102", 8);
}

TEST_CASE("syntax: postfix chains are left to right, tighter than `,`", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}, {"B", 512}, {"C", 2}});
  Mapping a = sym(t, "A"), b = sym(t, "B"), c = sym(t, "C");
  Mapping want1 =
      *Mapping::modulo(*Mapping::stride(*Mapping::padding(a, 16, PaddingKind::Top), 4), 2);
  CHECK(parse_ok("A # 16 / 4 % 2", t) == want1);
  Mapping want2 =
      *Mapping::padding(*Mapping::resize(*Mapping::stride(b, 32), 2), 16, PaddingKind::Top);
  CHECK(parse_ok("B / 32 = 2 # 16", t) == want2);
  CHECK(parse_ok("A, B, C", t) == *Mapping::pair(a, *Mapping::pair(b, c)));
  CHECK(parse_ok("[A, B], C", t) == *Mapping::pair(*Mapping::pair(a, b), c));
  CHECK(parse_ok("[A, B] / 2", t) == *Mapping::stride(*Mapping::pair(a, b), 2));
  CHECK(parse_ok("A, B / 2", t) == *Mapping::pair(a, *Mapping::stride(b, 2)));
  CHECK(parse_ok("(A, B) % 4", t) == *Mapping::modulo(*Mapping::pair(a, b), 4));
  CHECK(parse_ok("((A))", t) == a);
  CHECK(parse_ok("[(A), [B]]", t) == *Mapping::pair(a, b));
}

TEST_CASE("syntax: trailing commas (§9 #10)", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 4}, {"B", 2}});
  CHECK(parse_ok("A,", t) == parse_ok("A", t));
  CHECK(parse_ok("A, B,", t) == parse_ok("A, B", t));
  CHECK(parse_ok("(A, B,)", t) == parse_ok("A, B", t));
  CHECK(parse_ok("[A,], B", t) == parse_ok("A, B", t));
  CHECK(equivalent_by_map(parse_ok("A,", t), parse_ok("A", t)));
}

TEST_CASE("syntax: rejected comma forms (§9 #10)", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 4}, {"B", 2}});
  expect_err("", t, "E-PARSE-101", 0);
  expect_err("   ", t, "E-PARSE-101", 3);
  expect_err(",", t, "E-PARSE-101", 0);
  expect_err(",A", t, "E-PARSE-101", 0);
  expect_err("A,,B", t, "E-PARSE-101", 2);
  expect_err("A, ,", t, "E-PARSE-101", 3);
  expect_err("()", t, "E-PARSE-101", 1);
  expect_err("[,]", t, "E-PARSE-101", 1);
  expect_err("A,, ", t, "E-PARSE-101", 2);
}

TEST_CASE("syntax: operand and operator errors point at the token", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}, {"B", 4}});
  expect_err("A B", t, "E-PARSE-103", 2);
  expect_err("A 4", t, "E-PARSE-103", 2);
  expect_err("A / 2 B", t, "E-PARSE-103", 6);
  expect_err("A)", t, "E-PARSE-103", 1);
  expect_err("A ; B", t, "E-PARSE-103", 2);
  expect_err("A => 2", t, "E-PARSE-103", 2);
  expect_err("A /", t, "E-PARSE-102", 3);
  expect_err("A / B", t, "E-PARSE-102", 4);
  expect_err("A / (2)", t, "E-PARSE-102", 4);
  expect_err("A / 1.5", t, "E-PARSE-102", 4);
  expect_err("A # ", t, "E-PARSE-102", 4);
  expect_err("/ 2", t, "E-PARSE-101", 0);
  expect_err("A, / 2", t, "E-PARSE-101", 3);
  expect_err("\"s\"", t, "E-PARSE-101", 0);
  expect_err("X", t, "E-PARSE-107", 0);
  expect_err("A, b", t, "E-PARSE-107", 3);
  expect_err("A, $", t, "E-PARSE-101", 3);
  expect_err("A / \xC3\xA9", t, "E-PARSE-001", 4); // lexer diagnostic passes through
}

TEST_CASE("syntax: unbalanced groups", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}, {"B", 4}});
  expect_err("(A", t, "E-PARSE-104", 2);
  expect_err("[A, B", t, "E-PARSE-104", 5);
  expect_err("(A]", t, "E-PARSE-103", 2);
  expect_err("[A)", t, "E-PARSE-103", 2);
  expect_err("A]", t, "E-PARSE-103", 1);
  expect_err("(", t, "E-PARSE-101", 1);
  expect_err("{A", t, "E-PARSE-104", 2);
  expect_err("{A B}", t, "E-PARSE-104", 3);
}

TEST_CASE("syntax: NAT is decimal digits fitting u64 (D-16)", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 1024}});
  expect_err("A / 1_024", t, "E-PARSE-105", 4);
  expect_err("A / 0x10", t, "E-PARSE-105", 4);
  expect_err("A / 8u32", t, "E-PARSE-105", 4);
  expect_err("A / 18446744073709551616", t, "E-PARSE-105", 4);
  expect_err("1_024", t, "E-PARSE-105", 0);
  expect_err("A # {1_024}", t, "E-PARSE-105", 5);
  CHECK(parse_ok("A / 1024", t).size() == 1);
  CHECK(parse_ok("18446744073709551615", t).size() == 18446744073709551615u);
}

TEST_CASE("syntax: static validity errors point at the operator (§1.3, D-6, D-7)",
          "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}, {"X", std::uint64_t{1} << 32}});
  expect_err("A / 3", t, "E-TYPE-302", 2);
  expect_err("A / 0", t, "E-TYPE-302", 2);
  expect_err("A % 3", t, "E-TYPE-303", 2);
  expect_err("A % 0", t, "E-TYPE-303", 2);
  expect_err("A = 9", t, "E-TYPE-304", 2);
  expect_err("A = 0", t, "E-TYPE-304", 2);
  expect_err("A # 7", t, "E-TYPE-305", 2);
  expect_err("A #{!} 0", t, "E-TYPE-305", 2);
  expect_err("0", t, "E-TYPE-301", 0);
  expect_err("A, 0", t, "E-TYPE-301", 3);
  expect_err("A, X, X", t, "E-TYPE-306", 4); // X·X overflows; the fold reports the outer comma
  expect_err("A / 2, A / 3", t, "E-TYPE-302", 9);
  Diagnostic d = parse_err("A / 3", t);
  CHECK(d.message.find('3') != std::string::npos);
  CHECK(d.message.find('8') != std::string::npos);
  REQUIRE_FALSE(d.notes.empty());
  CHECK(d.notes.front().find("§1.3") != std::string::npos);
  CHECK(d.span->length == 3); // `/ 3`: operator through number
}

TEST_CASE("syntax: nesting depth is bounded, never a stack overflow", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 2}});
  std::string deep(100000, '[');
  expect_err(deep, t, "E-PARSE-106", 256);
  std::string parens(100000, '(');
  parens += 'A';
  expect_err(parens, t, "E-PARSE-106", 256);
  std::string braces;
  for (int i = 0; i < 5000; ++i) braces += "{ m![";
  expect_err(braces, t, "E-PARSE-106", 5 * 128); // each `{ m![` opens two groups
  expect_err("{{A}}", t, "E-PARSE-108", 1);      // escapes themselves do not nest
  // 200 levels are fine.
  std::string ok(200, '[');
  ok += 'A';
  ok.append(200, ']');
  CHECK(parse_ok(ok, t) == Mapping::symbol(Axis{"A", 2}));
  // Long flat chains and operator runs are bounded by the tree depth, also without recursion.
  std::string chain;
  for (int i = 0; i < 100000; ++i) chain += "1, ";
  Diagnostic d = parse_err(chain, t);
  CHECK(d.code == "E-PARSE-106");
  std::string run = "A";
  for (int i = 0; i < 100000; ++i) run += " / 1";
  d = parse_err(run, t);
  CHECK(d.code == "E-PARSE-106");
  CHECK(d.span->offset == 2 + 4 * 1023); // the 1024th `/` makes the tree 1025 high
  std::string fine = "A";
  for (int i = 0; i < 500; ++i) fine += " / 1";
  CHECK(parse_ok(fine, t).depth() == 501);
}

// ---- escapes (§1.1 ESC, D-15, §9 #11) ---------------------------------------------------------

TEST_CASE("syntax: number escapes `{ 8 }`, `{ N }`, `{ X::SIZE }` (§9 #11)", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 512}, {"Out", 64}});
  Mapping out_alias = Mapping::symbol(Axis{"Out", 64});
  Mapping a_alias = *Mapping::stride(Mapping::symbol(Axis{"A", 512}), 16);
  MappingContext ctx;
  ctx.axes = &t;
  ctx.constant = [](std::string_view n) -> std::optional<std::uint64_t> {
    if (n == "N") return 8;
    if (n == "M") return 32;
    return std::nullopt;
  };
  ctx.alias = [&](std::string_view n) -> std::optional<Mapping> {
    if (n == "T") return a_alias;
    return std::nullopt;
  };
  auto p = [&](std::string text) {
    Lexed l(std::move(text));
    auto r = parse_mapping(l.all_but_eof(), ctx);
    if (!r) FAIL_CHECK(render(r.diagnostics().front(), &l.src));
    REQUIRE(r.ok());
    return *r;
  };
  auto perr = [&](std::string text, const char* code, std::uint32_t offset) {
    Lexed l(text);
    auto r = parse_mapping(l.all_but_eof(), ctx);
    INFO(text);
    REQUIRE_FALSE(r.ok());
    const Diagnostic& d = r.diagnostics().front();
    INFO(render(d, &l.src));
    CHECK(d.code == code);
    REQUIRE(d.span);
    CHECK(d.span->offset == offset);
  };
  CHECK(p("1 # {Out::SIZE}") == p("1 # 64"));
  CHECK(p("1 #{!} { Out :: SIZE }") == p("1 #{!} 64"));
  CHECK(p("A / {N}") == p("A / 8"));
  CHECK(p("A / { 8 }") == p("A / 8"));
  CHECK(p("1 #{0} {N}") == p("1 #{0} 8"));
  CHECK(p("A / {T::SIZE}") == p("A / 32")); // an alias's SIZE
  CHECK(p("A / {A::SIZE}") == p("A / 512"));
  CHECK(equivalent_by_map(p("1 # {Out::SIZE}"), p("1 # 64")));
  // §9 #11 writes `A #{!} {Out::SIZE}` and `A #{0} {N}` with A = 512: both pad to less than
  // SIZE(A) and are rejected under D-6, exactly like their literal spellings.
  perr("A #{!} {Out::SIZE}", "E-TYPE-305", 2);
  perr("A #{!} 64", "E-TYPE-305", 2);
  perr("A #{0} {N}", "E-TYPE-305", 2);
  // Errors inside escapes.
  perr("A / {Q}", "E-PARSE-108", 5);
  perr("A / {Q::SIZE}", "E-PARSE-108", 5);
  perr("A / {A::LEN}", "E-PARSE-108", 5);
  perr("A / {N + 1}", "E-PARSE-108", 5);
  perr("A / {}", "E-PARSE-108", 5);
  perr("A / {N", "E-PARSE-108", 5);
  perr("A / {0}", "E-TYPE-302", 2);
}

TEST_CASE("syntax: operand escapes `{ Alias }` and `{ m![…] }` (§9 #11)", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 512}, {"B", 4}});
  Mapping alias = *Mapping::pair(*Mapping::stride(Mapping::symbol(Axis{"A", 512}), 8),
                                 Mapping::symbol(Axis{"B", 4}));
  MappingContext ctx;
  ctx.axes = &t;
  ctx.alias = [&](std::string_view n) -> std::optional<Mapping> {
    if (n == "Tile") return alias;
    return std::nullopt;
  };
  auto p = [&](std::string text) -> Result<Mapping> {
    Lexed l(std::move(text));
    return parse_mapping(l.all_but_eof(), ctx);
  };
  REQUIRE(p("{ m![A] }").ok());
  CHECK(*p("{ m![A] }") == Mapping::symbol(Axis{"A", 512}));
  CHECK(equivalent_by_map(*p("{ m![A] }"), *p("A")));
  CHECK(*p("{ m![A, B] } / 2") == *p("[A, B] / 2"));
  CHECK(*p("{ m![{ m![B] }] }, A") == *p("B, A"));
  CHECK(*p("{Tile}") == alias);
  CHECK(*p("{Tile} % 4") == *p("[A / 8, B] % 4"));
  CHECK(*p("B, {A}") == *p("B, A")); // an axis named in an escape
  auto e = p("{Nope}");
  REQUIRE_FALSE(e.ok());
  CHECK(e.diagnostics().front().code == "E-PARSE-108");
  CHECK(e.diagnostics().front().span->offset == 1);
  e = p("{ 8 }");
  REQUIRE_FALSE(e.ok());
  CHECK(e.diagnostics().front().code == "E-PARSE-108");
  CHECK(e.diagnostics().front().span->offset == 2);
  e = p("{ m![A }");
  REQUIRE_FALSE(e.ok());
  CHECK(e.diagnostics().front().code == "E-PARSE-103");
  CHECK(e.diagnostics().front().span->offset == 7);
  e = p("{ m![A] ");
  REQUIRE_FALSE(e.ok());
  CHECK(e.diagnostics().front().code == "E-PARSE-104");
}

TEST_CASE("syntax: a body span without Eof, as the kernel-language parser passes it",
          "[mapping-syntax]") {
  AxisTable t = axes_of({{"B", 512}});
  MappingContext ctx;
  ctx.axes = &t;
  Lexed l("x: m![B / 64, B % 32, B / 32 % 2] + 1");
  // tokens: x : m ! [ … ] + 1 Eof; the body is tokens 5 .. before `]`.
  std::size_t open = 4, close = 0;
  for (std::size_t i = 0; i < l.toks.size(); ++i)
    if (l.toks[i].is_punct("]")) close = i;
  auto body = std::span<const Token>(l.toks).subspan(open + 1, close - open - 1);
  auto r = parse_mapping(body, ctx);
  REQUIRE(r.ok());
  CHECK(r->map(67).index == Index{{"B", 97}});
  // An error at the end of the body points just past its last token, or at `body_end`.
  Lexed bad("m![B / ] + 1");
  auto bad_body = std::span<const Token>(bad.toks).subspan(3, 2);
  auto e = parse_mapping(bad_body, ctx);
  REQUIRE_FALSE(e.ok());
  CHECK(e.diagnostics().front().code == "E-PARSE-102");
  CHECK(e.diagnostics().front().span->offset == 6);
  ctx.body_end = bad.toks[5].span;
  e = parse_mapping(bad_body, ctx);
  REQUIRE_FALSE(e.ok());
  CHECK(e.diagnostics().front().span->offset == 7);
  // An empty body.
  auto empty = parse_mapping(std::span<const Token>(), ctx);
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.diagnostics().front().code == "E-PARSE-101");
  CHECK(empty.diagnostics().front().span->offset == 7);
}

// ---- axes![…] ---------------------------------------------------------------------------------

TEST_CASE("axes: declarations, trailing comma, empty list", "[mapping-syntax]") {
  auto r = axes_decl("A = 8, B = 512, L1 = 3, ASD_CX = 1");
  REQUIRE(r.ok());
  REQUIRE(r->size() == 4);
  CHECK((*r)[0] == Axis{"A", 8});
  CHECK((*r)[1] == Axis{"B", 512});
  CHECK((*r)[2] == Axis{"L1", 3});
  CHECK((*r)[3] == Axis{"ASD_CX", 1});
  CHECK(axes_decl("A = 8,")->size() == 1);
  CHECK(axes_decl("")->empty());
  auto t = parse_axes_text("A=8,B=512");
  REQUIRE(t.ok());
  CHECK(t->axes().size() == 2);
  CHECK(t->find("B")->size == 512);
  CHECK(t->find("C") == nullptr);
}

TEST_CASE("axes: every rejection with its position", "[mapping-syntax]") {
  auto err = [](std::string text, const char* code, std::uint32_t offset) {
    auto r = parse_axes_text(text);
    INFO(text);
    REQUIRE_FALSE(r.ok());
    const Diagnostic& d = r.diagnostics().front();
    SourceBuffer src("<axes>", text);
    INFO(render(d, &src));
    CHECK(d.code == code);
    CHECK(d.stage == "parse");
    REQUIRE(d.span);
    CHECK(d.span->offset == offset);
  };
  err(", A = 8", "E-PARSE-111", 0);
  err("A = 8,, B = 2", "E-PARSE-111", 6);
  err(",", "E-PARSE-111", 0);
  err("A = 8, A = 4", "E-PARSE-110", 7);
  err("a = 8", "E-PARSE-109", 0);
  err("_A = 8", "E-PARSE-109", 0);
  err("A = 8, bat = 2", "E-PARSE-109", 7);
  err("8 = 8", "E-PARSE-111", 0);
  err("A 8", "E-PARSE-111", 2);
  err("A =", "E-PARSE-111", 3);
  err("A = B", "E-PARSE-111", 4);
  err("A = 8 B = 2", "E-PARSE-111", 6);
  err("A = 0", "E-TYPE-307", 4);
  err("A = 1_024", "E-PARSE-105", 4);
  err("A = 0x10", "E-PARSE-105", 4);
  err("A = 99999999999999999999", "E-PARSE-105", 4);
  err("A = 8; B = 2", "E-PARSE-111", 5);
}

// ---- i![…] ------------------------------------------------------------------------------------

TEST_CASE("index: assignments combine in written order (§2, §9 #10, #11)", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 4}, {"B", 2}});
  MappingContext ctx;
  ctx.axes = &t;
  auto ok = [&](std::string text) {
    auto r = index_of(text, ctx);
    INFO(text);
    REQUIRE(r.ok());
    return *r;
  };
  CHECK(ok("A, B: 5") == Index{{"A", 2}, {"B", 1}});
  CHECK(ok("(A, B,): 5") == Index{{"A", 2}, {"B", 1}});
  CHECK(ok("A, B,: 5") == Index{{"A", 2}, {"B", 1}});
  CHECK(ok("").empty());
  CHECK(ok("A: 0") == Index{{"A", 0}}); // zero entry kept structurally (D-4)
  CHECK(index_equivalent(ok("A: 0"), ok("")));
  CHECK(ok("A: 1, B: 1") == Index{{"A", 1}, {"B", 1}});
  CHECK(ok("A: 1, B: 1,") == Index{{"A", 1}, {"B", 1}});
  CHECK(ok("A: 1, A: 2") == Index{{"A", 3}}); // contributions add
  CHECK(ok("A: 100") == Index{{"A", 100}});   // a bare axis is not bounds checked
  AxisTable tb = axes_of({{"B", 512}});
  MappingContext cb;
  cb.axes = &tb;
  auto rb = index_of("B / 64: 2, B % 64: 2", cb);
  REQUIRE(rb.ok());
  CHECK(*rb == Index{{"B", 130}});
  CHECK(*rb == parse_ok("B", tb).map(130).index);
  AxisTable ta = axes_of({{"A", 512}});
  MappingContext ca;
  ca.axes = &ta;
  ca.constant = [](std::string_view n) -> std::optional<std::uint64_t> {
    return n == "N" ? std::optional<std::uint64_t>(32) : std::nullopt;
  };
  auto r1 = index_of("A / {N} = 8: 0", ca);
  auto r2 = index_of("A / 32 = 8: 0", ca);
  REQUIRE(r1.ok());
  REQUIRE(r2.ok());
  CHECK(*r1 == *r2);
  CHECK(*r1 == Index{{"A", 0}});
  auto r3 = index_of("A / 32 = 8: {N}", ca); // position 32 of a SIZE-8 mapping
  REQUIRE_FALSE(r3.ok());
  CHECK(r3.diagnostics().front().code == "E-TYPE-308");
}

TEST_CASE("index: rejections with positions", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 4}, {"B", 2}});
  MappingContext ctx;
  ctx.axes = &t;
  auto err = [&](std::string text, const char* code, std::uint32_t offset) {
    auto r = index_of(text, ctx);
    INFO(text);
    REQUIRE_FALSE(r.ok());
    const Diagnostic& d = r.diagnostics().front();
    CHECK(d.code == code);
    CHECK(d.stage == "parse");
    REQUIRE(d.span);
    CHECK(d.span->offset == offset);
  };
  err("A", "E-PARSE-112", 1);
  err("A: B", "E-PARSE-112", 3);
  err("A:", "E-PARSE-112", 2);
  err("A: 1 2", "E-PARSE-112", 5);
  err(",", "E-PARSE-101", 0);
  err("A: 1,, B: 1", "E-PARSE-112", 5);
  err(": 1", "E-PARSE-101", 0);
  err("A / 2: 2", "E-TYPE-308", 0); // position 2 of a SIZE-2 mapping
  err("A # 8: 5", "E-TYPE-308", 0); // a padding cell
  err("A: 1_0", "E-PARSE-105", 3);
  err("C: 1", "E-PARSE-107", 0);
  err("(A: 1)", "E-PARSE-103", 2);
}

// ---- printing round trip -------------------------------------------------------------------

TEST_CASE("to_string: brackets exactly where precedence needs them", "[mapping-syntax]") {
  AxisTable t = axes_of({{"A", 8}, {"B", 4}, {"C", 2}});
  CHECK(parse_ok("A, B, C", t).to_string() == "A, B, C");
  CHECK(parse_ok("[A, B], C", t).to_string() == "[A, B], C");
  CHECK(parse_ok("[A, B] / 2", t).to_string() == "[A, B] / 2");
  CHECK(parse_ok("A # 16 / 4 % 2", t).to_string() == "A # 16 / 4 % 2");
  CHECK(parse_ok("A #{*} 9 #{0} 10 #{!} 11", t).to_string() == "A # 9 #{0} 10 #{!} 11");
  CHECK(parse_ok("(A)", t).to_string() == "A");
  CHECK(parse_ok("1", t).to_string() == "1");
  CHECK(Mapping().to_string() == "1");
}

TEST_CASE("to_string round-trips 2500 generated expressions", "[mapping-syntax]") {
  testing::MappingGenerator gen(20261129);
  std::size_t kinds_seen[7] = {};
  for (int i = 0; i < 2500; ++i) {
    auto g = gen.next();
    std::string text = g.mapping.to_string();
    INFO(text);
    auto r = parse_mapping_text(text, g.axes);
    if (!r) {
      SourceBuffer src("<mapping>", text);
      FAIL(render(r.diagnostics().front(), &src));
    }
    CHECK(*r == g.mapping);
    CHECK(r->to_string() == text);
    CHECK(r->size() == g.mapping.size());
    // Generated trees respect the options (SIZE bound; padding of all kinds and the rest).
    CHECK(g.mapping.size() <= 4096);
    std::vector<Mapping> stack{g.mapping};
    while (!stack.empty()) {
      Mapping m = stack.back();
      stack.pop_back();
      ++kinds_seen[static_cast<int>(m.kind())];
      if (m.kind() == Mapping::Kind::Pair) stack.push_back(m.rhs());
      if (m.kind() != Mapping::Kind::Symbol && m.kind() != Mapping::Kind::Broadcast)
        stack.push_back(m.lhs());
    }
  }
  for (auto n : kinds_seen) CHECK(n > 50);
}

TEST_CASE("generator: valid by construction, covers ragged strides and pair strides",
          "[mapping-syntax]") {
  testing::MappingGenerator gen(7);
  bool pair_stride = false, ragged_pad_stride = false, nested_pair = false, bottom = false,
       zero = false;
  for (int i = 0; i < 3000; ++i) {
    auto g = gen.next();
    std::vector<Mapping> stack{g.mapping};
    while (!stack.empty()) {
      Mapping m = stack.back();
      stack.pop_back();
      if (m.size() > 4096) FAIL("SIZE above max_size: " << m.to_string());
      switch (m.kind()) {
      case Mapping::Kind::Stride:
      case Mapping::Kind::Modulo:
        CHECK(m.number() >= 1);
        CHECK(m.lhs().size() % m.number() == 0);
        if (m.kind() == Mapping::Kind::Stride && m.lhs().kind() == Mapping::Kind::Pair)
          pair_stride = true;
        if (m.kind() == Mapping::Kind::Stride && m.lhs().kind() == Mapping::Kind::Padding &&
            m.lhs().lhs().size() % m.number() != 0)
          ragged_pad_stride = true;
        break;
      case Mapping::Kind::Resize:
        CHECK((m.number() >= 1 && m.number() <= m.lhs().size()));
        break;
      case Mapping::Kind::Padding:
        CHECK(m.number() >= m.lhs().size());
        bottom |= m.padding_kind() == PaddingKind::Bottom;
        zero |= m.padding_kind() == PaddingKind::Zero;
        break;
      case Mapping::Kind::Pair:
        nested_pair |= m.lhs().kind() == Mapping::Kind::Pair;
        break;
      default:
        break;
      }
      if (m.kind() == Mapping::Kind::Pair) stack.push_back(m.rhs());
      if (m.kind() != Mapping::Kind::Symbol && m.kind() != Mapping::Kind::Broadcast)
        stack.push_back(m.lhs());
    }
    // Without repeat axes no generated mapping names an axis twice, so nothing overshoots.
    std::vector<std::string> names;
    for (const auto& a : g.mapping.axes()) names.push_back(a.name);
    for (std::uint64_t p = 0; p < g.mapping.size(); p += 1 + g.mapping.size() / 64)
      CHECK(finalize(g.mapping.map(p), PaddingKind::Top, g.axes).kind !=
            Finalized::Kind::Overshoot);
  }
  CHECK(pair_stride);
  CHECK(ragged_pad_stride);
  CHECK(nested_pair);
  CHECK(bottom);
  CHECK(zero);
  // next_over uses the given axes only; max_size is honoured.
  AxisTable t = axes_of({{"R", 5}, {"A", 16}});
  testing::MappingGenOptions small;
  small.max_size = 64;
  testing::MappingGenerator g2(11, small);
  for (int i = 0; i < 500; ++i) {
    Mapping m = g2.next_over(t);
    CHECK(m.size() <= 64);
    for (const auto& a : m.axes()) CHECK(t.find(a.name) != nullptr);
  }
}

// ---- robustness ------------------------------------------------------------------------------

TEST_CASE("syntax: thousands of mutated inputs yield a mapping or diagnostics",
          "[mapping-syntax]") {
  testing::MappingGenerator gen(424242);
  std::mt19937_64& rng = gen.rng();
  static const char* vocab[] = {
      ",",  "(",   ")",   "[", "]",   "{",    "}",    "/", "%",   "=",     "#", "!",
      "*",  "0",   "1",   "2", "16",  "::",   "SIZE", "m", "A",   "B",     "R", ":",
      "=>", "1_0", "0x8", "N", "{0}", "#{!}", "m![",  "x", "'a'", "\"s\"", ";"};
  MappingContext extra;
  extra.constant = [](std::string_view n) -> std::optional<std::uint64_t> {
    return n == "N" ? std::optional<std::uint64_t>(2) : std::nullopt;
  };
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 4000; ++i) {
    auto g = gen.next();
    std::string text = g.mapping.to_string();
    SourceBuffer src("<m>", text);
    Diagnostics lex_diags;
    std::vector<Token> toks = lex(src, lex_diags);
    std::vector<std::string> words;
    for (std::size_t k = 0; k + 1 < toks.size(); ++k) words.emplace_back(toks[k].text);
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      std::size_t n = words.size();
      std::size_t at = n == 0 ? 0 : rng() % n;
      switch (rng() % 4) {
      case 0:
        if (n) words.erase(words.begin() + static_cast<std::ptrdiff_t>(at));
        break;
      case 1:
        if (n) words.insert(words.begin() + static_cast<std::ptrdiff_t>(at), words[at]);
        break;
      case 2:
        if (n > 1) std::swap(words[at], words[(at + 1) % n]);
        break;
      default:
        words.insert(words.begin() + static_cast<std::ptrdiff_t>(at),
                     vocab[rng() % (sizeof vocab / sizeof *vocab)]);
      }
    }
    std::string mutated;
    for (const auto& w : words) mutated += w + (rng() % 3 == 0 ? "" : " ");
    INFO(mutated);
    auto r = parse_mapping_text(mutated, g.axes);
    if (r.ok()) {
      ++parsed;
      auto again = parse_mapping_text(r->to_string(), g.axes);
      REQUIRE(again.ok());
      CHECK(*again == *r);
    } else {
      ++rejected;
      REQUIRE_FALSE(r.diagnostics().empty());
      for (const auto& d : r.diagnostics()) {
        CHECK(d.severity == Severity::Error);
        CHECK_FALSE(d.code.empty());
        REQUIRE(d.span.has_value());
        CHECK(d.span->end() <= mutated.size());
      }
    }
    // The same tokens as an index and as axes: never a crash either.
    SourceBuffer msrc("<m>", mutated);
    Diagnostics ds;
    auto mt = lex(msrc, ds);
    auto body = std::span<const Token>(mt).first(mt.size() - 1);
    extra.axes = &g.axes;
    auto ix = parse_index(body, extra);
    if (!ix.ok()) {
      REQUIRE_FALSE(ix.diagnostics().empty());
      for (const auto& d : ix.diagnostics())
        CHECK((d.span.has_value() && d.span->end() <= mutated.size()));
    }
    auto ax = parse_axes(body);
    if (!ax.ok()) {
      REQUIRE_FALSE(ax.diagnostics().empty());
      for (const auto& d : ax.diagnostics())
        CHECK((d.span.has_value() && d.span->end() <= mutated.size()));
    }
  }
  CHECK(parsed > 100);
  CHECK(rejected > 1000);
}

TEST_CASE("syntax: random bytes never crash", "[mapping-syntax]") {
  std::mt19937_64 rng(99);
  AxisTable t = axes_of({{"A", 8}, {"B", 4}});
  static const char alphabet[] = "AB01289/%=#,()[]{}!*: _xm\"'\n\t\\.-<>";
  for (int i = 0; i < 3000; ++i) {
    std::string s;
    std::size_t len = rng() % 40;
    for (std::size_t k = 0; k < len; ++k) {
      if (rng() % 16 == 0)
        s += static_cast<char>(rng() % 256);
      else
        s += alphabet[rng() % (sizeof alphabet - 1)];
    }
    auto r = parse_mapping_text(s, t);
    CHECK((r.ok() || !r.diagnostics().empty()));
    auto a = parse_axes_text(s);
    CHECK((a.ok() || !a.diagnostics().empty()));
  }
}
