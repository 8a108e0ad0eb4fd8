// `axes![…]` declarations (docs/mapping.md §1.2 `axes`, §1.3, §10 D-7/D-16/D-17).
#include "ir/mapping/syntax.h"
#include "ir/mapping/syntax_common.h"

#include <fmt/format.h>

namespace tujit::ir {

namespace {

using syntax_detail::parse_error;

bool valid_axis_name(std::string_view s) {
  if (s.empty() || s[0] < 'A' || s[0] > 'Z') return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

} // namespace

Result<std::vector<Axis>> parse_axes(std::span<const Token> body) {
  syntax_detail::TokenCursor cur(body, std::nullopt, "axes");
  std::vector<Axis> out;
  std::vector<SourceSpan> name_spans;
  static constexpr const char* kGrammar =
      "axes = [decl {\",\" decl} [\",\"]], decl = NAME \"=\" size (docs/mapping.md §1.2)";
  while (!cur.at_end()) {
    const Token& name = *cur.peek();
    if (!name.is(TokenKind::Ident)) {
      std::vector<std::string> notes{kGrammar};
      if (name.is_punct(","))
        notes.insert(notes.begin(), "a leading or doubled `,` is not allowed");
      return parse_error("E-PARSE-111",
                         "expected an axis declaration such as `A = 8`, found " + cur.describe(),
                         name.span, std::move(notes));
    }
    if (!valid_axis_name(name.text))
      return parse_error("E-PARSE-109", fmt::format("`{}` is not a valid axis name", name.text),
                         name.span,
                         {"axis names start with an upper-case letter, then letters, digits or "
                          "`_` ([A-Z][A-Za-z0-9_]*, docs/mapping.md §1.1)"});
    for (std::size_t i = 0; i < out.size(); ++i)
      if (out[i].name == name.text)
        return parse_error("E-PARSE-110", fmt::format("axis `{}` is declared twice", name.text),
                           name.span,
                           {fmt::format("first declared as `{} = {}` at byte {}", out[i].name,
                                        out[i].size, name_spans[i].offset)});
    cur.advance();
    if (!cur.peek_punct("="))
      return parse_error("E-PARSE-111",
                         fmt::format("expected `=` and a size after axis `{}`, found {}", name.text,
                                     cur.describe()),
                         cur.span(), {kGrammar});
    cur.advance();
    const Token* size = cur.peek();
    if (size == nullptr || !size->is(TokenKind::Int))
      return parse_error("E-PARSE-111",
                         fmt::format("expected the size of axis `{}` (a natural number), found {}",
                                     name.text, cur.describe()),
                         cur.span(), {kGrammar});
    auto n = syntax_detail::nat_value(*size);
    if (!n) return n.diagnostics();
    if (*n == 0)
      return parse_error("E-TYPE-307", fmt::format("axis `{}` has size 0", name.text), size->span,
                         {"axis sizes must be >= 1 (docs/mapping.md §1.3, §10 D-7)"});
    out.push_back(Axis{std::string(name.text), *n});
    name_spans.push_back(name.span);
    cur.advance();
    if (cur.at_end()) break;
    if (!cur.peek_punct(","))
      return parse_error("E-PARSE-111",
                         "expected `,` or the end of the axes list, found " + cur.describe(),
                         cur.span(), {kGrammar});
    cur.advance(); // a trailing comma ends the list at the top of the loop
    if (cur.peek_punct(","))
      return parse_error("E-PARSE-111", "expected an axis declaration, found `,`", cur.span(),
                         {"a doubled `,` is not allowed", kGrammar});
  }
  return out;
}

Result<AxisTable> parse_axes_text(std::string_view text, std::string_view source_name) {
  SourceBuffer src{std::string(source_name), std::string(text)};
  Diagnostics diags;
  std::vector<Token> toks = lex(src, diags);
  if (has_errors(diags)) return diags;
  auto decls = parse_axes(toks);
  if (!decls) return std::move(decls).take_diagnostics();
  AxisTable t;
  for (auto& a : *decls) t.add(std::move(a)); // unique: parse_axes rejected duplicates
  return t;
}

} // namespace tujit::ir
