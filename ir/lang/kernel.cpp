#include "ir/lang/kernel.h"

#include "ir/lang/driver.h"
#include "ir/lang/module_graph.h"
#include "ir/lang/sema.h"
#include "ir/support/input_file.h"
#include "ir/support/stable_sort.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <tuple>

namespace tujit::ir {

std::string_view stage_name(const Stage& s) {
  if (s.vector) return method_name(s.vector->kind);
  return to_string(s.op);
}

std::optional<ContractionChain> find_contraction_chain(const Kernel& kernel) {
  const auto& stages = kernel.stages;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (stages[i].unit() != StageUnit::ContractOuter || !stages[i].trf) continue;
    ContractionChain c{&stages[i]};
    for (std::size_t j = i + 1; j < stages.size() && !c.lane; ++j) {
      const Stage& s = stages[j];
      if (s.chain != stages[i].chain) continue;
      const StageUnit u = s.unit();
      const Stage** slot = u == StageUnit::PacketReducer ? &c.packet
                           : u == StageUnit::TimeReducer ? &c.time
                           : u == StageUnit::LaneFolder  ? &c.lane
                                                         : nullptr;
      if (slot != nullptr && *slot == nullptr) *slot = &s;
    }
    if (c.packet && c.time && c.lane) return c;
  }
  return std::nullopt;
}

namespace {

bool inside(SourceSpan inner, SourceSpan outer) {
  return inner.offset >= outer.offset && inner.offset < outer.end();
}

/// docs/kernel-language.md §8: several independent errors are reported, up to a limit per kernel
/// (and as many outside every kernel), so that one kernel's errors never hide another's: a kernel
/// whose errors were all cut would read as accepted.
constexpr std::size_t kMaxErrors = 20;

void finish(Diagnostics& ds, const std::vector<Kernel>& kernels) {
  tujit::stable_sort(ds, [](const Diagnostic& a, const Diagnostic& b) {
    std::uint32_t oa = a.span ? a.span->offset : 0;
    std::uint32_t ob = b.span ? b.span->offset : 0;
    return oa < ob;
  });
  // Drop exact duplicates (the same alias error seen from two uses).
  Diagnostics out;
  std::set<std::tuple<std::string, std::uint32_t, std::string>> seen;
  // Per owner (a kernel's index, or kernels.size() outside every kernel): errors, warnings.
  std::vector<std::array<std::size_t, 2>> counts(kernels.size() + 1, {0, 0});
  bool truncated = false;
  for (auto& d : ds) {
    auto key = std::make_tuple(d.code, d.span ? d.span->offset : 0u, d.message);
    if (!seen.insert(key).second) continue;
    std::size_t owner = kernels.size();
    for (std::size_t i = 0; i < kernels.size() && d.span; ++i)
      if (inside(*d.span, kernels[i].span)) owner = i;
    std::size_t& count = counts[owner][d.severity == Severity::Error ? 0 : 1];
    if (count >= kMaxErrors) {
      truncated = true;
      continue;
    }
    ++count;
    out.push_back(std::move(d));
  }
  if (truncated) {
    Diagnostic n;
    n.severity = Severity::Note;
    n.code = "E-PARSE-204";
    n.stage = "parse";
    n.message = fmt::format(
        "too many diagnostics; only the first {} errors of each kernel are shown", kMaxErrors);
    out.push_back(std::move(n));
  }
  ds = std::move(out);
}

/// Bytes the lexer reports one by one: invalid UTF-8 and ASCII control characters. A binary file
/// holds millions of them; above this many, they are reported once and lexed as spaces.
constexpr std::size_t kMaxJunkBytes = 10000;

bool is_junk_ascii(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7F;
}

/// Offsets of the junk bytes (invalid UTF-8 sequences byte by byte, ASCII control characters).
std::vector<std::uint32_t> junk_bytes(const std::string& t) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < t.size();) {
    auto c = static_cast<unsigned char>(t[i]);
    if (c < 0x80) {
      if (is_junk_ascii(c)) out.push_back(static_cast<std::uint32_t>(i));
      ++i;
      continue;
    }
    std::size_t want = c >= 0xF8 ? 0 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    std::size_t k = 1;
    while (want && k < want && i + k < t.size() &&
           (static_cast<unsigned char>(t[i + k]) & 0xC0) == 0x80)
      ++k;
    if (want && k == want) {
      i += want;
      continue;
    }
    out.push_back(static_cast<std::uint32_t>(i));
    ++i;
  }
  return out;
}

