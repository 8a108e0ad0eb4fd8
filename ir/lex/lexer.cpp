#include "ir/lex/token.h"

#include <cstdio>
#include <limits>
#include <string>

namespace tujit::ir {

std::optional<std::uint64_t> Token::int_value() const {
  if (kind != TokenKind::Int) return std::nullopt;
  // Rust's `0x` / `0o` / `0b` prefixes (`0x7fff_ffff`, a Vector Engine mask); a type suffix is
  // not a value this returns.
  std::uint64_t base = 10;
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' &&
      (digits[1] == 'x' || digits[1] == 'o' || digits[1] == 'b')) {
    base = digits[1] == 'x' ? 16 : digits[1] == 'o' ? 8 : 2;
    digits.remove_prefix(2);
  }
  std::uint64_t v = 0;
  bool any = false;
  for (char c : digits) {
    if (c == '_') continue;
    std::uint64_t d = base;
    if (c >= '0' && c <= '9') d = static_cast<std::uint64_t>(c - '0');
    if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<std::uint64_t>(c - 'a' + 10);
    if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<std::uint64_t>(c - 'A' + 10);
    if (d >= base) return std::nullopt;
    if (v > (std::numeric_limits<std::uint64_t>::max() - d) / base) return std::nullopt;
    v = v * base + d;
    any = true;
  }
  return any ? std::optional<std::uint64_t>(v) : std::nullopt;
}

bool Token::is_plain_decimal() const {
  if (kind != TokenKind::Int || text.empty()) return false;
  for (char c : text)
    if (c < '0' || c > '9') return false;
  return true;
}

namespace {

bool ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool ident_char(char c) {
  return ident_start(c) || (c >= '0' && c <= '9');
}
bool digit(char c) {
  return c >= '0' && c <= '9';
}

class Lexer {
public:
  Lexer(const SourceBuffer& src, Diagnostics& diags) : t_(src.text()), diags_(diags) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      skip_trivia();
      if (i_ >= t_.size()) break;
      std::size_t start = i_;
      char c = t_[i_];
      TokenKind kind;
      if (ident_start(c)) {
        kind = lex_ident_or_prefixed_string();
      } else if (digit(c)) {
        kind = lex_number();
      } else if (c == '"') {
        kind = lex_string(0);
      } else if (c == '\'') {
        kind = lex_quote();
      } else if (is_punct_char(c)) {
        kind = TokenKind::Punct;
        std::string_view two = t_.substr(i_, 2);
        i_ += (two == "::" || two == "->" || two == "=>") ? 2 : 1;
      } else {
        bad_char();
        continue;
      }
      out.push_back(make(kind, start));
    }
    Token eof;
    eof.kind = TokenKind::Eof;
    eof.span = SourceSpan{static_cast<std::uint32_t>(t_.size()), 0};
    out.push_back(eof);
    return out;
  }

