// Name and type resolution for the kernel language: the file's axes (`axes![…]`, docs/mapping.md
// D-17), type aliases (mapping, scalar and tensor aliases; `{ Alias }` inside mappings), `const`
// numbers, and TypeExpr → mapping / scalar / tensor type (docs/kernel-language.md §5).
#pragma once

#include "ir/lang/ast.h"
#include "ir/lang/types.h"
#include "ir/mapping/syntax.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// What a TypeExpr denotes.
struct Resolved {
  enum class Kind : std::uint8_t {
    Mapping,
    Scalar,
    Tensor,
    Infer,   // `_`
    Generic, // `T`, `{ T }`, `Tu::Main`, `B`: furiosa-opt parameters tujit drops
    Context, // `Context`
    Other,   // a type outside the kernel language (usize, a struct, `()`): not an error by itself
    Error,   // already diagnosed
  };
  /// A view type (`HbmTensorView`, `DmTensorViewMut`, …): a Tensor of the viewed kind, and whether
  /// it is a view and a mutable one (docs/kernel-language.md §6).
  enum class View : std::uint8_t { None, Shared, Mut };
  Kind kind = Kind::Error;
  View view = View::None;
  SourceSpan span;
  std::string name; // Other/Generic: the name as written
  SpannedMapping mapping;
  ScalarType scalar = ScalarType::BF16;
  TensorType tensor;
};

class Resolver {
public:
  Resolver(const FileAst& ast, Diagnostics& diags);

  /// Collects every `axes!` (all of them, wherever they sit: mappings anywhere may use them),
  /// every alias and const. Call once before resolving.
  void collect();

  const AxisTable& axes() const { return axes_; }

  /// The generic parameter names of the fn being resolved (`T`, `B`).
  void set_generics(std::vector<std::string> g) { generics_ = std::move(g); }

  /// Resolves `t`. Diagnostics for unknown names, wrong argument counts and bad mappings are
  /// appended; the result is then Kind::Error.
  Resolved resolve(const TypeExpr& t);

  /// Resolves `t` and requires a mapping (for the slot/argument `what`), or reports E-TYPE-004.
  std::optional<SpannedMapping> resolve_mapping(const TypeExpr& t, std::string_view what);
  /// Resolves `t` and requires a scalar type, or reports E-TYPE-002 / E-TYPE-004.
  std::optional<ScalarType> resolve_scalar(const TypeExpr& t, std::string_view what);

  /// Without diagnostics: does `t` name a tensor type, directly or through aliases?
  bool looks_like_tensor(const TypeExpr& t, int depth = 0) const;

  // ---- names a `use` brings in (docs/kernel-language.md §1.2), added after collect() ---------
  /// An axis: its name and size, as declared where it is defined.
  void import_axis(const Axis& axis);
  /// A const with its value.
  void import_const(const std::string& name, std::uint64_t value);
  /// A type alias, resolved by `home` (the resolver of the module that defines it, as
  /// `home_name`) with that module's names. `other_file`: `home` reads another file, so the
  /// spans of what it resolves are replaced by the span of the use in this file.
  void import_alias(const std::string& name, Resolver& home, const std::string& home_name,
                    bool other_file);
  /// The const `name` in scope (own or imported), when it has a value.
  std::optional<std::uint64_t> constant(std::string_view name) const;
  /// Whether `name` is a type alias in scope (own or imported).
  bool has_alias(std::string_view name) const;

private:
  struct AliasState {
    const TypeAlias* decl = nullptr;
    enum class State : std::uint8_t { Unresolved, Resolving, Done } state = State::Unresolved;
    Resolved value;
  };

  struct ImportedAlias {
    Resolver* home = nullptr;
    std::string name; // in `home`
    bool other_file = false;
  };

  Resolved resolve_alias(const std::string& name, SourceSpan use);
  Resolved resolve_imported_alias(const ImportedAlias& a, SourceSpan use);
  Resolved resolve_tensor(const TypeExpr& t, TensorKind kind);
  std::optional<Mapping> alias_mapping(std::string_view name);
  void error(std::string code, std::string msg, SourceSpan span,
             std::vector<std::string> notes = {});
  bool is_generic_arg(const TypeExpr& t) const;

  const FileAst& ast_;
  Diagnostics& diags_;
  AxisTable axes_;
  std::map<std::string, std::uint64_t, std::less<>> consts_;
  std::map<std::string, AliasState, std::less<>> aliases_;
  std::map<std::string, ImportedAlias, std::less<>> imported_aliases_;
  std::vector<std::string> generics_;
  std::size_t alias_depth_ = 0;
  MappingContext mctx_;
};

} // namespace tujit::ir::lang
