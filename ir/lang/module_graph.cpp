#include "ir/lang/module_files.h"
#include "ir/lang/module_graph_impl.h"

#include "ir/lang/kernel.h"
#include "ir/lang/parser.h"
#include "ir/support/input_file.h"

#include <fmt/format.h>

#include <set>

// The files and module paths of the module graph (docs/kernel-language.md §1.2); the names each
// module binds are in module_names.cpp.

namespace tujit::ir::lang {

namespace fs = std::filesystem;

namespace {

/// Files one check may read through `use`s: far beyond any crate's kernel files, and a bound on
/// a tree of files that import each other.
constexpr std::size_t kMaxFiles = 64;

Binding item(Binding::Kind kind) {
  Binding b;
  b.kind = kind;
  return b;
}

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

/// `module `a::b`` or `the top level`.
std::string module_text(const std::vector<ModuleDecl>& modules, std::size_t m) {
  const std::string path = module_path_in_file(modules, m);
  return path.empty() ? std::string("the top level") : fmt::format("module `{}`", path);
}

std::string join_paths(const std::vector<fs::path>& paths) {
  std::string out;
  for (const fs::path& p : paths) out += (out.empty() ? "" : ", ") + p.string();
  return out;
}

} // namespace

ModuleGraph::ModuleGraph(const SourceBuffer& source, ParsedFile parsed, Diagnostics& diags) {
  auto main = std::make_unique<Unit>();
  main->path = source.name();
  main->diags = &diags;
  const CrateLocation where = crate_location(main->path);
  crate_src_ = where.src;
  standalone_ = where.standalone;
  main->module_path = where.module_path;
  units_.push_back(std::move(main));
  add_unit_scopes(*units_.front(), std::move(parsed));
}

ModuleGraph::~ModuleGraph() = default;

void ModuleGraph::add_unit_scopes(Unit& u, ParsedFile parsed) {
  u.scopes = split_modules(std::move(parsed), u.table);
  FileAst& top = u.scopes.front()->ast;
  // A top-level `use super::*` reads the parent module's file (ir/lang/parent_module.h).
  if (top.use_super) import_parent_module(u.path.string(), top, u.parents, *u.diags);
  for (const auto& scope : u.scopes) {
    u.resolvers.push_back(std::make_unique<Resolver>(scope->ast, *u.diags));
    u.resolvers.back()->collect();
  }
  u.names.resize(u.scopes.size());
}

void ModuleGraph::own_names(std::size_t unit) {
  Unit& u = *units_[unit];
  const auto own = [&](std::size_t m, const std::string& name, Binding b) {
    b.unit = unit;
    if (b.kind != Binding::Kind::Module) b.module = m;
    b.name = name;
    u.names[m].try_emplace(name, std::move(b));
  };
  for (std::size_t m = 0; m < u.scopes.size(); ++m) {
    const FileAst& ast = u.scopes[m]->ast;
    for (const Axis& a : u.resolvers[m]->axes().axes()) own(m, a.name, item(Binding::Kind::Axis));
    for (const TypeAlias& a : ast.aliases) own(m, a.name, item(Binding::Kind::Alias));
    for (const ConstItem& c : ast.consts) own(m, c.name, item(Binding::Kind::Const));
    for (const FnItem& f : ast.fns) {
      Binding b = item(Binding::Kind::Fn);
      b.fn = &f;
      own(m, f.name, std::move(b));
    }
  }
  for (std::size_t c = 1; c < u.table.modules.size(); ++c) {
    Binding b = item(Binding::Kind::Module);
    b.module = c;
    own(u.table.modules[c].parent, u.table.modules[c].name, std::move(b));
  }
  for (const OtherItem& o : u.table.others) {
    Binding b = item(Binding::Kind::Other);
    b.what = o.what;
    own(o.module < u.scopes.size() ? o.module : 0, o.name, std::move(b));
  }
}

void ModuleGraph::report(std::size_t unit, std::string code, std::string message, SourceSpan at,
                         std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), at, std::move(notes));
  d.stage = "parse";
  units_[unit]->diags->push_back(std::move(d));
}