private:
  Token make(TokenKind k, std::size_t start) const {
    Token tok;
    tok.kind = k;
    tok.span =
        SourceSpan{static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(i_ - start)};
    tok.text = t_.substr(start, i_ - start);
    return tok;
  }

  void error(std::size_t at, std::size_t len, std::string msg) {
    // A binary or mis-encoded file would otherwise yield one diagnostic per byte: report the
    // first kMaxLexErrors, then one summary, and keep lexing (bad bytes act as whitespace).
    if (++errors_ > kMaxLexErrors) {
      if (errors_ == kMaxLexErrors + 1) {
        diags_.push_back(make_error("E-PARSE-001",
                                    "too many lexical errors; further ones are not reported",
                                    SourceSpan{static_cast<std::uint32_t>(at), 1}));
        diags_.back().stage = "parse";
      }
      return;
    }
    diags_.push_back(
        make_error("E-PARSE-001", std::move(msg),
                   SourceSpan{static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(len)}));
    diags_.back().stage = "parse";
  }

  static bool is_punct_char(char c) {
    switch (c) {
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case ',':
    case ';':
    case ':':
    case '.':
    case '/':
    case '%':
    case '=':
    case '#':
    case '!':
    case '<':
    case '>':
    case '&':
    case '*':
    case '+':
    case '-':
    case '|':
    case '^':
    case '?':
    case '@':
    case '$':
    case '~':
      return true;
    default:
      return false;
    }
  }

  void skip_trivia() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '/') {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      } else if (c == '/' && i_ + 1 < t_.size() && t_[i_ + 1] == '*') {
        skip_block_comment();
      } else {
        return;
      }
    }
  }

  void skip_block_comment() {
    std::size_t start = i_;
    std::size_t depth = 0;
    while (i_ < t_.size()) {
      if (t_.compare(i_, 2, "/*") == 0) {
        ++depth;
        i_ += 2;
      } else if (t_.compare(i_, 2, "*/") == 0) {
        i_ += 2;
        if (--depth == 0) return;
      } else {
        ++i_;
      }
    }
    error(start, 2, "unterminated block comment");
  }

  TokenKind lex_ident_or_prefixed_string() {
    // Raw and byte strings: r"…", r#"…"#, b"…", br"…".
    std::size_t j = i_;
    if (t_[j] == 'b' && j + 1 < t_.size() && (t_[j + 1] == '"' || t_[j + 1] == 'r')) ++j;
    if (t_[j] == 'r' && j + 1 < t_.size() && (t_[j + 1] == '"' || t_[j + 1] == '#')) {
      std::size_t k = j + 1, hashes = 0;
      while (k < t_.size() && t_[k] == '#') ++hashes, ++k;
      if (k < t_.size() && t_[k] == '"') {
        i_ = k;
        return lex_string(hashes);
      }
    }
    if (t_[i_] == 'b' && j == i_ + 1 && t_[j] == '"') {
      i_ = j;
      return lex_string(0);
    }
    while (i_ < t_.size() && ident_char(t_[i_])) ++i_;
    return TokenKind::Ident;
  }

  TokenKind lex_number() {
    const std::size_t start = i_;
    // `0x…`, `0o…`, `0b…`: an `e` there is a digit, never an exponent.
    const bool radix = t_[i_] == '0' && i_ + 1 < t_.size() &&
                       (t_[i_ + 1] == 'x' || t_[i_ + 1] == 'o' || t_[i_ + 1] == 'b');
    while (i_ < t_.size() && (ident_char(t_[i_]))) ++i_;
    bool is_float = false;
    // A fraction only when a digit follows the dot (`x.0.1` tuple fields never start with a digit
    // token here, and `1..4` ranges keep their dots).
    if (i_ + 1 < t_.size() && t_[i_] == '.' && digit(t_[i_ + 1])) {
      ++i_;
      while (i_ < t_.size() && ident_char(t_[i_])) ++i_;
      is_float = true;
    }
    if (!radix && lex_exponent(start)) is_float = true;
    return is_float ? TokenKind::Float : TokenKind::Int;
  }

  /// A decimal exponent in the number from `start` to i_ (`1e10`, `2.5E3f32`, and with a sign,
  /// `1.0e-40f32`, which the sign would otherwise end): an `e` / `E` right after a digit, then
  /// digits. The sign and what follows it are taken here. `5usize` has no exponent.
  bool lex_exponent(std::size_t start) {
    for (std::size_t k = start + 1; k < i_; ++k) {
      const bool e = (t_[k] == 'e' || t_[k] == 'E') && (digit(t_[k - 1]) || t_[k - 1] == '_');
      if (!e) continue;
      if (k + 1 < i_) return digit(t_[k + 1]) || t_[k + 1] == '_';
      // The `e` ends the scan: a signed exponent follows.
      if (i_ + 1 < t_.size() && (t_[i_] == '+' || t_[i_] == '-') && digit(t_[i_ + 1])) {
        ++i_;
        while (i_ < t_.size() && ident_char(t_[i_])) ++i_;
        return true;
      }
      return false;
    }
    return false;
  }

  // At the opening quote. `hashes` > 0 for r#"…"# raw strings (no escapes).
  TokenKind lex_string(std::size_t hashes) {
    std::size_t start = i_;
    bool raw = hashes > 0 || (i_ > 0 && (t_[i_ - 1] == 'r'));
    ++i_;
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (!raw && c == '\\') {
        i_ += 2;
        continue;
      }
      if (c == '"') {
        std::size_t k = i_ + 1, h = 0;
        while (h < hashes && k < t_.size() && t_[k] == '#') ++h, ++k;
        if (h == hashes) {
          i_ = k;
          return TokenKind::String;
        }
      }
      ++i_;
    }
    i_ = t_.size();
    error(start, 1, "unterminated string literal");
    return TokenKind::String;
  }

  // `'l` lifetime or `'a'` char literal.
  TokenKind lex_quote() {
    std::size_t start = i_;
    ++i_;
    if (i_ < t_.size() && ident_start(t_[i_])) {
      std::size_t j = i_;
      while (j < t_.size() && ident_char(t_[j])) ++j;
      if (j >= t_.size() || t_[j] != '\'') {
        i_ = j;
        return TokenKind::Lifetime;
      }
    }
    // char literal
    while (i_ < t_.size() && t_[i_] != '\'' && t_[i_] != '\n') {
      if (t_[i_] == '\\') ++i_;
      ++i_;
    }
    if (i_ < t_.size() && t_[i_] == '\'') {
      ++i_;
      return TokenKind::Char;
    }
    error(start, 1, "unterminated character literal");
    return TokenKind::Char;
  }

  void bad_char() {
    auto c = static_cast<unsigned char>(t_[i_]);
    std::size_t len = 1;
    std::string what;
    if (c >= 0x80) {
      // Skip one UTF-8 sequence when well formed, one byte otherwise.
      std::size_t want = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
      std::size_t k = 1;
      while (k < want && i_ + k < t_.size() &&
             (static_cast<unsigned char>(t_[i_ + k]) & 0xC0) == 0x80)
        ++k;
      len = (k == want && want > 1) ? want : 1;
      what = len > 1 ? "non-ASCII character" : "invalid UTF-8 byte";
    } else {
      what = "unexpected character";
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", c);
    error(i_, len, what + " (" + hex + ")");
    i_ += len;
  }

  std::string_view t_;
  Diagnostics& diags_;
  std::size_t i_ = 0;
  std::size_t errors_ = 0;
  static constexpr std::size_t kMaxLexErrors = 100;
};

} // namespace

std::vector<Token> lex(const SourceBuffer& source, Diagnostics& diags) {
  return Lexer(source, diags).run();
}

} // namespace tujit::ir
