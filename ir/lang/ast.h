// Syntax tree of the kernel spec language (docs/kernel-language.md §3). It keeps only what
// can change a kernel's meaning; attributes, `extern crate`, lifetimes and driver statements
// other than top-level `let`s (FileAst::driver) are dropped by the parser. Inline `mod` blocks
// and `use` items are kept as a module table (docs/kernel-language.md §1.2): every item carries
// the index of the module it is written in. Mapping bodies stay as token ranges: they are parsed
// in sema (ir/lang/sema.cpp), once the axes and aliases they refer to are known.
#pragma once

#include "ir/lex/token.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir::lang {

/// A type as written: `m![…]`, a name (scalar, alias, generic, `Context`), a tensor type with its
/// arguments, `_`, `{ T }` (unwrapped by the parser) or something outside the subset.
struct TypeExpr {
  enum class Kind : std::uint8_t {
    Mapping, // m![ body ]
    Name,    // IDENT or a path `Tu::Main`; with `args` when written `Name<…>`
    Infer,   // `_`
    Other,   // a literal, `()`, a tuple: not part of the kernel language
  };
  Kind kind = Kind::Other;
  SourceSpan span;
  std::string name;           // Name: the last path segment (`Main` for `Tu::Main`)
  bool is_path = false;       // Name: written with `::`
  bool braced = false;        // written `{ … }`
  bool has_args = false;      // Name: written with `<…>`
  std::vector<TypeExpr> args; // Name: generic arguments, lifetimes dropped
  std::vector<Token> body;    // Mapping: the tokens strictly between `m![` and `]`
  bool is_ref = false;        // written `&T` / `&mut T`
  bool is_mut_ref = false;    // written `&mut T`
};

/// An expression of a kernel body: `input`, `ctx.main`, method chains, arguments.
struct Expr {
  enum class Kind : std::uint8_t {
    Name,       // IDENT
    Field,      // receiver.IDENT
    MethodCall, // receiver.IDENT::<targs>(args)
    Ref,        // &expr / &mut expr (operand in `inner`)
    Neg,        // -expr of a name (`-offset`; a negative literal is an Int / Float)
    Int,        // integer literal, optionally negated
    LaneMode,   // LaneMode::Interleaved / LaneMode::Sequential
    Float,      // float literal, optionally negated (`2.0f32`, `-0.5`)
    Path,       // `TagMode::Zero`, `FpUnaryOp::Sqrt`, `Stash` is a Name
    PathCall,   // `FpBinaryOp::MulF(FpMulAlu::Mul0)`, `DmTensor::new()` (args in `args`)
    Tuple,      // `(a, b)` (elements in `args`)
    Array, // `[a, b, c]` (elements in `args`): a TagGuard's bit pattern, a TagMode's comparisons
    StructLit, // `SwitchConfig::Broadcast1 { slice1: 4, slice0: 8 }`: `path`, then one field
               // per `field_names` entry with its value in `args` (docs/kernel-language.md §3)
    Other,     // anything outside the subset that still parsed (free calls, macros, strings); a
               // free call `f(a, &b)` keeps `name` and, when they parse, `args` (driver code
               // calling a kernel)
  };
  Kind kind = Kind::Other;
  SourceSpan span;
  std::string name;              // Name/Field/MethodCall: the identifier; LaneMode: the variant
  SourceSpan name_span;          // of `name`
  std::unique_ptr<Expr> inner;   // Field/MethodCall: receiver; Ref: operand
  bool ref_mut = false;          // Ref
  bool has_turbofish = false;    // MethodCall
  std::vector<TypeExpr> targs;   // MethodCall
  std::vector<Expr> args;        // MethodCall
  std::int64_t int_value = 0;    // Int
  bool int_overflow = false;     // Int that does not fit i64
  double float_value = 0;        // Float (the literal's nearest double; see float_text)
  std::string float_text;        // Float: the digits as written, suffix and `_` removed, sign kept
  std::vector<std::string> path; // Path / PathCall / StructLit: the segments
  std::vector<std::string> field_names; // StructLit: `field` of each `field: value`
  std::vector<SourceSpan> field_spans;  // StructLit: the span of each field name
};

/// A deep copy of `e` (an Expr owns its receiver, so it is move-only).
inline Expr clone(const Expr& e) {
  Expr c;
  c.kind = e.kind;
  c.span = e.span;
  c.name = e.name;
  c.name_span = e.name_span;
  if (e.inner) c.inner = std::make_unique<Expr>(clone(*e.inner));
  c.ref_mut = e.ref_mut;
  c.has_turbofish = e.has_turbofish;
  c.targs = e.targs;
  for (const auto& a : e.args) c.args.push_back(clone(a));
  c.int_value = e.int_value;
  c.int_overflow = e.int_overflow;
  c.float_value = e.float_value;
  c.float_text = e.float_text;
  c.path = e.path;
  c.field_names = e.field_names;
  c.field_spans = e.field_spans;
  return c;
}

struct Param {
  std::string name;
  SourceSpan span; // the name
  TypeExpr type;
};

