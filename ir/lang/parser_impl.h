// Internal to the kernel-language parser (ir/lang/parser.cpp, parser_syntax.cpp): the Parser
// class shared by its two translation units. Not for use outside ir/lang/.
#pragma once

#include "ir/lang/parser.h"

#include <fmt/format.h>

#include <limits>

namespace tujit::ir::lang::detail {

inline constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

inline bool is_opener(const Token& t) {
  return t.kind == TokenKind::Punct && (t.text == "(" || t.text == "[" || t.text == "{");
}
inline bool is_closer(const Token& t) {
  return t.kind == TokenKind::Punct && (t.text == ")" || t.text == "]" || t.text == "}");
}
inline char closer_for(std::string_view opener) {
  return opener == "(" ? ')' : opener == "[" ? ']' : '}';
}

inline SourceSpan join(SourceSpan a, SourceSpan b) {
  if (b.end() < a.offset) return a;
  return SourceSpan{a.offset, b.end() - a.offset};
}
class Parser {
public:
  Parser(std::span<const Token> tokens, Diagnostics& diags) : t_(tokens), file_diags_(diags) {
    eof_ = t_.empty() ? 0 : t_.size() - 1;
    cur_ = &file_diags_;
    match_brackets();
  }

  ParsedFile run() {
    parse_items(eof_, /*in_body=*/false);
    return std::move(out_);
  }

private:
  // ---- tokens ---------------------------------------------------------------------------------
  const Token& tok(std::size_t i) const { return t_[i < eof_ ? i : eof_]; }
  const Token& peek(std::size_t k = 0) const { return tok(p_ + k); }
  bool at_punct(std::string_view p, std::size_t k = 0) const { return peek(k).is_punct(p); }
  bool at_ident(std::string_view n, std::size_t k = 0) const { return peek(k).is_ident(n); }
  /// The closer of the group opened at `i` (eof_ when unbalanced).
  std::size_t close_of(std::size_t i) const {
    if (i >= match_.size() || match_[i] == kNone || match_[i] < i) return eof_;
    return match_[i];
  }

  static std::string describe(const Token& t) {
    if (t.kind == TokenKind::Eof) return "end of file";
    std::string_view s = t.text;
    if (s.size() > 24) return fmt::format("`{}…`", s.substr(0, 24));
    return fmt::format("`{}`", s);
  }

  void error(std::string code, std::string msg, SourceSpan span,
             std::vector<std::string> notes = {}) {
    // Only the first ~20 are shown (kernel.cpp); a garbage file must not fill memory.
    if (++reported_ > kMaxParseDiagnostics) return;
    Diagnostic d = make_error(std::move(code), std::move(msg), span, std::move(notes));
    d.stage = "parse";
    cur_->push_back(std::move(d));
  }
  void expected(std::string_view what, const Token& found) {
    error("E-PARSE-203", fmt::format("expected {}, found {}", what, describe(found)), found.span);
  }

  // ---- brackets (iterative: never recurses, so 100k-deep nesting is safe) -------------------
  void match_brackets();

  // ---- skipping ---------------------------------------------------------------------------
  /// Skips one statement of driver code (or after an error) up to and including `;` at this
  /// level, or up to `end`. A brace group ends the statement unless a `.`/`?`/`;`/`else`
  /// continues it. Records refused operations seen as `.name` (warnings when in driver code).
  void skip_stmt(std::size_t end, std::vector<std::pair<std::string, SourceSpan>>* refused);

  void scan_refused(std::size_t from, std::size_t to,
                    std::vector<std::pair<std::string, SourceSpan>>& out) const {
    for (std::size_t i = from; i + 1 < to && i + 1 < eof_; ++i) {
      if (t_[i].is_punct(".") && t_[i + 1].is(TokenKind::Ident) &&
          is_refused_operation(t_[i + 1].text))
        out.emplace_back(std::string(t_[i + 1].text), t_[i + 1].span);
    }
  }

  /// Whether the attribute at `#` is `#[device…]` (the reference's kernel entry points).
  bool at_device_attribute() const { return at_punct("[", 1) && peek(2).is_ident("device"); }
  /// Whether the attribute at `#` is `#[cfg(test)]`: the item is not part of the program.
  bool at_cfg_test_attribute() const {
    return at_punct("[", 1) && peek(2).is_ident("cfg") && at_punct("(", 3) &&
           peek(4).is_ident("test") && at_punct(")", 5);
  }

  /// Skips `#[…]` / `#![…]`. At `#`.
  void skip_attribute() {
    ++p_;
    if (at_punct("!")) ++p_;
    if (at_punct("[")) p_ = close_of(p_) + 1;
  }

  // ---- items ------------------------------------------------------------------------------
  /// Items (and, inside fn bodies that are not kernels, driver statements) up to `end`.
  void parse_items(std::size_t end, bool in_body) {
    while (p_ < end) {
      std::size_t before = p_;
      if (!in_body && module_ == 0 && at_ident("let"))
        parse_driver_let(end);
      else if (!parse_item_if_any(end))
        skip_stmt(end, &out_.ast.skipped_refused);
      if (p_ == before) ++p_; // progress guarantee
    }
  }

  /// A top-level `let` of driver code (FileAst::driver). Driver code tujit cannot parse is no
  /// error: it is skipped, as before the driver was read.
  void parse_driver_let(std::size_t end) {
    const std::size_t start = p_;
    Diagnostics scratch;
    Diagnostics* saved = cur_;
    cur_ = &scratch;
    FnItem one;
    parse_let(end, one);
    cur_ = saved;
    if (has_errors(scratch) || one.body.empty()) {
      p_ = start;
      skip_stmt(end, &out_.ast.skipped_refused);
      return;
    }
    scan_refused(start, p_, out_.ast.skipped_refused);
    out_.ast.driver.body.push_back(std::move(one.body.front()));
  }

