#include "ir/lang/parser_impl.h"

// Modules and imports (docs/kernel-language.md §1.2): `mod NAME { items }` blocks, `mod NAME;`
// declarations and `use` trees. The parser only records them (FileAst::modules, uses, others);
// which item a `use` names is decided once every module of the file is known
// (ir/lang/module_scopes.h).

namespace tujit::ir::lang::detail {

bool Parser::parse_mod(std::size_t end) {
  if (!peek(1).is(TokenKind::Ident)) return false;
  ModuleDecl m;
  m.name = std::string(peek(1).text);
  m.name_span = peek(1).span;
  m.parent = module_;
  p_ += 2;
  for (const ModuleDecl& other : out_.ast.modules)
    if (other.parent == m.parent && other.name == m.name) {
      error("E-PARSE-213", fmt::format("module `{}` is defined twice", m.name), m.name_span,
            {"a module's items are named by its path (`m::k`): two modules of one name in one "
             "module would give their items the same names"});
      break;
    }
  if (at_punct(";")) { // `mod NAME;`: its items are in another file
    ++p_;
    m.has_body = false;
    out_.ast.modules.push_back(std::move(m));
    return true;
  }
  if (!at_punct("{")) {
    expected("`{` or `;` after `mod NAME`", peek());
    skip_stmt(end, nullptr);
    return true;
  }
  DepthGuard guard(*this);
  if (too_deep()) {
    skip_one();
    return true;
  }
  const std::size_t close = close_of(p_);
  const std::size_t index = out_.ast.modules.size();
  out_.ast.modules.push_back(std::move(m));
  const std::size_t saved = std::exchange(module_, index);
  ++p_;
  parse_items(std::min(close, end), /*in_body=*/false);
  p_ = close + 1;
  module_ = saved;
  return true;
}

void Parser::note_other_item() {
  std::size_t k = 1;
  if (peek().is_ident("static") && peek(1).is_ident("mut")) k = 2;
  if (peek().is_ident("macro_rules") && at_punct("!", 1)) k = 2;
  if (!peek(k).is(TokenKind::Ident)) return;
  out_.ast.others.push_back(
      OtherItem{std::string(peek(k).text), std::string(peek().text), module_});
}

void Parser::parse_use(std::size_t end) {
  FileScope scope(*this); // a module item, whatever fn it sits in
  const std::size_t start = p_;
  ++p_; // use
  std::vector<std::string> prefix;
  std::vector<UseName> names;
  bool ok = parse_use_tree(prefix, peek().span, names);
  if (ok && !at_punct(";")) {
    expected("`;` after the `use` item", peek());
    ok = false;
  }
  if (!ok) {
    p_ = start;
    skip_stmt(end, nullptr);
    return;
  }
  ++p_;
  for (UseName& u : names) {
    u.module = module_;
    out_.ast.uses.push_back(std::move(u));
  }
}

bool Parser::parse_use_tree(std::vector<std::string>& prefix, SourceSpan prefix_span,
                            std::vector<UseName>& out) {
  DepthGuard guard(*this);
  if (too_deep()) return false;
  const std::size_t depth = prefix.size();
  if (at_punct("::")) ++p_; // `use ::a::b` names another crate's `a`
  while (true) {
    const Token& tk = peek();
    if (tk.is_punct("*")) {
      out.push_back(UseName{prefix, prefix_span, {}, {}, tk.span, module_});
      ++p_;
      break;
    }
    if (tk.is_punct("{")) {
      const std::size_t close = close_of(p_);
      ++p_;
      while (p_ < close) {
        if (!parse_use_tree(prefix, prefix_span, out)) return false;
        if (at_punct(",")) {
          ++p_;
        } else if (p_ != close) {
          expected("`,` or `}` in the `use` list", peek());
          return false;
        }
      }
      p_ = close + 1;
      break;
    }
    if (!tk.is(TokenKind::Ident)) {
      expected("a path, `*` or `{` in the `use` item", tk);
      return false;
    }
    ++p_;
    if (at_punct("::")) {
      prefix_span = join(prefix_span, tk.span);
      prefix.emplace_back(tk.text);
      ++p_;
      continue;
    }
    UseName u{prefix, prefix_span, std::string(tk.text), std::string(tk.text), tk.span, module_};
    if (u.name == "self" && !prefix.empty()) u.bound = prefix.back();
    if (at_ident("as")) {
      ++p_;
      if (!peek().is(TokenKind::Ident)) {
        expected("a name after `as`", peek());
        return false;
      }
      u.bound = std::string(peek().text);
      ++p_;
    }
    out.push_back(std::move(u));
    break;
  }
  prefix.resize(depth);
  return true;
}

} // namespace tujit::ir::lang::detail