std::optional<std::size_t> ModuleGraph::inline_child(Place at, const std::string& name) const {
  const auto& modules = units_[at.unit]->table.modules;
  for (std::size_t c = 1; c < modules.size(); ++c)
    if (modules[c].parent == at.module && modules[c].name == name && modules[c].has_body) return c;
  return std::nullopt;
}

std::vector<std::string> ModuleGraph::crate_path_of(Place at) const {
  const Unit& u = *units_[at.unit];
  std::vector<std::string> inner;
  for (std::size_t m = at.module; m != 0 && inner.size() < u.table.modules.size();
       m = u.table.modules[m].parent)
    inner.push_back(u.table.modules[m].name);
  std::vector<std::string> out = u.module_path;
  out.insert(out.end(), inner.rbegin(), inner.rend());
  return out;
}

std::optional<std::size_t> ModuleGraph::load(const fs::path& file,
                                             const std::vector<std::string>& module_path,
                                             std::size_t from, const UseName& use) {
  for (std::size_t i = 0; i < units_.size(); ++i) {
    if (!same_file(units_[i]->path, file)) continue;
    if (i == from && module_path != units_[i]->module_path) {
      report(from, "E-PARSE-211",
             fmt::format("`{}` is this file itself", crate_path_text(module_path)), use.path_span,
             {fmt::format("`{}` is the file being read; a file does not import from itself",
                          file.string())});
      return std::nullopt;
    }
    return i;
  }
  if (units_.size() >= kMaxFiles) {
    report(from, "E-PARSE-211", fmt::format("the `use` items reach more than {} files", kMaxFiles),
           use.path_span, {"tujit reads at most this many files for one check"});
    return std::nullopt;
  }
  auto in = InputFile::open(file.string());
  Result<std::string> text = Diagnostics{};
  if (!in)
    text = in.diagnostics();
  else if (auto too_big = check_spec_size(in->size(), file.string()))
    text = std::move(*too_big);
  else
    text = in->read_rest();
  if (!text) {
    report(from, "E-PARSE-209", fmt::format("cannot read `{}`", file.string()), use.path_span,
           {text.diagnostics().front().message});
    return std::nullopt;
  }
  auto u = std::make_unique<Unit>();
  u->path = file;
  u->module_path = module_path;
  u->owned = std::make_unique<SourceBuffer>(file.string(), std::move(*text));
  const std::vector<Token> tokens = lex(*u->owned, u->own_diags);
  ParsedFile parsed = parse_file(tokens, u->own_diags);
  units_.push_back(std::move(u));
  add_unit_scopes(*units_.back(), std::move(parsed));
  own_names(units_.size() - 1);
  return units_.size() - 1;
}

std::optional<ModuleGraph::Place> ModuleGraph::parent_of(Place at, const UseName& use,
                                                         std::size_t from) {
  if (at.module != 0) return Place{at.unit, units_[at.unit]->table.modules[at.module].parent};
  std::vector<std::string> path = units_[at.unit]->module_path;
  if (path.empty()) {
    report(from, "E-PARSE-209", "`super` of the crate root: there is no module above it",
           use.path_span,
           {fmt::format("`{}` is the root of its crate (no lib.rs or main.rs above it, or it is "
                        "that file)",
                        units_[at.unit]->path.string())});
    return std::nullopt;
  }
  path.pop_back();
  return locate_absolute(path, use, from);
}

