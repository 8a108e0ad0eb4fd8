#include "ir/lang/parent_module.h"

#include "ir/lang/parser.h"
#include "ir/lex/token.h"
#include "ir/support/input_file.h"

#include <fmt/format.h>

#include <set>
#include <string_view>
#include <system_error>

namespace tujit::ir::lang {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxParents = 8;

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

// A warning: a kernel that names nothing of the parent's still checks, and one that does gets
// the unknown-name error at that name.
Diagnostic import_error(std::string message, SourceSpan at, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-PARSE-207", std::move(message), at, std::move(notes));
  d.severity = Severity::Warning;
  d.stage = "parse";
  return d;
}

/// The entries of an `axes!` body split at its top-level commas: `A = 512`, `B = 256`, …
std::vector<std::vector<Token>> axis_entries(const std::vector<Token>& body) {
  std::vector<std::vector<Token>> out(1);
  int depth = 0;
  for (const Token& t : body) {
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) ++depth;
    if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) --depth;
    if (depth == 0 && t.is_punct(",")) {
      out.emplace_back();
      continue;
    }
    out.back().push_back(t);
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

std::set<std::string, std::less<>> axis_names(const FileAst& ast) {
  std::set<std::string, std::less<>> names;
  for (const AxesDecl& d : ast.axes)
    for (const auto& e : axis_entries(d.body))
      if (!e.empty() && e.front().kind == TokenKind::Ident) names.emplace(e.front().text);
  return names;
}

/// `parent`'s items that `child` does not define itself, added to `child`. Only the parent's top
/// level: the items of a `mod` block in it are that module's (docs/kernel-language.md §1.2).
void merge(const FileAst& parent, FileAst& child) {
  const auto own_axes = axis_names(child);
  for (const AxesDecl& d : parent.axes) {
    if (d.module != 0) continue;
    AxesDecl kept{d.span, {}, 0};
    for (const auto& e : axis_entries(d.body)) {
      if (e.empty() || (e.front().kind == TokenKind::Ident && own_axes.count(e.front().text)))
        continue;
      if (!kept.body.empty()) kept.body.push_back(Token{TokenKind::Punct, e.front().span, ","});
      kept.body.insert(kept.body.end(), e.begin(), e.end());
    }
    if (!kept.body.empty()) child.axes.insert(child.axes.begin(), std::move(kept));
  }
  std::set<std::string, std::less<>> own;
  for (const TypeAlias& a : child.aliases) own.insert(a.name);
  for (const ConstItem& c : child.consts) own.insert(c.name);
  for (const TypeAlias& a : parent.aliases)
    if (a.module == 0 && !own.count(a.name)) child.aliases.insert(child.aliases.begin(), a);
  for (const ConstItem& c : parent.consts)
    if (c.module == 0 && !own.count(c.name)) child.consts.insert(child.consts.begin(), c);
}

} // namespace

std::optional<fs::path> parent_module_file(const fs::path& file) {
  // The module a file defines is the file itself, or its directory for a mod.rs.
  const fs::path module = file.filename() == "mod.rs" ? file.parent_path() : file;
  const fs::path dir = module.parent_path(); // the parent module's directory
  if (dir.empty() || !dir.has_filename()) return std::nullopt;
  for (const fs::path& p : {dir.parent_path() / (dir.filename().string() + ".rs"), dir / "mod.rs",
                            dir / "lib.rs", dir / "main.rs"})
    if (std::error_code ec; is_file(p) && !fs::equivalent(p, file, ec)) return p;
  return std::nullopt;
}

void import_parent_module(const std::string& file, FileAst& ast, ParentSources& sources,
                          Diagnostics& diags) {
  fs::path at = file;
  const SourceSpan use = *ast.use_super;
  std::optional<SourceSpan> next = ast.use_super;
  for (int level = 0; next; ++level) {
    if (level == kMaxParents)
      return diags.push_back(import_error(
          fmt::format("`use super::*` leads more than {} modules up", kMaxParents), use));
    auto parent = parent_module_file(at);
    if (!parent)
      return diags.push_back(import_error(
          fmt::format("`use super::*`: no parent module file for `{}`", at.string()), use,
          {"tujit looks for the parent module where Rust does: `D.rs` beside the directory D of "
           "this file, `D/mod.rs`, `D/lib.rs` or `D/main.rs`; or write the axes and type aliases "
           "in this file"}));
    auto in = InputFile::open(parent->string());
    auto text = in ? in->read_rest() : Result<std::string>(in.diagnostics());
    if (!text)
      return diags.push_back(import_error(
          fmt::format("`use super::*`: cannot read the parent module `{}`", parent->string()), use,
          {text.diagnostics().front().message}));
    sources.push_back(std::make_unique<SourceBuffer>(parent->string(), std::move(*text)));
    Diagnostics parent_diags;
    const std::vector<Token> tokens = lex(*sources.back(), parent_diags);
    ParsedFile parsed = parse_file(tokens, parent_diags);
    if (has_errors(parent_diags))
      return diags.push_back(import_error(
          fmt::format("`use super::*`: the parent module `{}` does not parse", parent->string()),
          use, {fmt::format("check it on its own: tujit check {}", parent->string())}));
    merge(parsed.ast, ast);
    next = parsed.ast.use_super;
    at = *parent;
  }
}

} // namespace tujit::ir::lang
