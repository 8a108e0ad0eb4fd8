#include "ir/lang/resolve.h"

#include <fmt/format.h>

namespace tujit::ir::lang {

namespace {

/// The view types of the memory tensors (furiosa-opt-std tensor/memory.rs): a view of the tensor
/// kind its name starts with.
struct ViewName {
  std::string_view name;
  TensorKind kind;
  Resolved::View view;
};
constexpr ViewName kViewNames[] = {
    {"HbmTensorView", TensorKind::Hbm, Resolved::View::Shared},
    {"HbmTensorViewMut", TensorKind::Hbm, Resolved::View::Mut},
    {"DmTensorView", TensorKind::Dm, Resolved::View::Shared},
    {"DmTensorViewMut", TensorKind::Dm, Resolved::View::Mut},
};

const ViewName* view_name(std::string_view name) {
  for (const ViewName& v : kViewNames)
    if (v.name == name) return &v;
  return nullptr;
}

} // namespace

namespace {
/// Aliases referring to aliases: deeper chains are refused (a cycle or a generated file).
constexpr std::size_t kMaxAliasDepth = 64;
constexpr std::size_t kMaxTypeDiagnostics = 5000;

std::string arg_names(TensorKind k) {
  std::string out;
  for (const auto& a : tensor_args(k)) {
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}
} // namespace

Resolver::Resolver(const FileAst& ast, Diagnostics& diags) : ast_(ast), diags_(diags) {
  mctx_.axes = &axes_;
  mctx_.alias = [this](std::string_view name) { return alias_mapping(name); };
  mctx_.constant = [this](std::string_view name) { return constant(name); };
  mctx_.max_depth = 128;
}

void Resolver::error(std::string code, std::string msg, SourceSpan span,
                     std::vector<std::string> notes) {
  if (diags_.size() > kMaxTypeDiagnostics) return; // only ~20 are shown; bound the memory
  Diagnostic d = make_error(std::move(code), std::move(msg), span, std::move(notes));
  d.stage = "type";
  diags_.push_back(std::move(d));
}

void Resolver::collect() {
  for (const auto& decl : ast_.axes) {
    auto parsed = parse_axes(decl.body);
    if (!parsed) {
      for (const auto& d : parsed.diagnostics()) {
        diags_.push_back(d);
        if (!diags_.back().span) diags_.back().span = decl.span;
      }
      continue;
    }
    for (const auto& axis : *parsed) {
      if (const Axis* old = axes_.find(axis.name)) {
        if (old->size == axis.size) continue; // the same axis declared again (book snippets)
        SourceSpan at = decl.span;
        for (const auto& t : decl.body)
          if (t.is_ident(axis.name)) {
            at = t.span;
            break;
          }
        error("E-TYPE-001",
              fmt::format("axis `{}` is declared with size {} here, but with size {} earlier",
                          axis.name, axis.size, old->size),
              at,
              {"an axis is its name and its size: one name cannot have two sizes in one file "
               "(docs/mapping.md D-17)"});
        continue;
      }
      axes_.add(axis);
    }
  }
  for (const auto& c : ast_.consts)
    if (c.value) consts_[c.name] = *c.value;
  for (const auto& al : ast_.aliases) {
    auto [it, fresh] = aliases_.try_emplace(al.name);
    if (fresh) {
      it->second.decl = &al;
      continue;
    }
    error("E-TYPE-006", fmt::format("type alias `{}` is defined twice", al.name), al.name_span,
          {"each alias name may be defined once per file; the first definition is used"});
  }
}

bool Resolver::is_generic_arg(const TypeExpr& t) const {
  if (t.kind == TypeExpr::Kind::Infer) return true;
  if (t.kind != TypeExpr::Kind::Name || t.has_args) return false;
  if (t.is_path) return true; // Tu::Main
  for (const auto& g : generics_)
    if (g == t.name) return true;
  return t.name == "CurrentBackend";
}

bool Resolver::looks_like_tensor(const TypeExpr& t, int depth) const {
  if (t.kind != TypeExpr::Kind::Name || depth > 16) return false;
  if (tensor_kind_from_name(t.name) || view_name(t.name)) return true;
  if (t.has_args) return false;
  if (auto imp = imported_aliases_.find(t.name); imp != imported_aliases_.end()) {
    const auto home = imp->second.home->aliases_.find(imp->second.name);
    if (home != imp->second.home->aliases_.end())
      return imp->second.home->looks_like_tensor(home->second.decl->type, depth + 1);
    TypeExpr again = t; // imported by the home module in turn
    again.name = imp->second.name;
    return imp->second.home->looks_like_tensor(again, depth + 1);
  }
  auto it = aliases_.find(t.name);
  return it != aliases_.end() && looks_like_tensor(it->second.decl->type, depth + 1);
}

std::optional<Mapping> Resolver::alias_mapping(std::string_view name) {
  if (!has_alias(name)) return std::nullopt;
  Resolved r = resolve_alias(std::string(name), SourceSpan{});
  if (r.kind != Resolved::Kind::Mapping) return std::nullopt;
  return r.mapping.mapping;
}

void Resolver::import_axis(const Axis& axis) {
  if (!axes_.find(axis.name)) axes_.add(axis);
}

void Resolver::import_const(const std::string& name, std::uint64_t value) {
  consts_.try_emplace(name, value);
}

void Resolver::import_alias(const std::string& name, Resolver& home, const std::string& home_name,
                            bool other_file) {
  if (aliases_.count(name)) return; // the module's own alias shadows an import
  imported_aliases_.try_emplace(name, ImportedAlias{&home, home_name, other_file});
}

std::optional<std::uint64_t> Resolver::constant(std::string_view name) const {
  auto it = consts_.find(name);
  if (it == consts_.end()) return std::nullopt;
  return it->second;
}

bool Resolver::has_alias(std::string_view name) const {
  return aliases_.find(name) != aliases_.end() ||
         imported_aliases_.find(name) != imported_aliases_.end();
}

namespace {

/// Every span of `r` set to `use` (what another file's alias resolved to, seen from this file).
void respan(Resolved& r, SourceSpan use) {
  r.span = use;
  r.mapping.span = use;
  r.tensor.span = use;
  r.tensor.dtype_span = use;
  for (auto& slot : r.tensor.slots)
    if (slot) slot->span = use;
  if (r.tensor.pre_time) r.tensor.pre_time->span = use;
}

} // namespace

Resolved Resolver::resolve_imported_alias(const ImportedAlias& a, SourceSpan use) {
  if (++alias_depth_ > kMaxAliasDepth) {
    --alias_depth_;
    Resolved bad;
    bad.span = use;
    error("E-TYPE-007", fmt::format("type alias `{}` refers to itself", a.name), use,
          {"an alias must be defined in terms of axes and other aliases"});
    return bad;
  }
  Resolved out = a.home->resolve_alias(a.name, a.other_file ? SourceSpan{} : use);
  --alias_depth_;
  if (out.kind == Resolved::Kind::Error) return out; // diagnosed where it is defined
  if (a.other_file) respan(out, use);
  return out;
}

Resolved Resolver::resolve_alias(const std::string& name, SourceSpan use) {
  Resolved bad;
  bad.span = use;
  if (auto imp = imported_aliases_.find(name); imp != imported_aliases_.end())
    return resolve_imported_alias(imp->second, use);
  auto it = aliases_.find(name);
  if (it == aliases_.end()) return bad;
  AliasState& st = it->second;
  if (st.state == AliasState::State::Resolving || alias_depth_ >= kMaxAliasDepth) {
    error("E-TYPE-007", fmt::format("type alias `{}` refers to itself", name), st.decl->name_span,
          {"an alias must be defined in terms of axes and other aliases"});
    st.state = AliasState::State::Done;
    st.value = bad;
    return bad;
  }
  if (st.state == AliasState::State::Unresolved) {
    st.state = AliasState::State::Resolving;
    ++alias_depth_;
    Resolved v = resolve(st.decl->type);
    --alias_depth_;
    st.value = std::move(v);
    st.state = AliasState::State::Done;
  }
  Resolved out = st.value;
  if (st.value.kind == Resolved::Kind::Error) return out; // diagnosed at the definition
  // The mapping is "where it came from" for diagnostics: the use site names it.
  if (use.length > 0) {
    out.span = use;
    if (out.kind == Resolved::Kind::Mapping) out.mapping.span = use;
    if (out.kind == Resolved::Kind::Scalar) out.tensor.dtype_span = use;
  }
  return out;
}

Resolved Resolver::resolve(const TypeExpr& t) {
  Resolved r;
  r.span = t.span;
  switch (t.kind) {
  case TypeExpr::Kind::Infer:
    r.kind = Resolved::Kind::Infer;
    return r;
  case TypeExpr::Kind::Other:
    r.kind = Resolved::Kind::Other;
    return r;
  case TypeExpr::Kind::Mapping: {
    auto m = parse_mapping(t.body, mctx_);
    if (!m) {
      for (const auto& d : m.diagnostics()) {
        diags_.push_back(d);
        if (!diags_.back().span) diags_.back().span = t.span;
      }
      r.kind = Resolved::Kind::Error;
      return r;
    }
    r.kind = Resolved::Kind::Mapping;
    r.mapping = SpannedMapping{*m, t.span};
    return r;
  }
  case TypeExpr::Kind::Name:
    break;
  }
  r.name = t.name;
  if (t.has_args) {
    if (auto k = tensor_kind_from_name(t.name)) return resolve_tensor(t, *k);
    if (const ViewName* v = view_name(t.name)) {
      Resolved viewed = resolve_tensor(t, v->kind);
      if (viewed.kind == Resolved::Kind::Tensor) viewed.view = v->view;
      return viewed;
    }
    r.kind = Resolved::Kind::Other;
    return r;
  }
  if (is_generic_arg(t) || t.name == "Tu") {
    r.kind = Resolved::Kind::Generic;
    return r;
  }
  if (auto s = parse_scalar_type(t.name)) {
    r.kind = Resolved::Kind::Scalar;
    r.scalar = *s;
    return r;
  }
  if (has_alias(t.name)) return resolve_alias(t.name, t.span);
  if (t.name == "Context") {
    r.kind = Resolved::Kind::Context;
    return r;
  }
  r.kind = Resolved::Kind::Other;
  return r;
}

Resolved Resolver::resolve_tensor(const TypeExpr& t, TensorKind kind) {
  Resolved r;
  r.span = t.span;
  r.name = t.name;
  auto params = tensor_args(kind);
  std::vector<const TypeExpr*> args;
  for (const auto& a : t.args) args.push_back(&a);
  // furiosa-opt's `const T: Tu` comes first, a `B: Backend` last; the context a `{ Tu::Main }` /
  // `{ Tu::Sub }` names is kept (contraction runs in the main context only).
  ContextKind tu = ContextKind::Unknown;
  if (args.size() > params.size() && has_tu_parameter(kind) && is_generic_arg(*args.front())) {
    const TypeExpr& first = *args.front();
    if (first.is_path && first.name == "Main") tu = ContextKind::Main;
    if (first.is_path && first.name == "Sub") tu = ContextKind::Sub;
    args.erase(args.begin());
  }
  if (args.size() > params.size() && is_generic_arg(*args.back())) args.pop_back();
  if (args.size() != params.size()) {
    error("E-TYPE-005",
          fmt::format("`{}` takes {} type arguments ({}), found {}", t.name, params.size(),
                      arg_names(kind), args.size()),
          t.span, {"lifetimes and furiosa-opt's `T` parameter are not counted"});
    return r;
  }
  TensorType ty;
  ty.kind = kind;
  ty.span = t.span;
  ty.tu = tu;
  bool ok = true;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const TensorArg& p = params[i];
    std::string what = fmt::format("`{}` of `{}`", p.name, t.name);
    if (p.kind == TensorArg::Kind::Mapping) {
      auto m = resolve_mapping(*args[i], what);
      if (!m) {
        ok = false;
        continue;
      }
      ty.set(p.slot, *m);
    } else {
      auto s = resolve_scalar(*args[i], what);
      if (!s) {
        ok = false;
        continue;
      }
      if (p.kind == TensorArg::Kind::Dtype) {
        ty.dtype = *s;
        ty.dtype_span = args[i]->span;
      } else {
        ty.storage = *s;
      }
    }
  }
  if (!ok) return r;
  r.kind = Resolved::Kind::Tensor;
  r.tensor = std::move(ty);
  return r;
}

namespace {
std::string_view describe(const Resolved& r) {
  switch (r.kind) {
  case Resolved::Kind::Mapping:
    return "a mapping";
  case Resolved::Kind::Scalar:
    return "a scalar type";
  case Resolved::Kind::Tensor:
    return "a tensor type";
  case Resolved::Kind::Infer:
    return "`_`";
  case Resolved::Kind::Generic:
    return "a generic parameter";
  case Resolved::Kind::Context:
    return "`Context`";
  case Resolved::Kind::Other:
  case Resolved::Kind::Error:
    break;
  }
  return "a type outside the kernel language";
}
} // namespace

std::optional<SpannedMapping> Resolver::resolve_mapping(const TypeExpr& t, std::string_view what) {
  Resolved r = resolve(t);
  if (r.kind == Resolved::Kind::Mapping) return r.mapping;
  if (r.kind == Resolved::Kind::Error) return std::nullopt;
  if (r.kind == Resolved::Kind::Other && t.kind == TypeExpr::Kind::Name && !t.has_args) {
    error("E-TYPE-003", fmt::format("unknown type `{}` (expected a mapping for {})", t.name, what),
          t.span, {"a mapping is written `m![…]` or names a `type Alias = m![…];`"});
    return std::nullopt;
  }
  if (r.kind == Resolved::Kind::Infer) {
    error("E-TYPE-012",
          fmt::format("cannot infer {}: `_` is only allowed in method type "
                      "arguments",
                      what),
          t.span, {"write the mapping"});
    return std::nullopt;
  }
  error("E-TYPE-004", fmt::format("expected a mapping for {}, found {}", what, describe(r)),
        t.span);
  return std::nullopt;
}

std::optional<ScalarType> Resolver::resolve_scalar(const TypeExpr& t, std::string_view what) {
  Resolved r = resolve(t);
  if (r.kind == Resolved::Kind::Scalar) return r.scalar;
  if (r.kind == Resolved::Kind::Error) return std::nullopt;
  if (r.kind == Resolved::Kind::Other && t.kind == TypeExpr::Kind::Name && !t.has_args) {
    error("E-TYPE-002", fmt::format("unknown scalar type `{}` for {}", t.name, what), t.span,
          {fmt::format("the element types are: {}", allowed_scalar_names())});
    return std::nullopt;
  }
  if (r.kind == Resolved::Kind::Infer) {
    error("E-TYPE-012",
          fmt::format("cannot infer {}: `_` is only allowed in method type "
                      "arguments",
                      what),
          t.span, {"write the element type"});
    return std::nullopt;
  }
  error("E-TYPE-004", fmt::format("expected a scalar type for {}, found {}", what, describe(r)),
        t.span, {fmt::format("the element types are: {}", allowed_scalar_names())});
  return std::nullopt;
}

} // namespace tujit::ir::lang
