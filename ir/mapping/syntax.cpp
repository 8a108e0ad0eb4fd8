// Parser for `m![…]` bodies and `i![…]` indexes (docs/mapping.md §1.2, §2). Recursive descent
// over a token span; groups recurse (bounded by MappingContext::max_depth), `,` chains and
// postfix runs are loops (bounded by MappingContext::max_tree_depth), so no input can overflow
// the stack. The first error stops parsing: one precise diagnostic beats a cascade.
#include "ir/mapping/syntax.h"

#include "ir/mapping/syntax_common.h"

#include <fmt/format.h>

namespace tujit::ir {

namespace {

using syntax_detail::TokenCursor;

enum class Closer : std::uint8_t { End, Paren, Bracket };

class MappingParser {
public:
  MappingParser(std::span<const Token> toks, const MappingContext& ctx, bool index_mode)
      : cur_(toks, ctx.body_end, "mapping"), ctx_(ctx), index_mode_(index_mode) {}

  TokenCursor& cursor() { return cur_; }
  bool failed() const { return diag_.has_value(); }
  Diagnostic take_error() { return std::move(*diag_); }

  /// chain = postfix [ "," [ chain ] ], ended by `closer` (or `:` at the top of an i![…]).
  std::optional<Mapping> parse_chain(Closer closer) {
    std::vector<Mapping> items;
    std::vector<SourceSpan> commas;
    while (true) {
      if (at_chain_end(closer)) {
        if (items.empty()) {
          error("E-PARSE-101",
                "expected a mapping operand (an axis name, a number, `(`, `[` or "
                "`{`), found " +
                    cur_.describe(),
                cur_.span(),
                {closer == Closer::End && cur_.at_end()
                     ? "an empty mapping is not allowed; `1` is the identity (docs/mapping.md §1.2)"
                     : "grammar: chain = postfix [\",\" [chain]] (docs/mapping.md §1.2)"});
          return std::nullopt;
        }
        break;
      }
      auto item = parse_postfix();
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
      if (cur_.peek_punct(",")) {
        commas.push_back(cur_.peek()->span);
        cur_.advance();
        continue;
      }
      if (at_chain_end(closer)) break;
      unexpected_after_operand(closer);
      return std::nullopt;
    }
    // `,` is right-associative: fold from the minor end.
    Mapping m = std::move(items.back());
    for (std::size_t i = items.size() - 1; i-- > 0;) {
      auto p = Mapping::pair(items[i], m);
      if (!p) {
        fail_static(std::move(p).take_diagnostics(), commas[i]);
        return std::nullopt;
      }
      m = std::move(*p);
      if (!check_tree_depth(m, commas[i])) return std::nullopt;
    }
    return m;
  }

  std::optional<Mapping> parse_postfix() {
    auto m = parse_primary();
    if (!m) return std::nullopt;
    while (auto op = parse_op()) {
      auto n = parse_number(op->text);
      if (!n) return std::nullopt;
      SourceSpan whole = syntax_detail::join(op->span, n->span);
      Result<Mapping> r = Mapping();
      switch (op->kind) {
      case OpKind::Stride:
        r = Mapping::stride(*m, n->value);
        break;
      case OpKind::Modulo:
        r = Mapping::modulo(*m, n->value);
        break;
      case OpKind::Resize:
        r = Mapping::resize(*m, n->value);
        break;
      case OpKind::Padding:
        r = Mapping::padding(*m, n->value, op->fill);
        break;
      }
      if (!r) {
        fail_static(std::move(r).take_diagnostics(), whole);
        return std::nullopt;
      }
      m = std::move(*r);
      if (!check_tree_depth(*m, whole)) return std::nullopt;
    }
    if (failed()) return std::nullopt;
    return m;
  }

private:
  enum class OpKind : std::uint8_t { Stride, Modulo, Resize, Padding };
  struct Op {
    OpKind kind;
    PaddingKind fill = PaddingKind::Top;
    SourceSpan span;
    std::string text; // as written, for messages ("/", "#{0}", …)
  };
  struct Number {
    std::uint64_t value;
    SourceSpan span;
  };

  bool at_chain_end(Closer closer) const {
    if (cur_.at_end()) return true;
    if (closer == Closer::Paren && cur_.peek_punct(")")) return true;
    if (closer == Closer::Bracket && cur_.peek_punct("]")) return true;
    return index_mode_ && depth_ == 0 && closer == Closer::End && cur_.peek_punct(":");
  }