/// A bound of a `for` loop's range (docs/kernel-language.md §3.1): an integer literal, a `const`,
/// `NAME::SIZE`, or a parenthesised expression of those with `+ - * / %`; its tokens, evaluated
/// by the typer once the file's constants are known.
struct LoopBound {
  std::vector<Token> tokens;
  SourceSpan span;
};

struct Stmt {
  enum class Kind : std::uint8_t { Let, Expr, For };
  Kind kind = Kind::Expr;
  SourceSpan span;
  std::string name; // Let: the bound name (`_` allowed); For: the loop variable
  SourceSpan name_span;
  std::optional<TypeExpr> annotation; // Let
  std::optional<Expr> value;          // Let (may be absent: `let x;`), Expr
  std::optional<LoopBound> from, to;  // For: the range `from..to`
  std::vector<Stmt> body;             // For: the loop body (a tail expression as a statement)
};

struct FnItem {
  std::string name;
  SourceSpan name_span;
  SourceSpan span;                   // `fn` … closing `}`
  std::vector<std::string> generics; // const and type generic names (`T`, `B`); lifetimes dropped
  std::vector<Param> params;
  std::optional<TypeExpr> ret;
  std::vector<Stmt> body;   // statements of the body (driver fns too; sema decides)
  std::optional<Expr> tail; // the tail expression
  bool body_parsed = false; // false when the fn has no body (a syntax error)
  /// Written with a `#[device…]` attribute: an entry point of the file, a kernel even when
  /// another fn calls it (docs/kernel-language.md §9).
  bool device = false;
  /// Refused operations (vector_*, commit*, …) seen in statements the parser skipped as driver
  /// code: name and span, reported as warnings.
  std::vector<std::pair<std::string, SourceSpan>> skipped_refused;
  std::size_t module = 0; // FileAst::modules
};

struct AxesDecl {
  SourceSpan span;         // `axes!`
  std::vector<Token> body; // between the brackets
  std::size_t module = 0;  // FileAst::modules
};

struct TypeAlias {
  std::string name;
  SourceSpan name_span;
  TypeExpr type;
  std::size_t module = 0; // FileAst::modules
};

/// `const NAME: ty = INT;` — usable as `{ NAME }` in mapping number positions (docs/mapping.md
/// D-15).
struct ConstItem {
  std::string name;
  SourceSpan name_span;
  std::optional<std::uint64_t> value; // nullopt when not a plain natural literal
  std::size_t module = 0;             // FileAst::modules
};

/// A module of the file (docs/kernel-language.md §1.2). Index 0 is the file's own top level; each
/// `mod NAME { … }` adds one whose items carry its index, and `mod NAME;` one whose items are in
/// another file (found where Rust puts it).
struct ModuleDecl {
  std::string name; // empty for the file's top level
  SourceSpan name_span;
  std::size_t parent = 0; // the module it is written in
  bool has_body = true;   // `mod NAME { … }`; false for `mod NAME;`
};

/// One name a `use` item imports (docs/kernel-language.md §1.2): `use crate::a::{B, C as D};`
/// is two, `use super::*;` one glob. Paths into other crates (`furiosa_opt_std::…`) are not kept.
struct UseName {
  std::vector<std::string> path; // the module path before the name: `crate`, `a`
  SourceSpan path_span;          // that path as written
  std::string name;              // the item; empty for a glob `*`; `self` for the module itself
  std::string bound;             // the name it is known by in the importing module (`D`)
  SourceSpan span;               // the name, or the `*`, as written
  std::size_t module = 0;        // the importing module
  bool glob() const { return name.empty(); }
};

/// A named item outside the kernel language (`struct`, `enum`, `trait`, …): kept so that a `use`
/// naming one is told why it imports nothing.
struct OtherItem {
  std::string name;
  std::string what; // the keyword: "struct", "enum", …
  std::size_t module = 0;
};

struct FileAst {
  std::vector<AxesDecl> axes;
  std::vector<TypeAlias> aliases;
  std::vector<ConstItem> consts;
  std::vector<FnItem> fns; // every fn, top level or nested, in source order
  /// The file's top-level `let` statements: the driver code of a book snippet, which builds a
  /// kernel's inputs and calls it (ir/lang/driver.h). Only `body` is set.
  FnItem driver;
  /// Refused operations seen in skipped top-level driver code (warnings).
  std::vector<std::pair<std::string, SourceSpan>> skipped_refused;
  /// A top-level `use super::*;`: the parent module's axes, type aliases and consts are in scope
  /// (ir/lang/parent_module.h).
  std::optional<SourceSpan> use_super;
  /// The file's modules, its top level first (ModuleDecl), and what their `use` items import.
  std::vector<ModuleDecl> modules{ModuleDecl{}};
  std::vector<UseName> uses;
  std::vector<OtherItem> others;
};

/// The calls tujit recognises but does not simulate (docs/kernel-language.md §6.1): the
/// `vector_*` methods outside the simulated set (vector_args.h), `transpose*` other than
/// `transpose`, `commit_view`, `commit_valid_count_pack`, `dma*`, and the DMA forms
/// `to_dm_*` / `to_hbm_*`.
bool is_refused_operation(std::string_view method);

} // namespace tujit::ir::lang
