#include "ir/lang/parser_impl.h"
#include "ir/lang/vector_args.h"

#include <utility>

// Brackets, skipping, items and fn signatures (docs/kernel-language.md §3: file, item,
// axes_decl, type_alias, fn_item, generics, params). Types, expressions and blocks are in
// parser_syntax.cpp.

namespace tujit::ir::lang {

bool is_refused_operation(std::string_view m) {
  // docs/kernel-language.md §6.1: the Transpose Engine's other forms, the DMA
  // forms and Commit Adapter stages tujit does not simulate, and the Vector Engine methods it does
  // not simulate (vector_args.h lists the ones it does).
  return (m.starts_with("vector_") && !vector_call_kind(m)) ||
         (m.starts_with("transpose") && m != "transpose") || m == "commit_valid_count_pack" ||
         m.starts_with("dma") || m.starts_with("to_dm_") ||
         (m.starts_with("to_hbm_") && m != "to_hbm_view");
}

namespace detail {

void Parser::match_brackets() {
  match_.assign(t_.size(), kNone);
  std::vector<std::size_t> stack;
  bool deep_reported = false;
  for (std::size_t i = 0; i < eof_; ++i) {
    const Token& tk = t_[i];
    if (is_opener(tk)) {
      stack.push_back(i);
      if (stack.size() > kMaxNesting && !deep_reported) {
        deep_reported = true;
        too_deep_reported_ = true;
        error("E-PARSE-202", fmt::format("brackets nested deeper than {} levels", kMaxNesting),
              tk.span,
              {"kernel specs never need this; tujit refuses it rather than recurse without bound"});
      }
    } else if (is_closer(tk)) {
      if (stack.empty()) {
        error("E-PARSE-201", fmt::format("unexpected closing {}", describe(tk)), tk.span,
              {"there is no open bracket it could close"});
        continue;
      }
      std::size_t open = stack.back();
      stack.pop_back();
      if (tk.text[0] != closer_for(t_[open].text)) {
        error("E-PARSE-201",
              fmt::format("mismatched closing {}: expected `{}` to close {}", describe(tk),
                          closer_for(t_[open].text), describe(t_[open])),
              tk.span);
      }
      match_[open] = i;
      match_[i] = open;
    }
  }
  // Unclosed openers: report the outermost (the innermost ones are usually consequences).
  if (!stack.empty()) {
    std::size_t open = stack.front();
    error("E-PARSE-201", fmt::format("unclosed {}", describe(t_[open])), t_[open].span,
          {fmt::format("{} bracket(s) still open at end of file", stack.size())});
    for (std::size_t o : stack) match_[o] = eof_;
  }
}

void Parser::skip_stmt(std::size_t end, std::vector<std::pair<std::string, SourceSpan>>* refused) {
  std::size_t start = p_;
  while (p_ < end) {
    const Token& tk = peek();
    if (tk.is_punct(";")) {
      ++p_;
      break;
    }
    if (is_opener(tk)) {
      bool brace = tk.text == "{";
      p_ = close_of(p_) + 1;
      if (brace && !(at_punct(".") || at_punct("?") || at_punct(";") || at_ident("else"))) break;
      continue;
    }
    ++p_; // includes stray closers
  }
  if (p_ > end) p_ = end;
  if (refused) scan_refused(start, p_, *refused);
}

bool Parser::parse_item_if_any(std::size_t end) {
  const Token& tk = peek();
  if (tk.is_punct("#")) {
    pending_device_ = pending_device_ || at_device_attribute();
    pending_cfg_test_ = pending_cfg_test_ || at_cfg_test_attribute();
    skip_attribute();
    return true;
  }
  if (tk.is_punct(";")) {
    ++p_;
    return true;
  }
  if (tk.kind != TokenKind::Ident) return false;
  if (tk.text == "pub") {
    ++p_;
    if (at_punct("(")) p_ = close_of(p_) + 1;
    return true;
  }
  const bool cfg_test = std::exchange(pending_cfg_test_, false);
  if (tk.text == "unsafe" || tk.text == "async" || tk.text == "extern") {
    if (tk.text == "extern" && peek(1).is(TokenKind::String)) {
      ++p_; // extern "C" fn
      ++p_;
      return true;
    }
    if (tk.text == "extern") return false; // extern crate …;
    if (at_ident("fn", 1)) {
      ++p_;
      return true;
    }
    return false;
  }
  if (tk.text == "use" && module_ == 0 && at_ident("super", 1) && at_punct("::", 2) &&
      at_punct("*", 3) && at_punct(";", 4)) {
    out_.ast.use_super = SourceSpan{tk.span.offset, peek(4).span.offset + 1 - tk.span.offset};
    p_ += 5;
    return true;
  }
  // Modules and imports at item level (docs/kernel-language.md §1.2); a `#[cfg(test)]` module
  // is not part of the program, and one inside a fn body is not reachable by path.
  if (tk.text == "use" && body_depth_ == 0) {
    parse_use(end);
    return true;
  }
  if (tk.text == "mod" && body_depth_ == 0 && !cfg_test) return parse_mod(end);
  if (tk.text == "struct" || tk.text == "enum" || tk.text == "trait" || tk.text == "static" ||
      tk.text == "macro_rules" || tk.text == "union")
    note_other_item();
  if (tk.text == "use" || tk.text == "mod" || tk.text == "struct" || tk.text == "enum" ||
      tk.text == "impl" || tk.text == "trait" || tk.text == "static" || tk.text == "macro_rules")
    return false; // skipped: cannot change a kernel's meaning
  if (tk.text == "axes" && at_punct("!", 1)) {
    parse_axes_decl(end);
    return true;
  }
  if (tk.text == "type" && peek(1).is(TokenKind::Ident)) {
    parse_type_alias(end);
    return true;
  }
  if (tk.text == "const" && peek(1).is(TokenKind::Ident) && at_punct(":", 2)) {
    parse_const(end);
    return true;
  }
  if (tk.text == "fn" && peek(1).is(TokenKind::Ident)) {
    parse_fn();
    return true;
  }
  return false;
}

void Parser::parse_axes_decl(std::size_t end) {
  FileScope scope(*this); // aliases and axes are file-global, whatever fn they sit in
  AxesDecl a;
  a.span = join(peek().span, peek(1).span);
  a.module = module_;
  p_ += 2;
  if (!is_opener(peek())) {
    expected("`[` after `axes!`", peek());
    skip_stmt(end, nullptr);
    return;
  }
  std::size_t close = close_of(p_);
  a.body.assign(t_.begin() + static_cast<std::ptrdiff_t>(p_ + 1),
                t_.begin() + static_cast<std::ptrdiff_t>(close));
  p_ = close + 1;
  if (at_punct(";")) ++p_;
  out_.ast.axes.push_back(std::move(a));
}

void Parser::parse_type_alias(std::size_t end) {
  FileScope scope(*this); // aliases and axes are file-global, whatever fn they sit in
  ++p_;                   // type
  TypeAlias al;
  al.module = module_;
  al.name = std::string(peek().text);
  al.name_span = peek().span;
  ++p_;
  if (at_punct("<")) skip_generics();
  if (!at_punct("=")) {
    expected("`=` in type alias", peek());
    skip_stmt(end, nullptr);
    return;
  }
  ++p_;
  std::size_t errs = cur_->size();
  al.type = parse_type(0);
  if (cur_->size() != errs) {
    skip_stmt(end, nullptr);
  } else if (at_punct(";")) {
    ++p_;
  } else {
    expected("`;` after type alias", peek());
    skip_stmt(end, nullptr);
  }
  out_.ast.aliases.push_back(std::move(al));
}

void Parser::parse_const(std::size_t end) {
  FileScope scope(*this); // aliases and axes are file-global, whatever fn they sit in
  ++p_;                   // const
  ConstItem c;
  c.module = module_;
  c.name = std::string(peek().text);
  c.name_span = peek().span;
  std::size_t start = p_;
  skip_stmt(end, nullptr);
  // `const N: ty = INT;`: a plain natural literal right before the `;`.
  if (p_ >= start + 3 && tok(p_ - 1).is_punct(";") && tok(p_ - 2).is(TokenKind::Int) &&
      tok(p_ - 3).is_punct("="))
    c.value = tok(p_ - 2).int_value();
  out_.ast.consts.push_back(std::move(c));
}

void Parser::skip_generics() {
  int angle = 0;
  while (p_ < eof_) {
    if (at_punct("<"))
      ++angle;
    else if (at_punct(">")) {
      if (--angle == 0) {
        ++p_;
        return;
      }
    } else if (is_opener(peek())) {
      p_ = close_of(p_);
    } else if (at_punct(";") || at_punct("{")) {
      return;
    }
    ++p_;
  }
}

std::vector<std::string> Parser::parse_generics() {
  std::vector<std::string> names;
  ++p_; // <
  int angle = 1;
  bool expect_name = true;
  while (p_ < eof_ && angle > 0) {
    const Token& tk = peek();
    if (tk.is_punct("<")) {
      ++angle;
    } else if (tk.is_punct(">")) {
      --angle;
    } else if (tk.is_punct(",") && angle == 1) {
      expect_name = true;
    } else if (tk.is_punct(";") || tk.is_punct("{")) {
      expected("`>` to close the generic parameters", tk);
      return names;
    } else if (is_opener(tk)) {
      p_ = close_of(p_);
    } else if (expect_name && tk.kind == TokenKind::Ident && angle == 1) {
      if (tk.text != "const") {
        names.emplace_back(tk.text);
        expect_name = false;
      }
    } else if (tk.kind == TokenKind::Lifetime) {
      expect_name = false;
    }
    ++p_;
  }
  return names;
}

void Parser::parse_fn() {
  FnItem fn;
  std::size_t fn_tok = p_;
  ++p_; // fn
  fn.device = std::exchange(pending_device_, false);
  fn.module = module_;
  fn.name = std::string(peek().text);
  fn.name_span = peek().span;
  ++p_;
  std::size_t fn_index = out_.ast.fns.size();
  out_.ast.fns.emplace_back();
  out_.body_diags.emplace_back();
  Diagnostics* saved = cur_;
  cur_ = &file_diags_; // signature errors always count; body errors only for kernels
  if (at_punct("<")) fn.generics = parse_generics();
  std::size_t body_open = kNone;
  if (!at_punct("(")) {
    expected("`(` after the function name", peek());
  } else {
    std::size_t close = close_of(p_);
    ++p_;
    parse_params(close, fn);
    p_ = close + 1;
    if (at_punct("->")) {
      ++p_;
      fn.ret = parse_type(0);
    }
    if (at_ident("where"))
      while (p_ < eof_ && !at_punct("{") && !at_punct(";")) ++p_;
    if (at_punct("{")) {
      body_open = p_;
    } else {
      expected("`{` to start the function body", peek());
    }
  }
  if (body_open == kNone) {
    // Resync: skip to the next brace group (the body, if any) or `;`.
    while (p_ < eof_ && !at_punct("{") && !at_punct(";") && !at_ident("fn")) ++p_;
    if (at_punct("{"))
      body_open = p_;
    else if (at_punct(";"))
      ++p_;
  }
  if (body_open != kNone) {
    std::size_t close = close_of(body_open);
    p_ = body_open + 1;
    fn.body_parsed = true;
    cur_ = &out_.body_diags[fn_index];
    ++body_depth_;
    parse_block(close, fn);
    --body_depth_;
    p_ = close + 1;
    fn.span = join(tok(fn_tok).span, tok(close).span);
  } else {
    fn.span = join(tok(fn_tok).span, tok(p_ > 0 ? p_ - 1 : 0).span);
  }
  cur_ = saved;
  out_.ast.fns[fn_index] = std::move(fn);
}

void Parser::parse_params(std::size_t close, FnItem& fn) {
  while (p_ < close) {
    if (at_punct("#")) {
      skip_attribute();
      continue;
    }
    if (at_ident("mut")) ++p_;
    Param prm;
    const Token& nm = peek();
    if (nm.kind != TokenKind::Ident || !at_punct(":", 1)) {
      expected("a parameter `name: Type`", nm);
      p_ = close;
      return;
    }
    prm.name = std::string(nm.text);
    prm.span = nm.span;
    p_ += 2;
    std::size_t errs = cur_->size();
    prm.type = parse_type(0);
    fn.params.push_back(std::move(prm));
    if (cur_->size() != errs) {
      p_ = close;
      return;
    }
    if (at_punct(",")) {
      ++p_;
    } else if (p_ != close) {
      expected("`,` or `)` after a parameter", peek());
      p_ = close;
      return;
    }
  }
}

} // namespace detail

ParsedFile parse_file(std::span<const Token> tokens, Diagnostics& diags) {
  if (tokens.empty()) return {};
  return detail::Parser(tokens, diags).run();
}

} // namespace tujit::ir::lang