/// Types the kernels of module `m` (docs/kernel-language.md §1.2) into `kernels`, named with the
/// module's path (`packet::k`); `names` holds the names taken so far.
void type_module(lang::ModuleGraph& graph, std::size_t m, std::set<std::string>& names,
                 std::vector<Kernel>& kernels, Diagnostics& diags) {
  lang::ModuleScope& scope = graph.scope(m);
  lang::Resolver& resolver = graph.resolver(m);
  const std::vector<lang::CallableFn> callables = graph.callables(m);
  const std::string prefix = graph.kernel_prefix(m);
  std::vector<Kernel> typed;
  // A fn that kernels call is typed at each call, not as a kernel of its own
  // (docs/kernel-language.md §9); its body's syntax errors are reported once.
  const std::set<std::string> helpers = lang::helper_fns(scope.ast.fns, resolver);
  for (std::size_t i = 0; i < scope.ast.fns.size(); ++i) {
    const lang::FnItem& fn = scope.ast.fns[i];
    if (helpers.count(fn.name)) {
      for (auto& d : scope.body_diags[i]) diags.push_back(std::move(d));
      continue;
    }
    Diagnostics kd;
    auto k = lang::type_kernel(fn, resolver, kd, callables);
    if (!k) {
      lang::warn_refused_in_driver(fn, diags);
      continue;
    }
    for (auto& d : scope.body_diags[i]) kd.push_back(std::move(d));
    if (!names.insert(prefix + k->name).second) {
      Diagnostic d = make_error(
          "E-TYPE-022", fmt::format("a kernel named `{}` is defined twice", prefix + k->name),
          k->name_span, {"kernel names select kernels (`--kernel NAME`)"});
      d.stage = "type";
      kd.push_back(std::move(d));
    }
    k->ok = k->ok && !has_errors(kd);
    for (auto& d : kd) diags.push_back(std::move(d));
    typed.push_back(std::move(*k));
  }
  lang::type_drivers(scope.ast, resolver, typed, helpers, diags);
  for (Kernel& k : typed) {
    k.name = prefix + k.name;
    kernels.push_back(std::move(k));
  }
}

} // namespace

SpecAnalysis analyze(SourceBuffer source) {
  SpecAnalysis out{SpecFile{std::move(source), {}, {}, {}}, {}};
  Diagnostics& diags = out.diagnostics;
  const SourceBuffer& src = out.file.source;
  if (auto d = check_spec_size(src.text().size(), src.name())) {
    diags.push_back(std::move(*d));
    return out;
  }
  // Lex a copy with junk bytes blanked when there are too many of them (same offsets).
  std::optional<SourceBuffer> blanked;
  if (auto junk = junk_bytes(src.text()); junk.size() > kMaxJunkBytes) {
    std::string copy = src.text();
    for (std::uint32_t o : junk) copy[o] = ' ';
    Diagnostic d = make_error(
        "E-PARSE-001",
        fmt::format("this file is not kernel source text: {} bytes are invalid UTF-8 or control "
                    "characters",
                    junk.size()),
        SourceSpan{junk.front(), 1}, {"they are read as spaces; the first one is shown"});
    d.stage = "parse";
    diags.push_back(std::move(d));
    blanked.emplace(src.name(), std::move(copy));
  }
  std::vector<Token> tokens = lex(blanked ? *blanked : src, diags);
  // Each module is a scope of its own (ir/lang/module_graph.h); a file without modules is one.
  lang::ModuleGraph graph(src, lang::parse_file(tokens, diags), diags);
  graph.resolve();
  std::set<std::string> names;
  for (std::size_t m = 0; m < graph.module_count(); ++m)
    type_module(graph, m, names, out.file.kernels, diags);
  out.file.axes = graph.file_axes();
  for (auto& d : diags) {
    if (d.severity != Severity::Error || !d.span) continue;
    for (auto& k : out.file.kernels)
      if (inside(*d.span, k.span)) k.ok = false;
  }
  if (out.file.kernels.empty() && !has_errors(diags)) {
    Diagnostic d = make_error("E-PARSE-206", "no kernel in this file", SourceSpan{0, 0},
                              {"a kernel is a `fn` with at least one tensor-typed parameter "
                               "(docs/kernel-language.md §1)"});
    d.stage = "parse";
    diags.push_back(std::move(d));
  }
  for (const auto& d : diags)
    if (d.severity == Severity::Warning) out.file.warnings.push_back(d);
  finish(diags, out.file.kernels);
  return out;
}

Result<SpecFile> analyze_spec(SourceBuffer source) {
  SpecAnalysis a = analyze(std::move(source));
  if (has_errors(a.diagnostics)) return std::move(a.diagnostics);
  return std::move(a.file);
}

std::optional<Diagnostic> check_spec_size(std::uint64_t bytes, std::string_view name) {
  if (bytes <= kMaxSpecBytes) return std::nullopt;
  Diagnostic d =
      make_error("E-LIMIT-001",
                 fmt::format("`{}` is {} bytes, more than the {} MiB a kernel spec file may have",
                             name, bytes, kMaxSpecBytes >> 20),
                 std::nullopt, {"a spec file holds kernel source text; is this the right file?"});
  d.stage = "parse";
  return d;
}

Result<SpecFile> load_spec(const std::string& path) {
  // A regular file, refused when oversized before it is read (ir/support/input_file.h).
  auto in = InputFile::open(path);
  if (!in) return std::move(in).take_diagnostics();
  if (auto d = check_spec_size(in->size(), path)) return std::move(*d);
  auto text = in->read_rest();
  if (!text) return std::move(text).take_diagnostics();
  return analyze_spec(SourceBuffer(path, std::move(*text)));
}

} // namespace tujit::ir
