// Tokens of the kernel spec language and of `m![…]` text (docs/kernel-language.md §2,
// docs/mapping.md §1.1). One lexer serves both: mapping text is a token stream like Rust's.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tujit::ir {

enum class TokenKind : std::uint8_t {
  Ident,    // [A-Za-z_][A-Za-z0-9_]*  (a lone `_` is an Ident too)
  Int,      // a number starting with a digit: `512`, `1_024`, `0x10`, `8u32` (see int_value)
  Float,    // `1.5`, `2e3` (driver code only)
  Lifetime, // `'l`
  String,   // "…", r"…", r#"…"#, b"…"
  Char,     // 'a', '\n'
  Punct,    // one of the punctuators below; text() tells which
  Eof,
};

/// Multi-character punctuators are only `::`, `->`, `=>`; everything else is one character, so
/// that `>>` closing two generic lists needs no splitting.
struct Token {
  TokenKind kind = TokenKind::Eof;
  SourceSpan span;
  std::string_view text; // a view into the SourceBuffer's text

  bool is(TokenKind k) const { return kind == k; }
  bool is_punct(std::string_view p) const { return kind == TokenKind::Punct && text == p; }
  bool is_ident(std::string_view name) const { return kind == TokenKind::Ident && text == name; }
  /// For Int tokens: the value when the text is decimal digits with optional `_` separators and
  /// fits u64; nullopt otherwise (hex, suffix, overflow).
  std::optional<std::uint64_t> int_value() const;
  /// True for an Int token made of decimal digits only (docs/mapping.md §1.1 NAT, D-16).
  bool is_plain_decimal() const;
};

/// Lexes `source` (any bytes: malformed UTF-8, NULs and huge lines give diagnostics, never a
/// crash). Comments (`//…`, nested `/* … */`) and whitespace are dropped. The result always ends
/// with one Eof token. Lexical errors are appended to `diags` with code E-PARSE-001…
std::vector<Token> lex(const SourceBuffer& source, Diagnostics& diags);

} // namespace tujit::ir