  /// Parses one item if the tokens at p_ start one; false when they do not (caller skips).
  bool parse_item_if_any(std::size_t end);

  /// Diagnostics of file-global items go to the file, not to the enclosing fn body.
  struct FileScope {
    Parser& p;
    Diagnostics* saved;
    explicit FileScope(Parser& pp) : p(pp), saved(pp.cur_) { p.cur_ = &p.file_diags_; }
    ~FileScope() { p.cur_ = saved; }
    FileScope(const FileScope&) = delete;
    FileScope& operator=(const FileScope&) = delete;
  };

  void parse_axes_decl(std::size_t end);

  // ---- modules and imports (parser_modules.cpp, docs/kernel-language.md §1.2) ---------------
  /// `mod NAME { items }` or `mod NAME;`. At `mod`; false when no module name follows.
  bool parse_mod(std::size_t end);
  /// `use TREE;`: every name it imports, into FileAst::uses. At `use`.
  void parse_use(std::size_t end);
  /// One use tree after `prefix` (`a::b::`): a name, `name as other`, `*` or `{ trees }`.
  bool parse_use_tree(std::vector<std::string>& prefix, SourceSpan prefix_span,
                      std::vector<UseName>& out);
  /// Records a named item outside the kernel language (`struct S`, `enum E`, …) at p_.
  void note_other_item();

  void parse_type_alias(std::size_t end);

  void parse_const(std::size_t end);

  /// Skips `<…>` counting angle brackets (generics of aliases we do not need).
  void skip_generics();

  /// `<'l, const T: Tu, B: Backend>`: the names of const and type generics.
  std::vector<std::string> parse_generics();

  void parse_fn();

  void parse_params(std::size_t close, FnItem& fn);

  // ---- types ------------------------------------------------------------------------------
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& pp) : p(pp) { ++p.depth_; }
    ~DepthGuard() { --p.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };
  bool too_deep() {
    if (depth_ <= kMaxNesting) return false;
    if (!too_deep_reported_) {
      too_deep_reported_ = true;
      error("E-PARSE-202", fmt::format("nesting deeper than {} levels", kMaxNesting), peek().span);
    }
    return true;
  }
  /// After a too-deep cut: skip the current token (or its whole group).
  void skip_one() {
    if (is_opener(peek()))
      p_ = close_of(p_) + 1;
    else
      ++p_;
  }

  TypeExpr parse_type(int);
  TypeExpr parse_mapping_type(const Token& m);
  TypeExpr parse_named_type(const Token& name);

  /// Lifetime arguments (`'l,`) carry no meaning for tujit.
  void skip_lifetime_args() {
    while (peek().is(TokenKind::Lifetime)) {
      ++p_;
      if (at_punct(",")) ++p_;
    }
  }

  /// `::<A, B, …>` after a method name. At `::`.
  bool parse_turbofish(std::vector<TypeExpr>& out);

  // ---- expressions ------------------------------------------------------------------------
  Expr parse_expr();

  void parse_args(std::size_t close, std::vector<Expr>& out);
  /// At the `(` of `close`: parses the arguments; on any parse error restores the position and
  /// the diagnostics and returns false (driver code outside the kernel language).
  bool parse_args_quietly(std::size_t close, std::vector<Expr>& out);
  /// At `(`: a tuple `(a, b)` (Expr::Kind::Tuple) or a parenthesised expression; false when the
  /// contents are not kernel-language expressions.
  bool parse_tuple(Expr& e);
  /// At `[`: an array `[a, b]` (Expr::Kind::Array); false when the contents are not
  /// kernel-language expressions (`[0; 4]`).
  bool parse_array(Expr& e);
  void parse_float_literal(const Token& tk, Expr& e);

  void fold_shift(Expr& e);
  Expr parse_primary();
  Expr parse_path(const Token& first);
  void parse_struct_literal(SourceSpan start, Expr& e);

  // ---- blocks -----------------------------------------------------------------------------
  void parse_block(std::size_t end, FnItem& fn) {
    while (p_ < end) {
      std::size_t before = p_;
      parse_stmt(end, fn);
      if (p_ == before) ++p_;
    }
  }

  void parse_stmt(std::size_t end, FnItem& fn);

  void parse_let(std::size_t end, FnItem& fn);

  /// `for NAME in FROM..TO { … }` with constant bounds (docs/kernel-language.md §3.1): the body
  /// parsed as a block of its own; the typer unrolls it.
  void parse_for(std::size_t end, FnItem& fn);
  std::optional<LoopBound> parse_loop_bound();

  std::span<const Token> t_;
  Diagnostics& file_diags_;
  Diagnostics* cur_;
  std::vector<std::size_t> match_;
  std::size_t eof_ = 0;
  std::size_t p_ = 0;
  std::size_t depth_ = 0;
  bool too_deep_reported_ = false;
  /// A `#[device…]` attribute seen since the last fn: the next fn is a device fn.
  bool pending_device_ = false;
  /// A `#[cfg(test)]` attribute right before the item being parsed: a `mod` it marks is skipped.
  bool pending_cfg_test_ = false;
  /// The module (FileAst::modules) whose items are being parsed.
  std::size_t module_ = 0;
  /// Fn bodies being parsed: a `mod` or `use` inside one is not a module item.
  std::size_t body_depth_ = 0;
  std::size_t reported_ = 0;
  static constexpr std::size_t kMaxParseDiagnostics = 5000;
  ParsedFile out_;
};

} // namespace tujit::ir::lang::detail
