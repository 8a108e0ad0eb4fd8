// Internals shared by the mapping-language parsers (syntax.cpp, axes_syntax.cpp): a cursor over
// a token span that may or may not end with Eof, literal and escape rules (docs/mapping.md §1.1).
#pragma once

#include "ir/mapping/syntax.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tujit::ir::syntax_detail {

class TokenCursor {
public:
  /// `what` names the construct in "found end of …" messages ("mapping", "axes", "index").
  TokenCursor(std::span<const Token> toks, std::optional<SourceSpan> end, std::string_view what);

  bool at_end() const { return pos_ >= toks_.size(); }
  /// The token `k` places ahead, or null beyond the span.
  const Token* peek(std::size_t k = 0) const {
    return pos_ + k < toks_.size() ? &toks_[pos_ + k] : nullptr;
  }
  bool peek_punct(std::string_view p, std::size_t k = 0) const {
    const Token* t = peek(k);
    return t != nullptr && t->is_punct(p);
  }
  void advance(std::size_t n = 1) { pos_ = std::min(pos_ + n, toks_.size()); }
  std::size_t position() const { return pos_; }
  /// The current token's span, or where the body ends.
  std::optional<SourceSpan> span() const;
  /// "`tok`" or "the end of the mapping".
  std::string describe() const;

private:
  std::span<const Token> toks_;
  std::optional<SourceSpan> end_;
  std::string what_;
  std::size_t pos_ = 0;
};

/// The smallest span covering `a` and `b`.
SourceSpan join(SourceSpan a, SourceSpan b);
inline std::optional<SourceSpan> join(std::optional<SourceSpan> a, SourceSpan b) {
  return a ? join(*a, b) : b;
}

/// NAT (docs/mapping.md §1.1, D-16): decimal digits only, fitting u64.
Result<std::uint64_t> nat_value(const Token& t);

struct SpannedNumber {
  std::uint64_t value = 0;
  SourceSpan span;
};
/// A `{ … }` escape in number position at the cursor (D-15): `{ 8 }`, `{ N }` (a named constant)
/// or `{ X::SIZE }` (an axis, else an alias). Advances past the closing `}` on success.
Result<SpannedNumber> parse_number_escape(TokenCursor& cur, const MappingContext& ctx);

/// "declared axes: A = 8, B = 512" (or "no axes are declared").
std::string declared_axes_note(const AxisTable* axes);

/// A diagnostic of stage "parse".
Diagnostic parse_error(std::string code, std::string message, std::optional<SourceSpan> at,
                       std::vector<std::string> notes = {});

} // namespace tujit::ir::syntax_detail
