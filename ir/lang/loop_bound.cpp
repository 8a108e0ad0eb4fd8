#include "ir/lang/loop_bound.h"

#include <fmt/format.h>

#include <limits>

namespace tujit::ir::lang {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

/// Recursive descent over the bound's tokens: sum = product (('+'|'-') product)*,
/// product = atom (('*'|'/'|'%') atom)*, atom = INT | NAME | NAME::SIZE | '(' sum ')'.
class BoundParser {
public:
  BoundParser(std::span<const Token> t, const ConstantLookup& lookup) : t_(t), lookup_(lookup) {}

  std::optional<std::uint64_t> whole() {
    auto v = sum(0);
    if (v && p_ != t_.size()) fail(fmt::format("unexpected `{}`", t_[p_].text));
    return error_.empty() ? v : std::nullopt;
  }
  const std::string& error() const { return error_; }

private:
  // Nesting is bounded by the parser's bracket depth (E-PARSE-202); `depth` guards anyway.
  std::optional<std::uint64_t> sum(int depth) {
    auto v = product(depth);
    while (v && p_ < t_.size() && (punct("+") || punct("-"))) {
      const bool add = punct("+");
      ++p_;
      auto r = product(depth);
      if (!r) return std::nullopt;
      if (add ? *v > kMax - *r : *r > *v)
        return fail(add ? "the sum overflows" : "the difference is negative");
      v = add ? *v + *r : *v - *r;
    }
    return v;
  }

  std::optional<std::uint64_t> product(int depth) {
    auto v = atom(depth);
    while (v && p_ < t_.size() && (punct("*") || punct("/") || punct("%"))) {
      const std::string_view op = t_[p_].text;
      ++p_;
      auto r = atom(depth);
      if (!r) return std::nullopt;
      if (op != "*" && *r == 0) return fail("a division by zero");
      if (op == "*" && *r != 0 && *v > kMax / *r) return fail("the product overflows");
      v = op == "*" ? *v * *r : op == "/" ? *v / *r : *v % *r;
    }
    return v;
  }

  std::optional<std::uint64_t> atom(int depth) {
    if (p_ >= t_.size()) return fail("the expression ends early");
    if (depth > 256) return fail("the expression nests too deeply");
    const Token& tk = t_[p_];
    if (tk.is_punct("(")) {
      ++p_;
      auto v = sum(depth + 1);
      if (!v) return std::nullopt;
      if (p_ >= t_.size() || !t_[p_].is_punct(")")) return fail("`)` expected");
      ++p_;
      return v;
    }
    if (tk.is(TokenKind::Int)) {
      ++p_;
      if (auto v = tk.int_value()) return v;
      return fail(fmt::format("`{}` is not a decimal integer", tk.text));
    }
    if (tk.is(TokenKind::Ident)) {
      ++p_;
      const bool size = p_ + 1 < t_.size() && t_[p_].is_punct("::") && t_[p_ + 1].is_ident("SIZE");
      if (size) p_ += 2;
      if (auto v = lookup_(tk.text, size)) return v;
      return fail(size ? fmt::format("`{}::SIZE` names no axis", tk.text)
                       : fmt::format("`{}` is not a constant", tk.text));
    }
    return fail(fmt::format("unexpected `{}`", tk.text));
  }

  bool punct(std::string_view p) const { return t_[p_].is_punct(p); }
  std::optional<std::uint64_t> fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
    return std::nullopt;
  }

  std::span<const Token> t_;
  const ConstantLookup& lookup_;
  std::size_t p_ = 0;
  std::string error_;
};

} // namespace

Result<std::uint64_t> evaluate_loop_bound(std::span<const Token> tokens,
                                          const ConstantLookup& lookup, SourceSpan span) {
  BoundParser p(tokens, lookup);
  if (auto v = p.whole()) return *v;
  Diagnostic d = make_error(
      "E-TYPE-028", fmt::format("the loop bound is not a constant: {}", p.error()), span,
      {"a loop in a kernel body is unrolled into its commands, so its range is `FROM..TO` with "
       "integer literals, `const` items, `NAME::SIZE` and `+ - * / %` of them "
       "(docs/kernel-language.md §3.1)"});
  d.stage = "type";
  return d;
}

} // namespace tujit::ir::lang
