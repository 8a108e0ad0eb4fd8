// The modules of a kernel file, and of the files its `use` items reach, with the names each module
// sees (docs/kernel-language.md §1.2): the items it defines, then what its `use`s import — a name
// of the same file (`use super::*`, `use crate::m::{A}` for a module m of this file) or of another
// file of the crate (`use crate::a::b::{A}`, found by ir/lang/module_files.h). As in Rust, a
// module's own item shadows a glob import, and an explicit import a glob one.
//
// Only what the kernel language has is imported: axes, type aliases, consts and kernel fns of the
// same file. Anything else a `use` names explicitly is warned about and binds nothing
// (E-PARSE-212); a module or file that cannot be found, read or parsed (E-PARSE-209), a name the
// module does not have (E-PARSE-210), a chain of imports that comes back to where it started or a
// file importing itself (E-PARSE-211) and a name bound twice in one module (E-PARSE-213) are
// errors at the `use`. Visibility (`pub`) is not checked: tujit reads programs rustc accepts.
#pragma once

#include "ir/lang/module_scopes.h"
#include "ir/lang/resolve.h"
#include "ir/lang/sema.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// What a name in a module's scope stands for.
struct Binding {
  enum class Kind : std::uint8_t { Axis, Alias, Const, Fn, Module, Other };
  enum class Origin : std::uint8_t { Own, Explicit, Glob };
  Kind kind = Kind::Other;
  Origin origin = Origin::Own;
  std::size_t unit = 0;       // the file that defines the item (ModuleGraph's files)
  std::size_t module = 0;     // the module that defines it; Kind::Module: the module it is
  std::string name;           // its name there
  std::string what;           // Kind::Other: the keyword that declares it (`struct`)
  const FnItem* fn = nullptr; // Kind::Fn
  SourceSpan use;             // Explicit / Glob: the name (or `*`) of the `use` that bound it
  bool same_item(const Binding& o) const {
    return kind == o.kind && unit == o.unit && module == o.module && name == o.name;
  }
};

class ModuleGraph {
public:
  /// The file being checked, parsed (`parsed` of `source`): each of its modules becomes a scope
  /// with its own resolver. `diags` receives the file's diagnostics about modules and imports.
  ModuleGraph(const SourceBuffer& source, ParsedFile parsed, Diagnostics& diags);
  ~ModuleGraph();
  ModuleGraph(const ModuleGraph&) = delete;
  ModuleGraph& operator=(const ModuleGraph&) = delete;

  /// Reads the files the `use`s reach, binds every module's names and gives each module's
  /// resolver the axes, consts and aliases it imports. Call once, before typing.
  void resolve();

  /// The modules of the checked file (ModuleDecl order; 0 is its top level).
  std::size_t module_count() const;
  ModuleScope& scope(std::size_t m);
  Resolver& resolver(std::size_t m);
  /// The fns a kernel of module `m` may call: the module's own, then the kernel fns a `use`
  /// brings from another module of the file, each with its own module's resolver.
  std::vector<CallableFn> callables(std::size_t m) const;
  /// The prefix of the names of module `m`'s kernels: `packet::`; empty for the top level.
  std::string kernel_prefix(std::size_t m) const;
  /// The axes of every module of the file: one table per file, as the mapping algebra and `tujit
  /// run` read axes by name (docs/mapping.md D-17). E-TYPE-001 when two modules give one axis
  /// name two sizes.
  AxisTable file_axes();

  struct Unit; // one file (module_graph_impl.h)

private:
  struct Place {
    std::size_t unit = 0;
    std::size_t module = 0;
    bool operator==(const Place&) const = default;
  };
  struct Import {
    std::size_t unit = 0;
    const UseName* use = nullptr;
    Place target;
  };

  // ---- files and paths (module_graph.cpp) --------------------------------------------------
  void add_unit_scopes(Unit& u, ParsedFile parsed);
  void own_names(std::size_t unit);
  std::optional<std::size_t> load(const std::filesystem::path& file,
                                  const std::vector<std::string>& module_path, std::size_t from,
                                  const UseName& use);
  std::optional<Place> locate_use(std::size_t unit, const UseName& use);
  std::optional<Place> walk(Place at, const std::vector<std::string>& segments, std::size_t first,
                            const UseName& use, std::size_t from);
  std::optional<Place> locate_absolute(const std::vector<std::string>& path, const UseName& use,
                                       std::size_t from);
  std::optional<Place> parent_of(Place at, const UseName& use, std::size_t from);
  std::optional<std::size_t> inline_child(Place at, const std::string& name) const;
  std::vector<std::string> crate_path_of(Place at) const;
  void report(std::size_t unit, std::string code, std::string message, SourceSpan at,
              std::vector<std::string> notes = {});

  // ---- names (module_names.cpp) ------------------------------------------------------------
  std::map<std::string, Binding, std::less<>>& names(Place p);
  void bind_imports();
  bool bind_one(const Import& imp);
  void diagnose_unbound();
  void diagnose_chain(const Import& imp);
  void give_resolvers();
  void give_resolver(std::size_t unit, std::size_t module, const std::string& bound,
                     const Binding& b);
  void report_broken_files();

  std::vector<std::unique_ptr<Unit>> units_; // the checked file first
  std::vector<Import> imports_;
  std::filesystem::path crate_src_;
  bool standalone_ = false;
};

} // namespace tujit::ir::lang
