// Parser of the kernel language (docs/kernel-language.md §3): one case per grammar rule,
// and one per parser diagnostic code with its line and column.
#include "ir/lang/parser.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::lang;

namespace {

struct Parsed {
  SourceBuffer src;
  std::vector<Token> tokens;
  Diagnostics diags;
  ParsedFile file;
};

std::unique_ptr<Parsed> parse(std::string text) {
  auto p = std::make_unique<Parsed>(Parsed{SourceBuffer("t.rs", std::move(text)), {}, {}, {}});
  p->tokens = lex(p->src, p->diags);
  p->file = parse_file(p->tokens, p->diags);
  return p;
}

/// All diagnostics: the file's and every fn body's.
Diagnostics all_diags(const Parsed& p) {
  Diagnostics out = p.diags;
  for (const auto& b : p.file.body_diags) out.insert(out.end(), b.begin(), b.end());
  return out;
}

bool has_at(const Parsed& p, std::string_view code, std::uint32_t line, std::uint32_t col) {
  for (const auto& d : all_diags(p)) {
    if (d.code != code || !d.span) continue;
    if (p.src.line_col(d.span->offset) == std::make_pair(line, col)) return true;
  }
  return false;
}

std::string dump(const Parsed& p) {
  std::string out;
  for (const auto& d : all_diags(p)) out += render(d, &p.src);
  return out;
}

std::string text_of(const Parsed& p, SourceSpan s) {
  return p.src.text().substr(s.offset, s.length);
}

} // namespace

TEST_CASE("lang parser: axes!, with each bracket kind and without a closing semicolon", "[lang]") {
  auto p = parse("axes![A = 8, B = 512];\naxes!(C = 2)\naxes!{D = 4,}\n");
  INFO(dump(*p));
  CHECK(all_diags(*p).empty());
  REQUIRE(p->file.ast.axes.size() == 3);
  CHECK(p->file.ast.axes[0].body.size() == 7); // A = 8 , B = 512
  CHECK(p->file.ast.axes[1].body.size() == 3);
  CHECK(p->file.ast.axes[2].body.size() == 4);
}

TEST_CASE("lang parser: type aliases of mappings, scalars, tensors and braces", "[lang]") {
  auto p = parse("type Lane = m![N];\ntype D = bf16;\ntype In = CollectTensor<'l, T, bf16, "
                 "Chip, Cluster, Slice, m![M], m![K]>;\ntype Br = { Lane };\n");
  INFO(dump(*p));
  CHECK(all_diags(*p).empty());
  const auto& al = p->file.ast.aliases;
  REQUIRE(al.size() == 4);
  CHECK(al[0].name == "Lane");
  CHECK(al[0].type.kind == TypeExpr::Kind::Mapping);
  REQUIRE(al[0].type.body.size() == 1);
  CHECK(al[0].type.body[0].text == "N");
  CHECK(al[1].type.kind == TypeExpr::Kind::Name);
  CHECK(al[1].type.name == "bf16");
  CHECK(al[2].type.name == "CollectTensor");
  CHECK(al[2].type.has_args);
  CHECK(al[2].type.args.size() == 7); // the lifetime is dropped, `T` is kept for sema
  CHECK(al[3].type.braced);
  CHECK(al[3].type.name == "Lane");
}

TEST_CASE("lang parser: fn item with generics, params, return type and body", "[lang]") {
  auto p = parse("#[device(chip = 1)]\npub fn k<'l, const T: Tu, B: Backend>(\n"
                 "    mut a: CollectTensor<'l, T, bf16, C, C, C, m![M], m![K]>,\n"
                 "    t: &TrfTensor<bf16, C, C, C, L, m![K]>,\n"
                 "    ctx: &'l mut Context,\n) -> ContractTensor<'l, { Tu::Main }, f32, C, C, C, "
                 "m![M], m![N]> where T: Copy {\n"
                 "    let x: TrfTensor<bf16, C, C, C, L, m![K]> = t;\n"
                 "    let mut y = a.contract_outer::<m![M], m![K], _, _, _>(&x);\n"
                 "    y.contract_packet::<m![1]>()\n}\n");
  INFO(dump(*p));
  CHECK(all_diags(*p).empty());
  REQUIRE(p->file.ast.fns.size() == 1);
  const FnItem& fn = p->file.ast.fns[0];
  CHECK(fn.name == "k");
  CHECK(fn.generics == std::vector<std::string>{"T", "B"});
  REQUIRE(fn.params.size() == 3);
  CHECK(fn.params[0].name == "a");
  CHECK(!fn.params[0].type.is_ref);
  CHECK(fn.params[1].type.is_ref);
  CHECK(fn.params[2].type.name == "Context");
  REQUIRE(fn.ret);
  CHECK(fn.ret->name == "ContractTensor");
  REQUIRE(fn.ret->args.size() == 7);
  CHECK(fn.ret->args[0].braced); // { Tu::Main }
  CHECK(fn.ret->args[0].is_path);
  REQUIRE(fn.body.size() == 2);
  CHECK(fn.body[0].kind == Stmt::Kind::Let);
  CHECK(fn.body[0].name == "x");
  CHECK(fn.body[0].annotation.has_value());
  CHECK(fn.body[1].name == "y");
  REQUIRE(fn.tail);
  CHECK(fn.tail->kind == Expr::Kind::MethodCall);
  CHECK(fn.tail->name == "contract_packet");
}