std::optional<ModuleGraph::Place> ModuleGraph::walk(Place at,
                                                    const std::vector<std::string>& segments,
                                                    std::size_t first, const UseName& use,
                                                    std::size_t from) {
  for (std::size_t i = first; i < segments.size(); ++i) {
    const std::string& seg = segments[i];
    if (seg == "self") continue;
    if (seg == "super") {
      auto up = parent_of(at, use, from);
      if (!up) return std::nullopt;
      at = *up;
      continue;
    }
    if (auto child = inline_child(at, seg)) {
      at.module = *child;
      continue;
    }
    // `mod seg;`, or no module of that name here: the module's own file.
    std::vector<std::string> path = crate_path_of(at);
    path.insert(path.end(), segments.begin() + static_cast<std::ptrdiff_t>(i), segments.end());
    return locate_absolute(path, use, from);
  }
  return at;
}

std::optional<ModuleGraph::Place> ModuleGraph::locate_absolute(const std::vector<std::string>& path,
                                                               const UseName& use,
                                                               std::size_t from) {
  const auto inline_walk = [&](std::size_t unit, std::size_t skip) -> std::optional<Place> {
    Place at{unit, 0};
    for (std::size_t i = skip; i < path.size(); ++i) {
      auto child = inline_child(at, path[i]);
      if (!child) return std::nullopt;
      at.module = *child;
    }
    return at;
  };
  // A module of a file already read, inline in it (the checked file's own `crate::…` path).
  for (std::size_t u = 0; u < units_.size(); ++u) {
    const auto& mp = units_[u]->module_path;
    if (mp.size() <= path.size() && std::equal(mp.begin(), mp.end(), path.begin()))
      if (auto at = inline_walk(u, mp.size())) return at;
  }
  std::vector<fs::path> tried;
  std::vector<std::string> notes;
  for (std::size_t k = path.size() + 1; k-- > 0;) {
    const std::vector<std::string> prefix(path.begin(),
                                          path.begin() + static_cast<std::ptrdiff_t>(k));
    const std::vector<fs::path> files = k == 0 && standalone_
                                            ? std::vector<fs::path>{units_.front()->path}
                                            : module_file_candidates(crate_src_, prefix);
    for (const fs::path& f : files) {
      if (!is_file(f)) {
        if (k == path.size()) tried.push_back(f);
        continue;
      }
      auto unit = load(f, prefix, from, use);
      if (!unit) return std::nullopt;
      if (auto at = inline_walk(*unit, k)) return at;
      notes.push_back(fmt::format("`{}` is `{}`, which has no `mod {} {{ … }}`", f.string(),
                                  crate_path_text(prefix), path[k]));
      k = 0; // the nearest file that exists decides
      break;
    }
  }
  notes.insert(notes.begin(), fmt::format("tried {}", join_paths(tried)));
  notes.push_back(fmt::format("the crate's source directory is `{}`: the nearest directory at or "
                              "above the file that holds lib.rs or main.rs, or the file's own "
                              "when none does",
                              crate_src_.empty() ? std::string(".") : crate_src_.string()));
  report(from, "E-PARSE-209", fmt::format("no file for module `{}`", crate_path_text(path)),
         use.path_span, std::move(notes));
  return std::nullopt;
}

std::optional<ModuleGraph::Place> ModuleGraph::locate_use(std::size_t unit, const UseName& use) {
  const std::vector<std::string>& path = use.path;
  if (path.empty()) return std::nullopt; // `use name;`: another crate, or nothing to bind
  const Place here{unit, use.module};
  if (path[0] == "crate")
    return locate_absolute(std::vector<std::string>(path.begin() + 1, path.end()), use, unit);
  if (path[0] == "self" || path[0] == "super") return walk(here, path, 0, use, unit);
  if (inline_child(here, path[0])) return walk(here, path, 0, use, unit);
  for (const ModuleDecl& m : units_[unit]->table.modules)
    if (m.parent == use.module && m.name == path[0] && !m.has_body)
      return walk(here, path, 0, use, unit);
  return std::nullopt; // another crate's path (`furiosa_opt_std::prelude::*`)
}

