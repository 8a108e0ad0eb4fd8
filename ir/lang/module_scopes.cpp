#include "ir/lang/module_scopes.h"

#include <utility>

namespace tujit::ir::lang {

namespace {

/// Moves each item of `from` into the scope of the module it carries.
template <typename Item>
void distribute(std::vector<Item>& from, std::vector<std::unique_ptr<ModuleScope>>& scopes,
                std::vector<Item> FileAst::*member) {
  for (Item& item : from) {
    const std::size_t m = item.module < scopes.size() ? item.module : 0;
    (scopes[m]->ast.*member).push_back(std::move(item));
  }
}

} // namespace

std::vector<std::unique_ptr<ModuleScope>> split_modules(ParsedFile parsed, FileAst& table) {
  FileAst& ast = parsed.ast;
  std::vector<std::unique_ptr<ModuleScope>> scopes;
  for (std::size_t m = 0; m < ast.modules.size(); ++m)
    scopes.push_back(std::make_unique<ModuleScope>());
  ModuleScope& top = *scopes.front();
  top.ast.driver = std::move(ast.driver);
  top.ast.skipped_refused = std::move(ast.skipped_refused);
  top.ast.use_super = ast.use_super;
  distribute(ast.axes, scopes, &FileAst::axes);
  distribute(ast.aliases, scopes, &FileAst::aliases);
  distribute(ast.consts, scopes, &FileAst::consts);
  for (std::size_t i = 0; i < ast.fns.size(); ++i) {
    const std::size_t m = ast.fns[i].module < scopes.size() ? ast.fns[i].module : 0;
    scopes[m]->ast.fns.push_back(std::move(ast.fns[i]));
    scopes[m]->body_diags.push_back(std::move(parsed.body_diags[i]));
  }
  table.modules = std::move(ast.modules);
  table.uses = std::move(ast.uses);
  table.others = std::move(ast.others);
  return scopes;
}

std::string module_path_in_file(const std::vector<ModuleDecl>& modules, std::size_t m) {
  std::vector<const std::string*> names;
  // Each module's parent comes before it (the parser adds a module when it reaches it).
  for (std::size_t at = m; at != 0 && at < modules.size() && names.size() < modules.size();
       at = modules[at].parent)
    names.push_back(&modules[at].name);
  std::string out;
  for (auto it = names.rbegin(); it != names.rend(); ++it) out += (out.empty() ? "" : "::") + **it;
  return out;
}

} // namespace tujit::ir::lang