TEST_CASE("lang parser: method chains, turbofish, args and literals", "[lang]") {
  auto p = parse("fn k(a: A) {\n"
                 "  ctx.main.begin(x.view()).fetch_zero_point_sub::<i9>(-3)"
                 ".contract_lane::<m![A], m![B]>(LaneMode::Sequential).to_vrf(&mut ctx.sub)\n}\n");
  INFO(dump(*p));
  CHECK(all_diags(*p).empty());
  REQUIRE(p->file.ast.fns.size() == 1);
  const auto& tail = p->file.ast.fns[0].tail;
  REQUIRE(tail);
  // Outermost call first: to_vrf(&mut ctx.sub)
  CHECK(tail->name == "to_vrf");
  REQUIRE(tail->args.size() == 1);
  CHECK(tail->args[0].kind == Expr::Kind::Ref);
  CHECK(tail->args[0].ref_mut);
  CHECK(tail->args[0].inner->kind == Expr::Kind::Field);
  const Expr& lane = *tail->inner;
  CHECK(lane.name == "contract_lane");
  CHECK(lane.has_turbofish);
  CHECK(lane.targs.size() == 2);
  REQUIRE(lane.args.size() == 1);
  CHECK(lane.args[0].kind == Expr::Kind::LaneMode);
  CHECK(lane.args[0].name == "Sequential");
  const Expr& zp = *lane.inner;
  CHECK(zp.name == "fetch_zero_point_sub");
  REQUIRE(zp.args.size() == 1);
  CHECK(zp.args[0].kind == Expr::Kind::Int);
  CHECK(zp.args[0].int_value == -3);
  const Expr& begin = *zp.inner;
  CHECK(begin.name == "begin");
  REQUIRE(begin.args.size() == 1);
  CHECK(begin.args[0].name == "view");
  CHECK(begin.inner->kind == Expr::Kind::Field);
  CHECK(begin.inner->name == "main");
  CHECK(text_of(*p, begin.name_span) == "begin");
}

TEST_CASE("lang parser: skipped items and driver statements", "[lang]") {
  auto p = parse(
      "#![feature(adt_const_params)]\nextern crate furiosa_opt_std;\n"
      "use furiosa_opt_std::prelude::*;\nmod m { fn hidden() {} }\n"
      "struct S { a: u8 }\nimpl S { fn f(&self) {} }\nconst N: usize = 4;\n"
      "let mut device = Device::new(Topology { chips: 1, pes: 8 }).unwrap();\n"
      "let y = z.vector_add(w);\n"
      "fn main() {\n  let mut ctx = Context::acquire();\n  for i in 0..3 { go(i); }\n"
      "  type L = m![N];\n  fn inner(x: CollectTensor<bf16>) { x }\n  println!(\"{}\", 1);\n}\n");
  // The driver statements parse without file-level errors; only main's body (not a kernel) has
  // diagnostics, which sema drops.
  CHECK(p->diags.empty());
  const auto& ast = p->file.ast;
  REQUIRE(ast.consts.size() == 1);
  CHECK(ast.consts[0].name == "N");
  CHECK(ast.consts[0].value == std::optional<std::uint64_t>(4));
  // `hidden` is an item of module m (docs/kernel-language.md §1.2); impl contents are skipped.
  REQUIRE(ast.fns.size() == 3);
  CHECK(ast.fns[0].name == "hidden");
  REQUIRE(ast.modules.size() == 2);
  CHECK(ast.modules[1].name == "m");
  CHECK(ast.fns[0].module == 1);
  CHECK(ast.fns[1].name == "main");
  CHECK(ast.fns[1].module == 0);
  CHECK(ast.fns[2].name == "inner");
  REQUIRE(ast.aliases.size() == 1);
  CHECK(ast.aliases[0].name == "L");
  REQUIRE(ast.skipped_refused.size() == 1);
  CHECK(ast.skipped_refused[0].first == "vector_add");
}

TEST_CASE("lang parser: E-PARSE-201 unbalanced brackets", "[lang]") {
  auto a = parse("fn k() {\n  x)\n}\n");
  CHECK(has_at(*a, "E-PARSE-201", 2, 4)); // `)` with no open `(`
  auto b = parse("axes![A = 8);\n");
  CHECK(has_at(*b, "E-PARSE-201", 1, 12)); // `)` closing `[`
  auto c = parse("fn k() {\n  let a = (b;\n");
  CHECK(has_at(*c, "E-PARSE-201", 1, 8)); // outermost unclosed `{`
}