void ModuleGraph::resolve() {
  own_names(0);
  // Every `use` of every file read, including the files the `use`s read.
  for (std::size_t u = 0; u < units_.size(); ++u) {
    for (const UseName& use : units_[u]->table.uses) {
      auto target = locate_use(u, use);
      if (!target) continue;
      if (*target == Place{u, use.module}) {
        report(u, "E-PARSE-211", "this `use` imports from its own module", use.span,
               {"the module's items are in scope already; a module does not import from "
                "itself"});
        continue;
      }
      imports_.push_back({u, &use, *target});
    }
  }
  bind_imports();
  diagnose_unbound();
  give_resolvers();
  report_broken_files();
}

std::size_t ModuleGraph::module_count() const {
  return units_.front()->scopes.size();
}

ModuleScope& ModuleGraph::scope(std::size_t m) {
  return *units_.front()->scopes[m];
}

Resolver& ModuleGraph::resolver(std::size_t m) {
  return *units_.front()->resolvers[m];
}

std::string ModuleGraph::kernel_prefix(std::size_t m) const {
  const std::string path = module_path_in_file(units_.front()->table.modules, m);
  return path.empty() ? path : path + "::";
}

std::vector<CallableFn> ModuleGraph::callables(std::size_t m) const {
  const Unit& u = *units_.front();
  std::vector<CallableFn> out;
  for (const FnItem& f : u.scopes[m]->ast.fns) out.push_back({f.name, &f, u.resolvers[m].get()});
  for (const auto& [bound, b] : u.names[m]) {
    if (b.kind != Binding::Kind::Fn || b.origin == Binding::Origin::Own || b.unit != 0) continue;
    Resolver& home = *u.resolvers[b.module];
    if (is_kernel_candidate(*b.fn, home)) out.push_back({bound, b.fn, &home});
  }
  return out;
}

AxisTable ModuleGraph::file_axes() {
  Unit& u = *units_.front();
  AxisTable all;
  // Each axis source: a module's resolver, and where in this file to point at a conflict.
  struct Source {
    Place place;
    SourceSpan use; // for another file's module: the `use` that reached it
  };
  std::vector<Source> sources;
  for (std::size_t m = 0; m < u.resolvers.size(); ++m) sources.push_back({Place{0, m}, {}});
  // The modules of other files whose aliases this file imports (their mappings name their axes).
  std::set<std::pair<std::size_t, std::size_t>> seen;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    const Place p = sources[i].place;
    for (const auto& [bound, b] : names(p)) {
      if (b.kind != Binding::Kind::Alias || b.origin == Binding::Origin::Own || b.unit == 0)
        continue;
      if (seen.emplace(b.unit, b.module).second)
        sources.push_back({Place{b.unit, b.module}, p.unit == 0 ? b.use : sources[i].use});
    }
  }
  for (const Source& src : sources) {
    const std::size_t m = src.place.module;
    for (const Axis& a : units_[src.place.unit]->resolvers[m]->axes().axes()) {
      const Axis* known = all.find(a.name);
      if (known == nullptr) {
        all.add(a);
        continue;
      }
      if (known->size == a.size) continue;
      SourceSpan at = src.use;
      if (src.place.unit == 0) {
        if (auto it = u.names[m].find(a.name);
            it != u.names[m].end() && it->second.origin != Binding::Origin::Own)
          at = it->second.use;
        for (const AxesDecl& d : u.scopes[m]->ast.axes)
          for (const Token& t : d.body)
            if (at.length == 0 && t.is_ident(a.name)) at = t.span;
      }
      Diagnostic d = make_error(
          "E-TYPE-001",
          fmt::format("axis `{}` has size {} in {} of `{}`, but size {} elsewhere in this file",
                      a.name, a.size, module_text(units_[src.place.unit]->table.modules, m),
                      units_[src.place.unit]->path.string(), known->size),
          at,
          {"an axis is its name and its size: one name cannot have two sizes in one file, "
           "whatever module declares it (docs/mapping.md D-17)"});
      d.stage = "type";
      u.diags->push_back(std::move(d));
    }
  }
  return all;
}

} // namespace tujit::ir::lang
