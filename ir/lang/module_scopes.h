// A kernel file split by module (docs/kernel-language.md §1.2): each `mod NAME { … }` is a scope
// of its own, whose kernels see the items the module defines and those its `use` items import,
// as in Rust. The front end resolves and types one scope at a time (ir/lang/kernel.cpp), so a
// file without modules is one scope, exactly as before modules existed.
#pragma once

#include "ir/lang/parser.h"

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// One module's own items: what the resolver collects and the typer types for it.
struct ModuleScope {
  /// The items written in the module. Scope 0 (the file's top level) also holds the driver code,
  /// the refused operations of skipped statements and the `use super::*` of the file.
  FileAst ast;
  std::deque<Diagnostics> body_diags; // per ast.fns, as ParsedFile::body_diags
};

/// `parsed` split by module, in the order of ParsedFile::ast.modules (the file's top level
/// first). The module table (`modules`, `uses`, `others`) is returned in `table`.
std::vector<std::unique_ptr<ModuleScope>> split_modules(ParsedFile parsed, FileAst& table);

/// The path of module `m` inside its file: `packet`, `a::b`; empty for the top level.
std::string module_path_in_file(const std::vector<ModuleDecl>& modules, std::size_t m);

} // namespace tujit::ir::lang
