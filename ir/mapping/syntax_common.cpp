#include "ir/mapping/syntax_common.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::ir::syntax_detail {

TokenCursor::TokenCursor(std::span<const Token> toks, std::optional<SourceSpan> end,
                         std::string_view what)
    : toks_(toks), end_(end), what_(what) {
  // Callers may hand over a lexer's whole output: a trailing Eof is the end, not a token.
  while (!toks_.empty() && toks_.back().is(TokenKind::Eof)) {
    if (!end_) end_ = toks_.back().span;
    toks_ = toks_.first(toks_.size() - 1);
  }
  if (!end_ && !toks_.empty()) end_ = SourceSpan{toks_.back().span.end(), 0};
}

std::optional<SourceSpan> TokenCursor::span() const {
  if (const Token* t = peek()) return t->span;
  return end_;
}

std::string TokenCursor::describe() const {
  const Token* t = peek();
  if (t == nullptr) return "the end of the " + what_;
  std::string_view text = t->text;
  if (text.size() > 40) return fmt::format("`{}…`", text.substr(0, 40));
  return fmt::format("`{}`", text);
}

SourceSpan join(SourceSpan a, SourceSpan b) {
  std::uint32_t lo = std::min(a.offset, b.offset);
  std::uint32_t hi = std::max(a.end(), b.end());
  return SourceSpan{lo, hi - lo};
}

Diagnostic parse_error(std::string code, std::string message, std::optional<SourceSpan> at,
                       std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), at, std::move(notes));
  d.stage = "parse";
  return d;
}

Result<std::uint64_t> nat_value(const Token& t) {
  if (!t.is_plain_decimal())
    return parse_error("E-PARSE-105", fmt::format("`{}` is not a plain decimal number", t.text),
                       t.span,
                       {"numbers in mappings are decimal digits only: no `_`, hex or type "
                        "suffix (docs/mapping.md §1.1, §10 D-16)"});
  auto v = t.int_value();
  if (!v)
    return parse_error("E-PARSE-105", fmt::format("`{}` does not fit 64 bits", t.text), t.span,
                       {"numbers in mappings are unsigned 64-bit (docs/mapping.md §1.1)"});
  return *v;
}

Result<SpannedNumber> parse_number_escape(TokenCursor& cur, const MappingContext& ctx) {
  SourceSpan open = cur.span().value_or(SourceSpan{});
  cur.advance(); // `{`
  const Token* t = cur.peek();
  SpannedNumber out;
  auto close = [&](std::size_t at) -> bool { return cur.peek_punct("}", at); };
  if (t && t->is(TokenKind::Int) && close(1)) {
    auto n = nat_value(*t);
    if (!n) return n.diagnostics();
    out.value = *n;
    cur.advance(1);
  } else if (t && t->is(TokenKind::Ident) && close(1)) {
    std::optional<std::uint64_t> v;
    if (ctx.constant) v = ctx.constant(t->text);
    if (!v)
      return parse_error(
          "E-PARSE-108", fmt::format("`{}` names no constant", t->text), t->span,
          {"in number position `{ N }` must name a constant; use "
           "`{ X::SIZE }` for the size of an axis or alias (docs/mapping.md §10 D-15)"});
    out.value = *v;
    cur.advance(1);
  } else if (t && t->is(TokenKind::Ident) && cur.peek_punct("::", 1) && cur.peek(2) &&
             cur.peek(2)->is_ident("SIZE") && close(3)) {
    std::optional<std::uint64_t> v;
    if (ctx.axes)
      if (const Axis* a = ctx.axes->find(t->text)) v = a->size;
    if (!v && ctx.alias)
      if (auto m = ctx.alias(t->text)) v = m->size();
    if (!v)
      return parse_error(
          "E-PARSE-108", fmt::format("`{}` names no axis or mapping alias", t->text), t->span,
          {"`{ X::SIZE }` needs X to be a declared axis or alias (docs/mapping.md §10 "
           "D-15)",
           declared_axes_note(ctx.axes)});
    out.value = *v;
    cur.advance(3);
  } else {
    return parse_error(
        "E-PARSE-108",
        "expected a constant inside `{ }` in number position, found " + cur.describe(), cur.span(),
        {"number escapes are `{ 8 }`, `{ N }` or `{ X::SIZE }` (docs/mapping.md §10 "
         "D-15)"});
  }
  // At the closing `}`.
  out.span = join(open, cur.span().value_or(open));
  cur.advance();
  return out;
}

std::string declared_axes_note(const AxisTable* axes) {
  if (axes == nullptr || axes->axes().empty()) return "no axes are declared";
  std::string s = "declared axes: ";
  bool first = true;
  for (const auto& a : axes->axes()) {
    if (!first) s += ", ";
    first = false;
    s += fmt::format("{} = {}", a.name, a.size);
  }
  return s;
}

} // namespace tujit::ir::syntax_detail