  void unexpected_after_operand(Closer closer) {
    const Token& t = *cur_.peek();
    std::string want = "`,`, an operator (`/`, `%`, `=`, `#`)";
    if (closer == Closer::Paren)
      want += " or `)`";
    else if (closer == Closer::Bracket)
      want += " or `]`";
    else if (index_mode_ && depth_ == 0)
      want += " or `:`";
    else
      want += " or the end of the mapping";
    std::vector<std::string> notes;
    if ((t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) && closer != Closer::End) {
      notes.push_back(fmt::format("`{}` does not match the open `{}`", t.text,
                                  closer == Closer::Paren ? "(" : "["));
    } else if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) {
      notes.push_back(fmt::format("`{}` closes nothing", t.text));
    } else if (t.is(TokenKind::Ident) || t.is(TokenKind::Int)) {
      notes.push_back("operands are separated by `,` (docs/mapping.md §1.2)");
    }
    error("E-PARSE-103", "expected " + want + ", found " + cur_.describe(), t.span,
          std::move(notes));
  }

  std::optional<Mapping> parse_primary() {
    if (cur_.at_end()) {
      error("E-PARSE-101",
            "expected a mapping operand (an axis name, a number, `(`, `[` or `{`), found " +
                cur_.describe(),
            cur_.span());
      return std::nullopt;
    }
    const Token& t = *cur_.peek();
    if (t.is(TokenKind::Ident)) {
      cur_.advance();
      return resolve_axis(t);
    }
    if (t.is(TokenKind::Int)) {
      auto n = parse_nat(t);
      if (!n) return std::nullopt;
      cur_.advance();
      auto r = Mapping::broadcast(*n);
      if (!r) {
        fail_static(std::move(r).take_diagnostics(), t.span);
        return std::nullopt;
      }
      return std::move(*r);
    }
    if (t.is_punct("(") || t.is_punct("[")) {
      bool paren = t.is_punct("(");
      if (!enter(t.span)) return std::nullopt;
      cur_.advance();
      auto m = parse_chain(paren ? Closer::Paren : Closer::Bracket);
      if (!m) return std::nullopt;
      if (!expect_closer(paren ? ")" : "]", t.span)) return std::nullopt;
      --depth_;
      return m;
    }
    if (t.is_punct("{")) return parse_operand_escape();
    std::vector<std::string> notes;
    if (t.is_punct(","))
      notes.push_back("a `,` must follow an operand; `,` alone, `,A` and `A,,B` "
                      "are not mappings (docs/mapping.md §1.2)");
    error("E-PARSE-101",
          "expected a mapping operand (an axis name, a number, `(`, `[` or `{`), found " +
              cur_.describe(),
          t.span, std::move(notes));
    return std::nullopt;
  }

  std::optional<Mapping> resolve_axis(const Token& t) {
    const Axis* a = ctx_.axes ? ctx_.axes->find(t.text) : nullptr;
    if (a == nullptr) {
      error("E-PARSE-107", fmt::format("unknown axis `{}`", t.text), t.span,
            {syntax_detail::declared_axes_note(ctx_.axes)});
      return std::nullopt;
    }
    return Mapping::symbol(*a);
  }

  // `{ Alias }`, `{ Axis }` or `{ m![…] }` in operand position (docs/mapping.md §1.1 ESC, D-15).
  std::optional<Mapping> parse_operand_escape() {
    SourceSpan open = cur_.peek()->span;
    if (!enter(open)) return std::nullopt;
    cur_.advance();
    std::optional<Mapping> m;
    const Token* t = cur_.peek();
    if (t && t->is_ident("m") && cur_.peek_punct("!", 1) && cur_.peek_punct("[", 2)) {
      // A nested mapping literal: parse its body in place as a bracket group.
      SourceSpan lit = t->span;
      cur_.advance(3);
      if (!enter(lit)) return std::nullopt;
      m = parse_chain(Closer::Bracket);
      if (!m) return std::nullopt;
      if (!expect_closer("]", lit)) return std::nullopt;
      --depth_;
    } else if (t && t->is(TokenKind::Ident) && !cur_.peek_punct("::", 1)) {
      if (ctx_.alias) m = ctx_.alias(t->text);
      if (!m && ctx_.axes) {
        if (const Axis* a = ctx_.axes->find(t->text)) m = Mapping::symbol(*a);
      }
      if (!m) {
        error("E-PARSE-108", fmt::format("`{}` names no mapping alias or axis", t->text), t->span,
              {"in operand position `{ Name }` must name a previously defined mapping "
               "(docs/mapping.md §10 D-15)"});
        return std::nullopt;
      }
      cur_.advance();
    } else {
      error("E-PARSE-108",
            "expected a mapping alias name or `m![…]` inside `{ }` in operand position, found " +
                cur_.describe(),
            cur_.span(),
            {"operand escapes are `{ Name }` or `{ m![…] }` (docs/mapping.md §1.1, D-15)"});
      return std::nullopt;
    }
    if (!expect_closer("}", open)) return std::nullopt;
    --depth_;
    return m;
  }

