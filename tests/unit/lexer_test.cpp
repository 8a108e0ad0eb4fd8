#include "ir/lex/token.h"

#include <catch2/catch.hpp>

using namespace tujit;
using namespace tujit::ir;

namespace {
std::vector<Token> lex_ok(const SourceBuffer& src) {
  Diagnostics ds;
  auto toks = lex(src, ds);
  INFO((ds.empty() ? std::string() : render(ds.front(), &src)));
  CHECK(ds.empty());
  return toks;
}
} // namespace

TEST_CASE("lexer: kernel-language tokens", "[lexer]") {
  SourceBuffer src("t", "fn f<'l, const T: Tu>(x: &mut A) -> m![B / 64 # {N}] { x.y::<_>() } // c\n"
                        "/* a /* nested */ comment */ 1_024 'c' \"s\\\"\" r#\"raw\"# 1.5");
  auto t = lex_ok(src);
  std::vector<std::string> texts;
  for (auto& k : t) texts.emplace_back(k.text);
  std::vector<std::string> want = {
      "fn", "f", "<",   "'l", ",",     "const", "T",         ":",          "Tu",  ">",  "(", "x",
      ":",  "&", "mut", "A",  ")",     "->",    "m",         "!",          "[",   "B",  "/", "64",
      "#",  "{", "N",   "}",  "]",     "{",     "x",         ".",          "y",   "::", "<", "_",
      ">",  "(", ")",   "}",  "1_024", "'c'",   "\"s\\\"\"", "r#\"raw\"#", "1.5", ""};
  CHECK(texts == want);
  CHECK(t[3].kind == TokenKind::Lifetime);
  CHECK(t[40].int_value() == 1024u);
  CHECK_FALSE(t[40].is_plain_decimal());
  CHECK(t[41].kind == TokenKind::Char);
  CHECK(t[43].kind == TokenKind::String);
  CHECK(t[44].kind == TokenKind::Float);
  CHECK(t.back().kind == TokenKind::Eof);
}

TEST_CASE("lexer: int_value reads Rust's bases and rejects overflow and suffixes", "[lexer]") {
  SourceBuffer src("t", "18446744073709551615 18446744073709551616 0x10 8u32 0o17 0b1010_0101 "
                        "0xFFFF_FFFF_FFFF_FFFF 0x1_0000_0000_0000_0000 0x 0b102");
  auto t = lex_ok(src);
  CHECK(t[0].int_value() == 18446744073709551615ull);
  CHECK_FALSE(t[1].int_value().has_value());
  CHECK(t[2].int_value() == 16u);
  CHECK_FALSE(t[3].int_value().has_value());
  CHECK(t[4].int_value() == 15u);
  CHECK(t[5].int_value() == 0xA5u);
  CHECK(t[6].int_value() == 18446744073709551615ull);
  CHECK_FALSE(t[7].int_value().has_value()); // 2^64
  CHECK_FALSE(t[8].int_value().has_value()); // no digits
  CHECK_FALSE(t[9].int_value().has_value()); // 2 is no binary digit
}

TEST_CASE("lexer: float literals with exponents are one token, radix digits and suffixes are not",
          "[lexer]") {
  // Rust's float literals: `1.0e-40f32` and `1e-40` keep their signed exponent, `2.5E+3f32`,
  // `1e10` too; an `e` of a hex literal is a digit (`0x1e-1` is 0x1e minus 1), and `5usize-1`
  // subtracts.
  SourceBuffer src("t", "1.0e-40f32 1e-40 2.5E+3f32 1e10 0x1e-1 5usize-1 1_000.5e2");
  auto t = lex_ok(src);
  std::vector<std::string> texts;
  for (auto& k : t) texts.emplace_back(k.text);
  const std::vector<std::string> want = {"1.0e-40f32", "1e-40", "2.5E+3f32", "1e10",
                                         "0x1e",       "-",     "1",         "5usize",
                                         "-",          "1",     "1_000.5e2", ""};
  CHECK(texts == want);
  for (std::size_t i : {0, 1, 2, 3, 10}) CHECK(t[i].kind == TokenKind::Float);
  for (std::size_t i : {4, 6, 7, 9}) CHECK(t[i].kind == TokenKind::Int);
}

TEST_CASE("lexer: bad bytes and unterminated constructs are diagnostics", "[lexer]") {
  SourceBuffer src("t", std::string("a \xff b \xc3\xa9 `\n/* open", 16));
  Diagnostics ds;
  auto t = lex(src, ds);
  REQUIRE(ds.size() == 4);
  CHECK(ds[0].message.find("invalid UTF-8") != std::string::npos);
  CHECK(ds[1].message.find("non-ASCII") != std::string::npos);
  CHECK(ds[2].message.find("unexpected character") != std::string::npos);
  CHECK(ds[3].message.find("unterminated block comment") != std::string::npos);
  CHECK(t.back().kind == TokenKind::Eof);
}

TEST_CASE("lexer: a binary file yields a bounded number of diagnostics", "[lexer]") {
  SourceBuffer src("bin", std::string(1'000'000, '\xff'));
  Diagnostics ds;
  auto t = lex(src, ds);
  CHECK(ds.size() == 101);
  CHECK(ds.back().message.find("too many lexical errors") != std::string::npos);
  CHECK(t.size() == 1);
}
