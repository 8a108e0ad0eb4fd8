#include "ir/lang/parser_impl.h"

#include <charconv>

// Types, expressions and blocks of the kernel language (docs/kernel-language.md §3: type,
// tensor_type, block, stmt, expr, call, arg).

namespace tujit::ir::lang::detail {

TypeExpr Parser::parse_type(int) {
  DepthGuard g(*this);
  TypeExpr ty;
  ty.span = peek().span;
  if (too_deep()) {
    skip_one();
    return ty;
  }
  while (peek().is(TokenKind::Lifetime)) ++p_;
  const Token& tk = peek();
  ty.span = tk.span;
  if (tk.is_punct("&")) {
    ++p_;
    while (peek().is(TokenKind::Lifetime)) ++p_;
    const bool mut = at_ident("mut");
    if (mut) ++p_;
    TypeExpr inner = parse_type(0);
    inner.is_ref = true;
    inner.is_mut_ref = mut;
    inner.span = join(tk.span, inner.span);
    return inner;
  }
  if (tk.is_ident("m") && at_punct("!", 1)) return parse_mapping_type(tk);
  if (tk.is_ident("_")) {
    ++p_;
    ty.kind = TypeExpr::Kind::Infer;
    return ty;
  }
  if (tk.is_punct("{")) {
    std::size_t close = close_of(p_);
    ++p_;
    TypeExpr inner = parse_type(0);
    if (p_ != close) expected("`}` after the braced type", peek());
    p_ = close + 1;
    inner.braced = true;
    inner.span = join(tk.span, tok(close).span);
    return inner;
  }
  if (tk.is_punct("(") || tk.is_punct("[")) {
    std::size_t close = close_of(p_);
    ty.span = join(tk.span, tok(close).span);
    p_ = close + 1;
    return ty; // unit, tuples, arrays: not kernel-language types
  }
  if (tk.is(TokenKind::Int)) {
    ++p_;
    return ty;
  }
  if (tk.kind != TokenKind::Ident) {
    expected("a type", tk);
    return ty;
  }
  return parse_named_type(tk);
}

// `m![…]`: the body's tokens, parsed later by the mapping parser (docs/mapping.md §1.2).
TypeExpr Parser::parse_mapping_type(const Token& tk) {
  TypeExpr ty;
  ty.span = tk.span;
  if (!is_opener(peek(2))) {
    p_ += 2;
    expected("`[` after `m!`", peek());
    return ty;
  }
  std::size_t open = p_ + 2;
  std::size_t close = close_of(open);
  ty.kind = TypeExpr::Kind::Mapping;
  ty.body.assign(t_.begin() + static_cast<std::ptrdiff_t>(open + 1),
                 t_.begin() + static_cast<std::ptrdiff_t>(close));
  ty.span = join(tk.span, tok(close).span);
  p_ = close + 1;
  return ty;
}

// A named type: an alias, a scalar, a generic parameter or a tensor type with its arguments
// (docs/kernel-language.md §5); `a::b::C` paths keep their last segment.
TypeExpr Parser::parse_named_type(const Token& tk) {
  TypeExpr ty;
  ty.kind = TypeExpr::Kind::Name;
  if (at_punct("::", 1) && peek(2).is(TokenKind::Ident) && !at_punct("::", 0)) {
    while (peek().kind == TokenKind::Ident && at_punct("::", 1) && peek(2).kind == TokenKind::Ident)
      p_ += 2;
    ty.is_path = true;
  }
  ty.name = std::string(peek().text);
  ty.span = join(tk.span, peek().span);
  ++p_;
  if (at_punct("<")) {
    ty.has_args = true;
    ++p_;
    while (true) {
      skip_lifetime_args();
      if (at_punct(">")) break;
      std::size_t before = p_;
      ty.args.push_back(parse_type(0));
      if (p_ == before) return ty; // parse_type reported the problem
      if (at_punct(",")) {
        ++p_;
        continue;
      }
      if (at_punct(">")) break;
      expected(fmt::format("`,` or `>` in the arguments of `{}`", ty.name), peek());
      return ty;
    }
    ty.span = join(ty.span, peek().span);
    ++p_; // >
  }
  return ty;
}

bool Parser::parse_turbofish(std::vector<TypeExpr>& out) {
  p_ += 2; // :: <
  while (true) {
    skip_lifetime_args();
    if (at_punct(">")) {
      ++p_;
      return true;
    }
    std::size_t before = p_;
    out.push_back(parse_type(0));
    if (p_ == before) return false;
    if (at_punct(",")) {
      ++p_;
      continue;
    }
    if (at_punct(">")) {
      ++p_;
      return true;
    }
    expected("`,` or `>` in the type arguments", peek());
    return false;
  }
}

Expr Parser::parse_expr() {
  DepthGuard g(*this);
  if (too_deep()) {
    Expr e;
    e.span = peek().span;
    skip_one();
    return e;
  }
  Expr e = parse_primary();
  std::size_t links = 0;
  while (true) {
    // Each link nests the AST one level (and sema recurses on it): bound the chain length.
    if ((at_punct("?") || at_punct(".")) && ++links > kMaxChainLength) {
      error("E-PARSE-202", fmt::format("method chain longer than {} calls", kMaxChainLength),
            peek().span,
            {"kernel chains have about ten calls; tujit refuses longer ones rather than "
             "recurse without bound"});
      while (p_ < eof_ && !at_punct(";") && !is_closer(peek())) skip_one();
      return e;
    }
    if (at_punct("?")) {
      e.span = join(e.span, peek().span);
      ++p_;
      continue;
    }
    if (!at_punct(".")) break;
    const Token& nm = peek(1);
    if (nm.is(TokenKind::Int)) { // tuple field
      Expr f;
      f.kind = Expr::Kind::Other;
      f.span = join(e.span, nm.span);
      f.inner = std::make_unique<Expr>(std::move(e));
      e = std::move(f);
      p_ += 2;
      continue;
    }
    if (nm.kind != TokenKind::Ident) {
      expected("a method or field name after `.`", nm);
      ++p_;
      break;
    }
    p_ += 2;
    Expr call;
    call.name = std::string(nm.text);
    call.name_span = nm.span;
    call.inner = std::make_unique<Expr>(std::move(e));
    if (at_punct("::") && at_punct("<", 1)) {
      call.has_turbofish = true;
      if (!parse_turbofish(call.targs)) {
        call.kind = Expr::Kind::MethodCall;
        call.span = join(call.name_span, tok(p_ > 0 ? p_ - 1 : 0).span);
        return call;
      }
    }
    if (at_punct("(")) {
      call.kind = Expr::Kind::MethodCall;
      std::size_t close = close_of(p_);
      ++p_;
      parse_args(close, call.args);
      p_ = close + 1;
      call.span = join(call.name_span, tok(close).span);
    } else if (call.has_turbofish) {
      expected(fmt::format("`(` after `{}::<…>`", call.name), peek());
      call.kind = Expr::Kind::MethodCall;
      call.span = call.name_span;
    } else {
      call.kind = Expr::Kind::Field;
      call.span = join(call.inner->span, nm.span);
    }
    e = std::move(call);
  }
  return e;
}

void Parser::parse_args(std::size_t close, std::vector<Expr>& out) {
  while (p_ < close) {
    std::size_t before = p_;
    std::size_t errs = cur_->size();
    out.push_back(parse_expr());
    if (cur_->size() != errs || p_ == before) {
      p_ = close;
      return;
    }
    if (at_punct(",")) {
      ++p_;
    } else if (p_ != close) {
      expected("`,` or `)` after an argument", peek());
      p_ = close;
      return;
    }
  }
}

bool Parser::parse_args_quietly(std::size_t close, std::vector<Expr>& out) {
  const std::size_t start = p_, errors = cur_->size(), reported = reported_;
  ++p_;
  parse_args(close, out);
  if (cur_->size() == errors && p_ == close) return true;
  cur_->resize(errors); // not a kernel-language argument list: driver code, no diagnostic
  reported_ = reported;
  out.clear();
  p_ = start;
  return false;
}

bool Parser::parse_tuple(Expr& e) {
  const std::size_t open = p_, close = close_of(p_);
  if (close == open + 1) { // `()`: pair mode's "skip this group" (docs/vector-engine.md §3.5)
    e.kind = Expr::Kind::Tuple;
    e.span = join(tok(open).span, tok(close).span);
    p_ = close + 1;
    return true;
  }
  std::vector<Expr> items;
  if (!parse_args_quietly(close, items) || items.empty()) return false;
  const bool trailing_comma = tok(close - 1).is_punct(",");
  p_ = close + 1;
  if (items.size() == 1 && !trailing_comma) { // `(x)`: parentheses only group
    Expr inner = std::move(items.front());
    inner.span = join(tok(open).span, tok(close).span);
    e = std::move(inner);
    return true;
  }
  e.kind = Expr::Kind::Tuple;
  e.span = join(tok(open).span, tok(close).span);
  e.args = std::move(items);
  return true;
}

bool Parser::parse_array(Expr& e) {
  // `[a, b]`; any other bracketed form (`[0; 4]`, driver code) stays an opaque expression.
  const std::size_t open = p_, close = close_of(p_);
  if (close == open + 1) { // `()`: pair mode's "skip this group" (docs/vector-engine.md §3.5)
    e.kind = Expr::Kind::Tuple;
    e.span = join(tok(open).span, tok(close).span);
    p_ = close + 1;
    return true;
  }
  std::vector<Expr> items;
  if (!parse_args_quietly(close, items) || items.empty()) return false;
  p_ = close + 1;
  e.kind = Expr::Kind::Array;
  e.span = join(tok(open).span, tok(close).span);
  e.args = std::move(items);
  return true;
}

void Parser::parse_float_literal(const Token& tk, Expr& e) {
  // `2.0f32`, `1_000.5`, `1e-3`: digits, `.`, exponent; the type suffix and `_` are dropped.
  std::string text;
  for (char c : tk.text) {
    if (c == '_') continue;
    if (c == 'f' && (text.empty() || text.back() != 'e')) break; // f32 / f64 suffix
    text.push_back(c);
  }
  e.kind = Expr::Kind::Float;
  e.float_text = text;
  std::from_chars(text.data(), text.data() + text.size(), e.float_value);
}

// `a << b` of two integer literals (the reference's zip.rs writes an exponent step as `1 << 23`):
// folded into one literal, the only operator the kernel language reads (docs/kernel-language.md
// §6). The two `<` are adjacent, so a generic `<` never starts it; a shift of 63 or more, or
// a result past i64, is an overflowing literal like any other (E-VE-015 where it is used).
void Parser::fold_shift(Expr& e) {
  const Token& a = peek();
  const Token& b = peek(1);
  if (!a.is_punct("<") || !b.is_punct("<") || a.span.end() != b.span.offset ||
      !peek(2).is(TokenKind::Int))
    return;
  const Token& n = peek(2);
  p_ += 3;
  e.span = join(e.span, n.span);
  const auto by = n.int_value();
  if (e.int_overflow || !by || *by >= 63 ||
      e.int_value > (std::numeric_limits<std::int64_t>::max() >> *by)) {
    e.int_overflow = true;
    return;
  }
  e.int_value <<= *by;
}

Expr Parser::parse_primary() {
  Expr e;
  const Token& tk = peek();
  e.span = tk.span;
  if (tk.is_punct("&")) {
    ++p_;
    e.kind = Expr::Kind::Ref;
    if (at_ident("mut")) {
      e.ref_mut = true;
      ++p_;
    }
    Expr inner = parse_expr();
    e.span = join(tk.span, inner.span);
    e.inner = std::make_unique<Expr>(std::move(inner));
    return e;
  }
  if (tk.is_punct("-") && (peek(1).is(TokenKind::Int) || peek(1).is(TokenKind::Float))) {
    ++p_;
    Expr v = parse_primary();
    v.int_value = -v.int_value;
    v.float_value = -v.float_value;
    if (v.kind == Expr::Kind::Float) v.float_text = "-" + v.float_text;
    v.span = join(tk.span, v.span);
    return v;
  }
  if (tk.is_punct("-") && peek(1).is(TokenKind::Ident)) {
    // `-offset`: the negation of a constant bound by `let` (folded by the typer).
    ++p_;
    Expr inner = parse_primary();
    e.kind = Expr::Kind::Neg;
    e.span = join(tk.span, inner.span);
    e.inner = std::make_unique<Expr>(std::move(inner));
    return e;
  }
  if (tk.is(TokenKind::Float)) {
    ++p_;
    parse_float_literal(tk, e);
    return e;
  }
  if (tk.is(TokenKind::Int)) {
    ++p_;
    e.kind = Expr::Kind::Int;
    auto v = tk.int_value();
    if (!v || *v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      e.int_overflow = true;
    else
      e.int_value = static_cast<std::int64_t>(*v);
    fold_shift(e);
    return e;
  }
  if (tk.is(TokenKind::String) || tk.is(TokenKind::Char)) {
    ++p_;
    return e;
  }
  if (tk.is_punct("(") && parse_tuple(e)) return e;
  if (tk.is_punct("[") && parse_array(e)) return e;
  if (tk.is_punct("(") || tk.is_punct("[") || tk.is_punct("{")) {
    std::size_t close = close_of(p_);
    e.span = join(tk.span, tok(close).span);
    p_ = close + 1;
    return e;
  }
  if (tk.is_ident("unsafe") && at_punct("{", 1)) {
    // `unsafe { v.reshape::<…>() }`: the block's one expression (VrfTensor::reshape is unsafe).
    const std::size_t close = close_of(p_ + 1);
    p_ += 2;
    Expr inner = parse_expr();
    if (p_ == close) {
      p_ = close + 1;
      return inner;
    }
    e.span = join(tk.span, tok(close).span);
    p_ = close + 1;
    return e;
  }
  if (tk.kind != TokenKind::Ident || tk.is_ident("let") || tk.is_ident("fn")) {
    expected("an expression", tk);
    if (!is_closer(tk) && !tk.is_punct(";")) ++p_;
    return e;
  }
  return parse_path(tk);
}

// A path: `a`, `LaneMode::Interleaved`, `Tensor::zero`, `Vec::<u8>::new`; a name, a lane mode, or
// driver code (a macro or function call) the kernel language passes over.
Expr Parser::parse_path(const Token& tk) {
  Expr e;
  e.span = tk.span;
  std::size_t segments = 1;
  std::string first(tk.text);
  ++p_;
  std::string last = first;
  SourceSpan last_span = tk.span;
  e.path.push_back(first);
  while (at_punct("::")) {
    if (at_punct("<", 1)) {
      std::vector<TypeExpr> ignored;
      if (!parse_turbofish(ignored)) return e;
      continue;
    }
    if (!peek(1).is(TokenKind::Ident)) {
      expected("an identifier after `::`", peek(1));
      ++p_;
      return e;
    }
    last = std::string(peek(1).text);
    last_span = peek(1).span;
    e.path.push_back(last);
    p_ += 2;
    ++segments;
  }
  e.span = join(tk.span, last_span);
  if (segments == 2 && first == "LaneMode") {
    e.kind = Expr::Kind::LaneMode;
    e.name = last;
    e.name_span = last_span;
    return e;
  }
  if (at_punct("!") && segments == 1) { // macro call: driver code
    ++p_;
    if (is_opener(peek())) {
      std::size_t close = close_of(p_);
      e.span = join(tk.span, tok(close).span);
      p_ = close + 1;
    }
    return e;
  }
  if (at_punct("(")) { // free function or associated function call
    std::size_t close = close_of(p_);
    e.span = join(tk.span, tok(close).span);
    e.name = last;
    e.name_span = last_span;
    // A free call `f(a, &b)` keeps its arguments when they parse (driver code calling a kernel);
    // `FpBinaryOp::MulF(FpMulAlu::Mul0)`, `DmTensor::new()`: arguments a kernel body may use.
    // Anything else (closures, macros) stays an opaque call.
    std::vector<Expr> args;
    if (parse_args_quietly(close, args)) {
      if (segments > 1) e.kind = Expr::Kind::PathCall;
      e.args = std::move(args);
    }
    p_ = close + 1;
    return e;
  }
  // `Path { field: value, … }`: a struct literal (docs/kernel-language.md §3); `{ IDENT :` tells it
  // from a block after a name.
  if (at_punct("{") && peek(1).is(TokenKind::Ident) && peek(2).is_punct(":")) {
    e.name = last;
    e.name_span = last_span;
    parse_struct_literal(tk.span, e);
    return e;
  }
  if (segments > 1) {
    e.kind = Expr::Kind::Path;
    e.name = last;
    e.name_span = last_span;
    // A struct-like variant `TagMode::AxisToggle { axis: Ident::I }`: its fields stay unparsed
    // (the kernel language names such a variant only to refuse it).
    if (segments == 2 && at_punct("{") && !first.empty() && first[0] >= 'A' && first[0] <= 'Z') {
      const std::size_t close = close_of(p_);
      e.span = join(tk.span, tok(close).span);
      p_ = close + 1;
    }
    return e;
  }
  e.kind = Expr::Kind::Name;
  e.name = first;
  e.name_span = tk.span;
  return e;
}

void Parser::parse_struct_literal(SourceSpan start, Expr& e) {
  const std::size_t close = close_of(p_);
  e.kind = Expr::Kind::StructLit;
  e.span = join(start, tok(close).span);
  ++p_;
  while (p_ < close) {
    if (!peek().is(TokenKind::Ident) || !peek(1).is_punct(":")) {
      expected("`field: value` in a struct literal", peek());
      break;
    }
    e.field_names.emplace_back(peek().text);
    e.field_spans.push_back(peek().span);
    p_ += 2;
    const std::size_t errors = cur_->size();
    e.args.push_back(parse_expr());
    if (cur_->size() != errors) break;
    if (at_punct(",")) {
      ++p_;
    } else if (p_ != close) {
      expected("`,` or `}` after a field of a struct literal", peek());
      break;
    }
  }
  p_ = close + 1;
}

void Parser::parse_stmt(std::size_t end, FnItem& fn) {
  const Token& tk = peek();
  if (tk.is_ident("let")) {
    parse_let(end, fn);
    return;
  }
  if (tk.is_punct("#") || tk.is_punct(";")) {
    parse_item_if_any(end);
    return;
  }
  if (tk.kind == TokenKind::Ident) {
    static constexpr std::string_view kItemWords[] = {
        "fn",    "type", "const",  "use",    "pub",         "struct", "enum",   "impl",
        "trait", "mod",  "static", "extern", "macro_rules", "axes",   "unsafe", "async"};
    for (auto w : kItemWords) {
      if (tk.text != w) continue;
      if (w == "axes" && !at_punct("!", 1)) break;
      if (w == "unsafe" && at_punct("{", 1)) break; // an `unsafe { … }` expression
      std::size_t start = p_;
      if (!parse_item_if_any(end)) skip_stmt(end, &fn.skipped_refused);
      if (p_ == start) ++p_;
      return;
    }
    if (tk.text == "for") {
      parse_for(end, fn);
      return;
    }
    static constexpr std::string_view kControl[] = {"if",    "for",    "while", "loop",
                                                    "match", "return", "break", "continue"};
    for (auto w : kControl) {
      if (tk.text != w) continue;
      error("E-PARSE-205", fmt::format("`{}` is not part of the kernel language", tk.text), tk.span,
            {"a kernel body is a sequence of `let` bindings and method chains "
             "(docs/kernel-language.md §3)"});
      skip_stmt(end, &fn.skipped_refused);
      return;
    }
    if (at_punct("!", 1)) { // macro statement (println!, assert!): driver code
      skip_stmt(end, &fn.skipped_refused);
      return;
    }
  }
  std::size_t start = p_;
  std::size_t errs = cur_->size();
  Expr e = parse_expr();
  if (cur_->size() != errs) {
    skip_stmt(end, &fn.skipped_refused);
    return;
  }
  Stmt s;
  s.kind = Stmt::Kind::Expr;
  s.span = e.span;
  if (at_punct(";")) {
    ++p_;
    s.value = std::move(e);
    fn.body.push_back(std::move(s));
    return;
  }
  if (p_ >= end) {
    fn.tail = std::move(e);
    return;
  }
  (void)start;
  expected("`;` or `}` after the expression", peek());
  skip_stmt(end, &fn.skipped_refused);
}

void Parser::parse_let(std::size_t end, FnItem& fn) {
  Stmt s;
  s.kind = Stmt::Kind::Let;
  s.span = peek().span;
  ++p_; // let
  if (at_ident("mut")) ++p_;
  const Token& nm = peek();
  if (nm.kind != TokenKind::Ident) {
    expected("a name after `let`", nm);
    skip_stmt(end, &fn.skipped_refused);
    return;
  }
  s.name = std::string(nm.text);
  s.name_span = nm.span;
  ++p_;
  std::size_t errs = cur_->size();
  if (at_punct(":")) {
    ++p_;
    s.annotation = parse_type(0);
    if (cur_->size() != errs) {
      skip_stmt(end, &fn.skipped_refused);
      return;
    }
  }
  if (at_punct("=")) {
    ++p_;
    s.value = parse_expr();
    if (cur_->size() != errs) {
      skip_stmt(end, &fn.skipped_refused);
      return;
    }
    s.span = join(s.span, s.value->span);
  }
  if (!at_punct(";")) {
    expected("`;` after the `let` statement", peek());
    skip_stmt(end, &fn.skipped_refused);
    return;
  }
  ++p_;
  fn.body.push_back(std::move(s));
}

std::optional<LoopBound> Parser::parse_loop_bound() {
  const Token& tk = peek();
  LoopBound b;
  b.span = tk.span;
  std::size_t last = p_;
  if (tk.is_punct("(")) {
    last = close_of(p_);
  } else if (tk.is(TokenKind::Ident) && at_punct("::", 1) && peek(2).is(TokenKind::Ident)) {
    last = p_ + 2; // NAME::SIZE
  } else if (!tk.is(TokenKind::Int) && !tk.is(TokenKind::Ident)) {
    expected("an integer literal, a `const` or a parenthesised constant expression as a bound of "
             "the loop's range",
             tk);
    return std::nullopt;
  }
  b.tokens.assign(t_.begin() + static_cast<std::ptrdiff_t>(p_),
                  t_.begin() + static_cast<std::ptrdiff_t>(last + 1));
  b.span = join(tk.span, tok(last).span);
  p_ = last + 1;
  return b;
}

void Parser::parse_for(std::size_t end, FnItem& fn) {
  Stmt s;
  s.kind = Stmt::Kind::For;
  s.span = peek().span;
  ++p_; // for
  const std::size_t errs = cur_->size();
  if (!peek().is(TokenKind::Ident) || at_ident("in")) {
    expected("a loop variable after `for`", peek());
  } else {
    s.name = std::string(peek().text);
    s.name_span = peek().span;
    ++p_;
    if (!at_ident("in")) expected("`in` after the loop variable", peek());
  }
  if (cur_->size() == errs) {
    ++p_; // in
    s.from = parse_loop_bound();
  }
  if (cur_->size() == errs) {
    // `..` is two `.` tokens; `..=` and other ranges are outside the language.
    if (!at_punct(".") || !at_punct(".", 1) || at_punct("=", 2))
      expected("`..` in the loop's range `FROM..TO`", peek());
    else
      p_ += 2;
  }
  if (cur_->size() == errs) s.to = parse_loop_bound();
  if (cur_->size() == errs && !at_punct("{")) expected("`{` to start the loop body", peek());
  if (cur_->size() != errs) {
    skip_stmt(end, &fn.skipped_refused);
    return;
  }
  const std::size_t close = close_of(p_);
  p_ += 1;
  FnItem inner;
  parse_block(close, inner);
  p_ = close + 1;
  s.span = join(s.span, tok(close).span);
  s.body = std::move(inner.body);
  if (inner.tail) { // `for … { x.commit_view(v) }`: the unit value is the statement
    Stmt t;
    t.kind = Stmt::Kind::Expr;
    t.span = inner.tail->span;
    t.value = std::move(inner.tail);
    s.body.push_back(std::move(t));
  }
  for (auto& r : inner.skipped_refused) fn.skipped_refused.push_back(std::move(r));
  fn.body.push_back(std::move(s));
}

} // namespace tujit::ir::lang::detail