  // op = "/" | "%" | "=" | "#" | FILL. Returns nullopt (without error) when no operator follows.
  std::optional<Op> parse_op() {
    const Token* t = cur_.peek();
    if (!t || t->kind != TokenKind::Punct) return std::nullopt;
    Op op{OpKind::Stride, PaddingKind::Top, t->span, std::string(t->text)};
    if (t->text == "/")
      op.kind = OpKind::Stride;
    else if (t->text == "%")
      op.kind = OpKind::Modulo;
    else if (t->text == "=")
      op.kind = OpKind::Resize;
    else if (t->text == "#")
      op.kind = OpKind::Padding;
    else
      return std::nullopt;
    cur_.advance();
    if (op.kind == OpKind::Padding && cur_.peek_punct("{") && cur_.peek_punct("}", 2)) {
      // FILL: `#` then a brace group holding only `*`, `!` or the literal `0` (§1.1); any other
      // brace group is an escape constant (the padding total).
      const Token* inner = cur_.peek(1);
      std::optional<PaddingKind> fill;
      if (inner->is_punct("*"))
        fill = PaddingKind::Top;
      else if (inner->is_punct("!"))
        fill = PaddingKind::Bottom;
      else if (inner->is(TokenKind::Int) && inner->text == "0")
        fill = PaddingKind::Zero;
      if (fill) {
        op.fill = *fill;
        op.span = syntax_detail::join(op.span, cur_.peek(2)->span);
        op.text = fmt::format("#{{{}}}", inner->text);
        cur_.advance(3);
      }
    }
    return op;
  }

  // number = NAT | ESC.
  std::optional<Number> parse_number(const std::string& after) {
    const Token* t = cur_.peek();
    if (t && t->is(TokenKind::Int)) {
      auto n = parse_nat(*t);
      if (!n) return std::nullopt;
      cur_.advance();
      return Number{*n, t->span};
    }
    if (t && t->is_punct("{")) {
      auto n = syntax_detail::parse_number_escape(cur_, ctx_);
      if (!n) {
        diag_ = n.diagnostics().front();
        return std::nullopt;
      }
      return Number{n->value, n->span};
    }
    error("E-PARSE-102",
          fmt::format("expected a number after `{}`, found {}", after, cur_.describe()),
          cur_.span(), {"number = decimal digits | `{ constant }` (docs/mapping.md §1.2)"});
    return std::nullopt;
  }

  std::optional<std::uint64_t> parse_nat(const Token& t) {
    auto n = syntax_detail::nat_value(t);
    if (!n) {
      diag_ = n.diagnostics().front();
      return std::nullopt;
    }
    return *n;
  }

  bool enter(SourceSpan at) {
    if (depth_ >= ctx_.max_depth) {
      error("E-PARSE-106", fmt::format("brackets nest deeper than {} levels", ctx_.max_depth), at,
            {"deeply nested `( )`, `[ ]` or `{ }` groups are refused to bound the parser"});
      return false;
    }
    ++depth_;
    return true;
  }

  bool expect_closer(std::string_view closer, SourceSpan opened_at) {
    if (cur_.peek_punct(closer)) {
      cur_.advance();
      return true;
    }
    error("E-PARSE-104", fmt::format("expected `{}`, found {}", closer, cur_.describe()),
          cur_.span(),
          {fmt::format("the group was opened at offset {} of the mapping", opened_at.offset)});
    return false;
  }

  bool check_tree_depth(const Mapping& m, SourceSpan at) {
    if (m.depth() <= ctx_.max_tree_depth) return true;
    error("E-PARSE-106",
          fmt::format("the mapping is nested more than {} levels deep", ctx_.max_tree_depth), at,
          {"very long `,` chains or operator runs are refused to bound later recursive walks"});
    return false;
  }

  void fail_static(Diagnostics ds, SourceSpan at) {
    Diagnostic d = ds.empty() ? make_error("E-TYPE-300", "invalid mapping") : std::move(ds.front());
    d.span = at;
    d.stage = "parse";
    diag_ = std::move(d);
  }

  void error(std::string code, std::string msg, std::optional<SourceSpan> at,
             std::vector<std::string> notes = {}) {
    if (diag_) return; // keep the first error
    Diagnostic d = make_error(std::move(code), std::move(msg), at, std::move(notes));
    d.stage = "parse";
    diag_ = std::move(d);
  }

