// `use super::*;` (docs/kernel-language.md §1.1): the reference's examples keep their axes and
// type aliases in the parent module's file (`vector_engine.rs` for `vector_engine/normal.rs`) and
// glob-import them. tujit follows the import to that file, found the way Rust lays modules out,
// and brings its `axes!`, `type` aliases and `const`s into scope; its fns stay out (they are that
// file's kernels, checked there).
#pragma once

#include "ir/lang/ast.h"
#include "ir/support/diagnostic.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// The file of the parent module of the module in `file`: for `D/x.rs`, the module of directory
/// D — `D.rs` beside D, else `D/mod.rs`, else the crate root `D/lib.rs` or `D/main.rs`; for
/// `D/mod.rs` (module D itself) the same one level up. nullopt when none exists.
std::optional<std::filesystem::path> parent_module_file(const std::filesystem::path& file);

/// The parents' sources, alive as long as the AST that holds their tokens.
using ParentSources = std::vector<std::unique_ptr<SourceBuffer>>;

/// When `ast` has a `use super::*;`, adds the parent module's axes, aliases and consts to it (an
/// item `ast` defines itself shadows the parent's, as in Rust), following the parent's own
/// `use super::*` up to 8 modules up. `file` is the path the source was read from. Warning
/// E-PARSE-207 when the parent cannot be found or read, or does not parse.
void import_parent_module(const std::string& file, FileAst& ast, ParentSources& sources,
                          Diagnostics& diags);

} // namespace tujit::ir::lang
