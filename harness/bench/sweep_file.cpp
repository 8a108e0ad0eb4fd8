#include "harness/bench/sweep_file.h"

#include "ir/lang/kernel.h"
#include "ir/support/input_file.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>

namespace tujit::bench {

namespace {

Diagnostic sweep_error(const std::string& path, std::string message,
                       std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-BENCH-002", fmt::format("{}: {}", path, std::move(message)),
                            std::nullopt, std::move(notes));
  d.stage = "bench";
  return d;
}

// A scalar TOML value as placeholder text; nullopt for arrays/tables/dates.
std::optional<std::string> scalar_text(const toml::node& n) {
  if (auto s = n.as_string()) return s->get();
  if (auto i = n.as_integer()) return std::to_string(i->get());
  if (auto b = n.as_boolean()) return std::string(b->get() ? "true" : "false");
  if (auto f = n.as_floating_point()) return fmt::format("{}", f->get());
  return std::nullopt;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// Replaces `{name}` for every placeholder of `values`; other braces (the kernel's own `{ … }`)
// are left alone.
std::string substitute(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '{') {
      const std::size_t close = text.find('}', i + 1);
      if (close != std::string::npos) {
        const std::string key = text.substr(i + 1, close - i - 1);
        if (auto it = values.find(key); it != values.end()) {
          out += it->second;
          i = close + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

// Every `{NAME}` (NAME an identifier) of a template, in order of first use. The kernel's own
// braces hold code (`{ input.contract_outer(…) }`), never a bare identifier.
std::vector<std::string> placeholders_in(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t i = text.find('{'); i != std::string::npos; i = text.find('{', i + 1)) {
    const std::size_t close = text.find('}', i + 1);
    if (close == std::string::npos) break;
    const std::string name = text.substr(i + 1, close - i - 1);
    if (is_identifier(name) && std::find(out.begin(), out.end(), name) == out.end())
      out.push_back(name);
  }
  return out;
}

std::string placeholder_list(const std::map<std::string, std::string>& owner) {
  std::string s;
  for (const auto& [ph, param] : owner) s += fmt::format("{}{{{}}}", s.empty() ? "" : ", ", ph);
  return s;
}

/// The kernel template, named exactly once: a file next to the sweep file, or inline text.
Status load_template(const toml::table& doc, const std::string& path, SweepSpec& spec) {
  const auto file = doc["template"].value<std::string>();
  const auto inline_text = doc["template_text"].value<std::string>();
  if (file.has_value() == inline_text.has_value())
    return sweep_error(path, "a sweep names its kernel template exactly once",
                       {"give `template = \"FILE\"` (relative to the sweep file) or "
                        "`template_text = \"\"\"…\"\"\"`"});
  if (!file) {
    spec.template_text = *inline_text;
    spec.template_name = path + " (template_text)";
    return {};
  }
  const auto p = std::filesystem::path(path).parent_path() / *file;
  // A template is kernel spec text: the spec file limit applies.
  auto text = read_input_file(p.string(), ir::kMaxSpecBytes, "sweep template");
  if (!text) return std::move(text).take_diagnostics();
  spec.template_text = std::move(*text);
  spec.template_name = p.string();
  return {};
}

/// One value of parameter `param`: a scalar (its own label and the placeholder of the parameter's
/// name), or a table of placeholders with an optional `label`.
Result<SweepChoice> parse_choice(const SweepParam& param, const toml::node& v,
                                 const std::string& path) {
  SweepChoice c;
  if (auto s = scalar_text(v)) {
    c.label = *s;
    c.values[param.name] = *s;
    return c;
  }
  const toml::table* t = v.as_table();
  if (t == nullptr)
    return sweep_error(path, fmt::format("parameter `{}`: each value must be a string, "
                                         "number, boolean or table",
                                         param.name));
  for (const auto& [k2, n2] : *t) {
    auto s2 = scalar_text(n2);
    if (!s2)
      return sweep_error(path, fmt::format("parameter `{}`: the value of `{}` must be a "
                                           "string, number or boolean",
                                           param.name, k2.str()));
    if (k2.str() == "label")
      c.label = *s2;
    else
      c.values[std::string(k2.str())] = *s2;
  }
  if (c.label.empty()) {
    if (auto it = c.values.find(param.name); it != c.values.end())
      c.label = it->second;
    else
      c.label = std::to_string(param.choices.size());
  }
  return c;
}

/// The [params] table; `owner` maps each placeholder to the one parameter that sets it.
Status parse_params(const toml::table& doc, const std::string& path, SweepSpec& spec,
                    std::map<std::string, std::string>& owner) {
  const toml::table* params = doc["params"].as_table();
  if (!params || params->empty())
    return sweep_error(path, "a sweep needs a [params] table with at least one parameter");
  for (const auto& [key, node] : *params) {
    SweepParam param;
    param.name = std::string(key.str());
    const toml::array* values = node.as_array();
    if (!values || values->empty())
      return sweep_error(
          path, fmt::format("parameter `{}` must be a non-empty array of values", param.name));
    for (const auto& v : *values) {
      auto c = parse_choice(param, v, path);
      if (!c) return std::move(c).take_diagnostics();
      for (const auto& [ph, text] : c->values) {
        if (!is_identifier(ph))
          return sweep_error(path, fmt::format("placeholder `{}` is not an identifier", ph));
        if (auto it = owner.find(ph); it != owner.end() && it->second != param.name)
          return sweep_error(path, fmt::format("placeholder `{{{}}}` is set by both `{}` and `{}`",
                                               ph, it->second, param.name));
        owner[ph] = param.name;
      }
      param.choices.push_back(std::move(*c));
    }
    spec.params.push_back(std::move(param));
  }
  return {};
}

/// The placeholders the parameters set and those the template uses are the same set.
Status check_placeholders(const SweepSpec& spec, const std::map<std::string, std::string>& owner,
                          const std::string& path) {
  // Every placeholder a parameter sets must occur in the template; a typo would otherwise sweep
  // the same kernel several times.
  for (const auto& [ph, param] : owner)
    if (spec.template_text.find("{" + ph + "}") == std::string::npos)
      return sweep_error(
          path,
          fmt::format("parameter `{}` sets `{{{}}}`, which the template does not use", param, ph),
          {fmt::format("template: {}", spec.template_name)});
  // A `{NAME}` no parameter sets would reach every point's kernel text verbatim and make every
  // point invalid; it is the sweep file's mistake, named here.
  for (const auto& ph : placeholders_in(spec.template_text))
    if (!owner.count(ph))
      return sweep_error(
          path,
          fmt::format("the template uses the placeholder `{{{}}}`, which no parameter sets", ph),
          {fmt::format("template: {}", spec.template_name),
           owner.empty() ? std::string("add a parameter for it under [params]")
                         : fmt::format("the parameters set: {}", placeholder_list(owner))});
  return {};
}

} // namespace

Result<SweepSpec> parse_sweep(std::string_view toml_text, const std::string& path) {
  toml::table doc;
  try {
    doc = toml::parse(toml_text, path);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    Diagnostic d =
        make_error("E-BENCH-001", fmt::format("{}:{}:{}: the sweep file is not valid TOML: {}",
                                              path, b.line, b.column, e.description()));
    d.stage = "bench";
    return d;
  }
  SweepSpec spec;
  spec.path = path;
  spec.name = doc["name"].value_or(std::filesystem::path(path).stem().string());
  if (auto r = load_template(doc, path, spec); !r) return std::move(r).take_diagnostics();
  std::map<std::string, std::string> owner; // placeholder → parameter that sets it
  if (auto r = parse_params(doc, path, spec, owner); !r) return std::move(r).take_diagnostics();
  if (auto r = check_placeholders(spec, owner, path); !r) return std::move(r).take_diagnostics();
  if (point_count(spec) > kMaxSweepPoints)
    return sweep_error(path,
                       fmt::format("the sweep has {} points, more than the {} tujit expands",
                                   point_count(spec), kMaxSweepPoints),
                       {"split it into several sweep files, or narrow the ranges"});
  return spec;
}

Result<SweepSpec> load_sweep(const std::string& path) {
  auto text = read_input_file(path, kMaxSweepFileBytes, "sweep file");
  if (!text) return std::move(text).take_diagnostics();
  return parse_sweep(*text, path);
}

std::uint64_t point_count(const SweepSpec& spec) {
  std::uint64_t n = 1;
  for (const auto& p : spec.params) {
    const std::uint64_t k = p.choices.size();
    if (k != 0 && n > std::numeric_limits<std::uint64_t>::max() / k)
      return std::numeric_limits<std::uint64_t>::max();
    n *= k;
  }
  return n;
}

SweepPoint point_at(const SweepSpec& spec, std::uint64_t index) {
  SweepPoint pt;
  pt.index = index;
  std::map<std::string, std::string> values;
  // Mixed radix, the last parameter fastest.
  std::uint64_t rest = index;
  std::vector<std::size_t> digit(spec.params.size());
  for (std::size_t k = spec.params.size(); k-- > 0;) {
    const std::uint64_t radix = spec.params[k].choices.size();
    digit[k] = static_cast<std::size_t>(rest % radix);
    rest /= radix;
  }
  std::string label;
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    const SweepChoice& c = spec.params[k].choices[digit[k]];
    pt.params[spec.params[k].name] = c.label;
    for (const auto& [ph, text] : c.values) values[ph] = text;
    label += fmt::format("{}{}={}", k ? "," : "", spec.params[k].name, c.label);
  }
  pt.name = fmt::format("{}[{}]", spec.name, label);
  pt.spec_text = substitute(spec.template_text, values);
  return pt;
}

std::vector<SweepPoint> expand_points(const SweepSpec& spec) {
  const std::uint64_t n = point_count(spec);
  std::vector<SweepPoint> points;
  points.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) points.push_back(point_at(spec, i));
  return points;
}

Result<Shard> parse_shard(std::string_view text) {
  const auto bad = [&] {
    Diagnostic d = make_error(
        "E-BENCH-003", fmt::format("--shard '{}' is not I/N with 0 <= I < N", text), std::nullopt,
        {"shards are numbered from 0, e.g. --shard 0/4 … --shard 3/4 (Slurm: "
         "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)"});
    d.stage = "bench";
    return d;
  };
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return bad();
  Shard s;
  const auto a = text.substr(0, slash), b = text.substr(slash + 1);
  auto r1 = std::from_chars(a.data(), a.data() + a.size(), s.index);
  auto r2 = std::from_chars(b.data(), b.data() + b.size(), s.count);
  if (a.empty() || b.empty() || r1.ec != std::errc() || r1.ptr != a.data() + a.size() ||
      r2.ec != std::errc() || r2.ptr != b.data() + b.size() || s.count == 0 || s.index >= s.count)
    return bad();
  return s;
}

bool in_shard(std::uint64_t point_index, const Shard& shard) {
  return point_index % shard.count == shard.index;
}

} // namespace tujit::bench