  TokenCursor cur_;
  const MappingContext& ctx_;
  bool index_mode_;
  std::size_t depth_ = 0;
  std::optional<Diagnostic> diag_;
};

} // namespace

Result<Mapping> parse_mapping(std::span<const Token> body, const MappingContext& ctx) {
  MappingParser p(body, ctx, /*index_mode=*/false);
  auto m = p.parse_chain(Closer::End);
  if (!m) return p.take_error();
  return std::move(*m);
}

Result<Index> parse_index(std::span<const Token> body, const MappingContext& ctx) {
  // docs/mapping.md §2: start from the empty index; combine each assignment in written order.
  MappingParser p(body, ctx, /*index_mode=*/true);
  TokenCursor& cur = p.cursor();
  Cell cell = Cell::live({});
  while (!cur.at_end()) {
    std::size_t start = cur.position();
    auto m = p.parse_chain(Closer::End);
    if (!m) return p.take_error();
    bool bare_axis = cur.position() == start + 1 && body[start].is(TokenKind::Ident);
    SourceSpan lhs_span = syntax_detail::join(body[start].span, body[cur.position() - 1].span);
    if (!cur.peek_punct(":")) {
      Diagnostic d = make_error(
          "E-PARSE-112",
          "expected `:` and a value after the index mapping, found " + cur.describe(), cur.span(),
          {"index = [assign {\",\" assign} [\",\"]], assign = "
           "mapping \":\" value (docs/mapping.md §1.2)"});
      d.stage = "parse";
      return d;
    }
    cur.advance();
    // Host expressions are limited to a natural number (or a `{ constant }`) here.
    std::uint64_t value = 0;
    SourceSpan value_span = cur.span().value_or(SourceSpan{});
    if (cur.peek() && cur.peek()->is(TokenKind::Int)) {
      auto n = syntax_detail::nat_value(*cur.peek());
      if (!n) return n.diagnostics();
      value = *n;
      cur.advance();
    } else if (cur.peek_punct("{")) {
      auto n = syntax_detail::parse_number_escape(cur, ctx);
      if (!n) return n.diagnostics();
      value = n->value;
      value_span = n->span;
    } else {
      Diagnostic d = make_error("E-PARSE-112",
                                "expected a coordinate value (a natural number) after `:`, found " +
                                    cur.describe(),
                                cur.span());
      d.stage = "parse";
      return d;
    }
    // A bare axis contributes its value unchecked; any other mapping is evaluated (§2).
    Cell c = bare_axis ? Cell::live(Index{{m->axis().name, value}}) : m->map(value);
    if (!c.is_live()) {
      std::string what = c.kind == Cell::Kind::OutOfBounds
                             ? fmt::format("is out of bounds (SIZE {})", m->size())
                             : fmt::format("is {} padding", to_string(c.padding));
      Diagnostic d = make_error(
          "E-TYPE-308", fmt::format("position {} of `{}` {}", value, m->to_string(), what),
          syntax_detail::join(lhs_span, value_span),
          {"an index assignment must select a live cell of its mapping (docs/mapping.md §2)"});
      d.stage = "parse";
      return d;
    }
    cell = combine(cell, c);
    if (cur.at_end()) break;
    if (!cur.peek_punct(",")) {
      Diagnostic d = make_error("E-PARSE-112",
                                "expected `,` or the end of the index after the value, found " +
                                    cur.describe(),
                                cur.span());
      d.stage = "parse";
      return d;
    }
    cur.advance();
    if (!cur.at_end() && cur.peek_punct(",")) {
      Diagnostic d =
          make_error("E-PARSE-112", "expected an index assignment, found `,`", cur.span(),
                     {"doubled commas are not allowed (docs/mapping.md §1.2)"});
      d.stage = "parse";
      return d;
    }
  }
  return std::move(cell.index);
}

Result<Mapping> parse_mapping_text(std::string_view text, const AxisTable& axes,
                                   std::string_view source_name) {
  SourceBuffer src{std::string(source_name), std::string(text)};
  Diagnostics diags;
  std::vector<Token> toks = lex(src, diags);
  if (has_errors(diags)) return diags;
  MappingContext ctx;
  ctx.axes = &axes;
  ctx.body_end = toks.back().span;
  // Token texts view into `src`, which dies here; the parser copies what it keeps (names).
  return parse_mapping(std::span<const Token>(toks.data(), toks.size() - 1), ctx);
}

} // namespace tujit::ir
