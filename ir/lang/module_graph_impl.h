// Internal to the module graph (ir/lang/module_graph.cpp, module_names.cpp): one file of it.
// Not for use outside ir/lang/.
#pragma once

#include "ir/lang/module_graph.h"
#include "ir/lang/parent_module.h"

namespace tujit::ir::lang {

/// One file: the checked one, or one a `use` reads.
struct ModuleGraph::Unit {
  std::filesystem::path path;
  std::unique_ptr<SourceBuffer> owned; // a file a `use` reads (the checked one is the caller's)
  FileAst table;                       // its modules, `use`s and other items
  std::vector<std::unique_ptr<ModuleScope>> scopes;
  std::vector<std::unique_ptr<Resolver>> resolvers;               // per module
  std::vector<std::map<std::string, Binding, std::less<>>> names; // per module
  std::vector<std::string> module_path;                           // the file's module in the crate
  /// The checked file's diagnostics are the analysis's; a file a `use` reads keeps its own,
  /// reported at the `use` when it has errors.
  Diagnostics own_diags;
  Diagnostics* diags = &own_diags;
  ParentSources parents; // what the file's `use super::*` read
  bool reported = false; // its errors were reported at a `use`
};

} // namespace tujit::ir::lang