TEST_CASE("lang parser: E-PARSE-202 nesting and chain limits", "[lang]") {
  std::string deep = "let x = " + std::string(100000, '(') + std::string(100000, ')') + ";\n";
  auto a = parse(deep);
  // The 257th `(` is at column 8 + 257.
  CHECK(has_at(*a, "E-PARSE-202", 1, 8 + 257));
  std::string types = "fn k(a: " + std::string(300, '&') + "u8) {}\n";
  auto b = parse(types);
  CHECK(has_at(*b, "E-PARSE-202", 1, 9 + 256)); // the 257th `&`
  std::string chain = "fn k(a: A) {\n  a";
  for (int i = 0; i < 1100; ++i) chain += ".f()";
  chain += "\n}\n";
  auto c = parse(chain);
  CHECK(has_at(*c, "E-PARSE-202", 2, 4 + 4 * 1024)); // the 1025th `.`
}

TEST_CASE("lang parser: E-PARSE-203 syntax errors at the offending token", "[lang]") {
  auto a = parse("fn k(a: A) {\n  let x = a\n  let y = x;\n}\n");
  CHECK(has_at(*a, "E-PARSE-203", 3, 3)); // expected `;`, found `let`
  auto b = parse("fn k(a A) {}\n");
  CHECK(has_at(*b, "E-PARSE-203", 1, 6)); // parameter without `:`
  auto c = parse("type L m![N];\n");
  CHECK(has_at(*c, "E-PARSE-203", 1, 8));
  auto d = parse("fn k(a: A) {\n  a.contract_packet::<m![1]>;\n}\n");
  CHECK(has_at(*d, "E-PARSE-203", 2, 29)); // `(` expected after the turbofish
  auto e = parse("fn k(a: CollectTensor<bf16; u8>) {}\n");
  CHECK(has_at(*e, "E-PARSE-203", 1, 27));
  auto f = parse("fn k(a: A) -> ; {}\n");
  CHECK(has_at(*f, "E-PARSE-203", 1, 15)); // a type expected, found `;`
}

TEST_CASE("lang parser: E-PARSE-205 control flow in a body", "[lang]") {
  auto a = parse("fn k(a: A) {\n  while x {}\n  a\n}\n");
  CHECK(has_at(*a, "E-PARSE-205", 2, 3));
}

TEST_CASE("lang parser: several independent errors are all reported", "[lang]") {
  auto p = parse("fn k(a: A) {\n  let = a;\n  let b = ;\n  a.;\n  a\n}\n");
  CHECK(has_at(*p, "E-PARSE-203", 2, 7));
  CHECK(has_at(*p, "E-PARSE-203", 3, 11));
  CHECK(has_at(*p, "E-PARSE-203", 4, 5));
  REQUIRE(p->file.ast.fns.size() == 1);
  CHECK(p->file.ast.fns[0].tail.has_value()); // recovered to the tail expression
}

TEST_CASE("lang parser: hostile input never crashes", "[lang]") {
  CHECK(parse("")->file.ast.fns.empty());
  CHECK(parse(std::string(10'000'000, 'a'))->file.ast.fns.empty()); // a 10 MB line
  auto bytes = parse(std::string("fn k(\xff\xfe\x00 a: A) {}", 18));
  CHECK(!all_diags(*bytes).empty());
  auto close = parse(std::string(50000, '}'));
  CHECK(!close->diags.empty());
  auto open = parse(std::string(50000, '{'));
  CHECK(!open->diags.empty());
}

TEST_CASE("lang parser: a shift of two integer literals is one literal", "[lang]") {
  // zip.rs writes an f32 exponent step as `1 << 23`; `-1 << 3` is (−1)·8 as in Rust; a shift
  // past i64 overflows like a literal that does.
  auto p = parse("fn k(a: A) {\n  x.vector_fxp(FxpBinaryOp::AddFxp, 1 << 23, 2 << 23, -1 << 3, "
                 "1 << 63, 3 << 62)\n}\n");
  INFO(dump(*p));
  CHECK(all_diags(*p).empty());
  REQUIRE(p->file.ast.fns.size() == 1);
  const auto& call = p->file.ast.fns[0].tail;
  REQUIRE(call);
  REQUIRE(call->args.size() == 6);
  CHECK(call->args[1].kind == Expr::Kind::Int);
  CHECK(call->args[1].int_value == 8388608);
  CHECK(call->args[2].int_value == 16777216);
  CHECK(call->args[3].int_value == -8);
  CHECK(call->args[4].int_overflow);
  CHECK(call->args[5].int_overflow);
}
