#include "ir/lang/module_files.h"
#include "ir/lang/module_graph_impl.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

// The names each module binds (docs/kernel-language.md §1.2): its own items, then its imports,
// bound until nothing changes (two modules may glob-import each other, as Rust allows), then
// handed to the modules' resolvers. The files and paths are in module_graph.cpp.

namespace tujit::ir::lang {

namespace {

/// Rounds of binding: each round binds at least one more name, so this is never reached by a
/// file tujit can read; it bounds the work whatever the input.
constexpr std::size_t kMaxRounds = 100000;

std::string path_text(const UseName& use) {
  std::string out;
  for (const std::string& s : use.path) out += (out.empty() ? "" : "::") + s;
  return out;
}

std::string use_text(const UseName& use) {
  return path_text(use) + "::" + (use.glob() ? std::string("*") : use.name);
}

} // namespace

std::map<std::string, Binding, std::less<>>& ModuleGraph::names(Place p) {
  return units_[p.unit]->names[p.module];
}

bool ModuleGraph::bind_one(const Import& imp) {
  const UseName& use = *imp.use;
  auto& into = names(Place{imp.unit, use.module});
  const auto& from = names(imp.target);
  const auto imported = [&](Binding b, Binding::Origin origin) {
    b.origin = origin;
    b.use = use.span;
    return b;
  };
  if (use.glob()) {
    bool changed = false;
    for (const auto& [name, b] : from)
      changed = into.try_emplace(name, imported(b, Binding::Origin::Glob)).second || changed;
    return changed;
  }
  if (use.bound == "_") return false; // `use x::Trait as _;` binds no name
  Binding b;
  if (use.name == "self") {
    b.kind = Binding::Kind::Module;
    b.unit = imp.target.unit;
    b.module = imp.target.module;
    b.name = use.bound;
  } else if (auto it = from.find(use.name); it != from.end()) {
    b = it->second;
  } else {
    return false; // not bound there (yet)
  }
  auto [at, fresh] = into.try_emplace(use.bound, imported(b, Binding::Origin::Explicit));
  if (fresh) return true;
  if (at->second.origin != Binding::Origin::Glob) return false; // own or explicit: kept
  at->second = imported(b, Binding::Origin::Explicit);          // an explicit import wins
  return true;
}

void ModuleGraph::bind_imports() {
  bool changed = true;
  for (std::size_t round = 0; changed && round < kMaxRounds; ++round) {
    changed = false;
    for (const Import& imp : imports_) changed = bind_one(imp) || changed;
  }
}

void ModuleGraph::diagnose_chain(const Import& imp) {
  // Follow the name through the explicit imports that should have bound it.
  std::set<std::tuple<std::size_t, std::size_t, std::string>> seen;
  Place at = imp.target;
  std::string name = imp.use->name;
  std::string chain = use_text(*imp.use);
  while (true) {
    if (!seen.emplace(at.unit, at.module, name).second) {
      report(imp.unit, "E-PARSE-211",
             fmt::format("`{}` is imported in a circle: no module defines it", imp.use->name),
             imp.use->span, {fmt::format("the imports: {}", chain)});
      return;
    }
    const Import* next = nullptr;
    for (const Import& other : imports_)
      if (other.unit == at.unit && other.use->module == at.module && !other.use->glob() &&
          other.use->bound == name)
        next = &other;
    if (next == nullptr) break;
    at = next->target;
    name = next->use->name;
    chain += " → " + use_text(*next->use);
  }
  const Unit& target = *units_[imp.target.unit];
  const std::string where = module_path_in_file(target.table.modules, imp.target.module);
  report(imp.unit, "E-PARSE-210",
         fmt::format("`{}` has no item `{}`", path_text(*imp.use), imp.use->name), imp.use->span,
         {fmt::format("`{}` is {} of `{}`", path_text(*imp.use),
                      where.empty() ? std::string("the top level") : "module `" + where + "`",
                      target.path.string()),
          "an item is an axis of `axes![…]`, a `type`, a `const`, a `fn`, a `mod` or another "
          "item the module defines or imports"});
}

void ModuleGraph::diagnose_unbound() {
  for (const Import& imp : imports_) {
    const UseName& use = *imp.use;
    if (use.glob() || use.bound == "_") continue;
    const auto& into = names(Place{imp.unit, use.module});
    const auto it = into.find(use.bound);
    if (it == into.end()) {
      diagnose_chain(imp);
      continue;
    }
    const Binding& b = it->second;
    if (b.origin == Binding::Origin::Explicit && b.use == use.span) continue; // this import's
    // Bound by the module's own item, or by another explicit import of something else.
    const auto& from = names(imp.target);
    const auto mine = from.find(use.name);
    if (mine != from.end() && mine->second.same_item(b)) continue; // the same item twice
    report(
        imp.unit, "E-PARSE-213",
        fmt::format("`{}` is defined twice in this module: {} and this import", use.bound,
                    b.origin == Binding::Origin::Own ? "an item of the module" : "another import"),
        use.span, {"rename one (`use … as other`)"});
  }
}

void ModuleGraph::give_resolver(std::size_t unit, std::size_t module, const std::string& bound,
                                const Binding& b) {
  Resolver& r = *units_[unit]->resolvers[module];
  Resolver& home = *units_[b.unit]->resolvers[b.module];
  const bool other_file = b.unit != unit;
  const bool named = b.origin == Binding::Origin::Explicit;
  const auto refuse = [&](std::string why, std::string note) {
    if (!named) return; // a glob import takes what it can, silently
    Diagnostic d =
        make_error("E-PARSE-212", fmt::format("`{}` is not imported: {}", b.name, std::move(why)),
                   b.use, {std::move(note)});
    d.severity = Severity::Warning;
    d.stage = "parse";
    units_[unit]->diags->push_back(std::move(d));
  };
  switch (b.kind) {
  case Binding::Kind::Axis:
    if (bound != b.name)
      return refuse(fmt::format("an axis keeps the name it is declared with, not `{}`", bound),
                    fmt::format("import it as `{}`", b.name));
    if (const Axis* a = home.axes().find(b.name)) r.import_axis(*a);
    return;
  case Binding::Kind::Alias:
    return r.import_alias(bound, home, b.name, other_file);
  case Binding::Kind::Const:
    if (auto v = home.constant(b.name)) return r.import_const(bound, *v);
    return refuse("its value is not a plain natural number",
                  "the kernel language's consts are `const N: usize = 4;` (docs/mapping.md D-15)");
  case Binding::Kind::Fn:
    if (other_file)
      return refuse("it is a fn of another file",
                    "a called fn's body is typed at the call, in the file being checked; check "
                    "the other file on its own, or write the fn in this one");
    if (!is_kernel_candidate(*b.fn, home))
      return refuse("it is not a kernel fn (no tensor parameter, nor a context and a tensor "
                    "result)",
                    "the kernel language imports axes, type aliases, consts and kernel fns");
    return; // callables() gives it to the kernels of the module
  case Binding::Kind::Module:
    return;
  case Binding::Kind::Other:
    return refuse(fmt::format("it is a `{}`, outside the kernel language", b.what),
                  "the kernel language imports axes, type aliases, consts and kernel fns");
  }
}

void ModuleGraph::give_resolvers() {
  for (std::size_t u = 0; u < units_.size(); ++u)
    for (std::size_t m = 0; m < units_[u]->names.size(); ++m)
      for (const auto& [bound, b] : units_[u]->names[m])
        if (b.origin != Binding::Origin::Own) give_resolver(u, m, bound, b);
  // Another file's aliases resolved now (with that file's names), so that their errors are in
  // that file's diagnostics before report_broken_files() looks.
  Unit& main = *units_.front();
  for (std::size_t m = 0; m < main.names.size(); ++m)
    for (const auto& [bound, b] : main.names[m])
      if (b.kind == Binding::Kind::Alias && b.unit != 0) {
        TypeExpr t;
        t.kind = TypeExpr::Kind::Name;
        t.name = bound;
        t.span = b.use;
        main.resolvers[m]->resolve(t);
      }
}

void ModuleGraph::report_broken_files() {
  // A name this file takes from a file with errors, by a `use` of its own or through another
  // file's: the `use` says so, once per file read.
  const auto check = [&](std::size_t unit, SourceSpan use) {
    Unit& target = *units_[unit];
    if (unit == 0 || target.reported || !has_errors(target.own_diags)) return;
    target.reported = true;
    const auto first =
        std::find_if(target.own_diags.begin(), target.own_diags.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
    std::string where;
    if (first->span) {
      const auto [line, col] = target.owned->line_col(first->span->offset);
      where = fmt::format("{}:{}: ", line, col);
    }
    report(0, "E-PARSE-209",
           fmt::format("this `use` reads `{}`, which has errors", target.path.string()), use,
           {fmt::format("the first: {}error[{}]: {}", where, first->code, first->message),
            fmt::format("check it on its own: tujit check {}", target.path.string())});
  };
  for (const Import& imp : imports_)
    if (imp.unit == 0) check(imp.target.unit, imp.use->path_span);
  for (const auto& module : units_.front()->names)
    for (const auto& [bound, b] : module)
      if (b.origin != Binding::Origin::Own) check(b.unit, b.use);
}

} // namespace tujit::ir::lang
