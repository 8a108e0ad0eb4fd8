// `tujit map --axes "A=8,B=512" "B / 64, B % 32, B / 32 % 2" [--at POS]… [--json]` (docs/cli.md
// §9): a mapping's SIZE, its normal form (docs/mapping.md §4.6 rendering) and the cell at each
// requested position (§3). Bad axes or mapping text exit 1 with a caret under the offending
// column of the argument; bad usage exits 2.
#include "harness/cli/command.h"
#include "harness/cli/command_line.h"
#include "harness/cli/diagnostic_json.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kAxesSource = "--axes";
constexpr const char* kMappingSource = "MAPPING";

// Exit 1 with the diagnostics: rendered on stderr, and as the JSON document when asked.
int report_failure(const Diagnostics& ds, const SourceBuffer& src, bool json, CommandIO& io) {
  report_all(io, ds, &src, kExitUserError);
  if (json) {
    nlohmann::json doc;
    doc["ok"] = false;
    doc["diagnostics"] = nlohmann::json::array();
    for (const auto& d : ds) doc["diagnostics"].push_back(diagnostic_json(d, src));
    io.out << doc.dump(2) << "\n";
  }
  return kExitUserError;
}

std::optional<std::uint64_t> parse_position(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (~std::uint64_t{0} - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

std::string index_text(const ir::Index& ix) {
  std::string s = "{";
  bool first = true;
  for (const auto& [axis, v] : ix) {
    s += (first ? "" : ", ") + axis + ": " + std::to_string(v);
    first = false;
  }
  return s + "}";
}

/// What `tujit map` was asked, its option values checked.
struct MapRequest {
  std::string axes, mapping; // option texts
  std::vector<std::uint64_t> positions;
  bool json = false;
};

/// Parses and checks the options into `req`; the exit status when the command ends here (help,
/// or a usage error: exit 2).
std::optional<int> parse_map_request(const std::vector<std::string>& args, CommandIO& io,
                                     MapRequest& req) {
  po::options_description visible(
      "usage: tujit map [--axes \"A=8,B=512\"] MAPPING [--at POS]... [--json]\n\n"
      "Prints a mapping's SIZE, its normal form and the cell at each --at position\n"
      "(docs/mapping.md). MAPPING is an m![...] body without `m![ ]`, e.g.\n"
      "  tujit map --axes \"A=8,B=512\" \"B / 64, B % 32, B / 32 % 2\" --at 67\n"
      "A cell is an index (axis -> coordinate), padding (top|zero|bottom), or out of bounds\n"
      "(any POS >= SIZE).\n\noptions");
  visible.add_options()("help,h", "show this help")(
      "axes", po::value<std::string>()->default_value(""),
      "axis declarations NAME=SIZE, comma separated (the axes![...] body)")(
      "at", po::value<std::vector<std::string>>()->composing(),
      "a position to evaluate (repeatable)")("json", "print one JSON document on stdout");
  po::options_description hidden;
  hidden.add_options()("mapping", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("mapping", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit map: " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible << "\n";
    note_help_table(visible, io);
    return kExitOk;
  }
  std::vector<std::string> mappings;
  if (vm.count("mapping")) mappings = vm["mapping"].as<std::vector<std::string>>();
  if (mappings.size() != 1) {
    io.err << "tujit map: expected exactly one MAPPING argument, got " << mappings.size()
           << " (quote the mapping: \"A, B / 2\")\n"
           << visible;
    return kExitUsage;
  }
  if (vm.count("at")) {
    for (const auto& s : vm["at"].as<std::vector<std::string>>()) {
      auto p = parse_position(s);
      if (!p) {
        io.err << "tujit map: --at '" << s << "' is not a position (a decimal number < 2^64)\n";
        return kExitUsage;
      }
      req.positions.push_back(*p);
    }
  }
  req.json = vm.count("json") > 0;
  req.axes = vm["axes"].as<std::string>();
  req.mapping = mappings.front();
  return std::nullopt;
}

/// The cell at one position (docs/mapping.md §3), as JSON and as a line of text.
std::pair<nlohmann::json, std::string> describe_cell(const ir::Mapping& m,
                                                     const ir::AxisTable& axes, std::uint64_t pos) {
  ir::Cell c = m.map(pos);
  nlohmann::json cj = {{"pos", pos}};
  std::string line;
  switch (c.kind) {
  case ir::Cell::Kind::Index: {
    cj["kind"] = "index";
    nlohmann::json ix = nlohmann::json::object();
    for (const auto& [axis, v] : c.index) ix[axis] = v;
    cj["index"] = ix;
    line = index_text(c.index);
    // A repeated axis can add up past its size (docs/mapping.md §3, §10 D-5).
    ir::Finalized f = ir::finalize(c, ir::PaddingKind::Top, axes);
    if (f.kind == ir::Finalized::Kind::Overshoot) {
      cj["overshoot"] = f.overshoot_axis;
      line += "  (overshoot: " + f.overshoot_axis + " is beyond its size)";
    }
    break;
  }
  case ir::Cell::Kind::Padding:
    cj["kind"] = "padding";
    cj["padding"] = std::string(ir::to_string(c.padding));
    line = "padding (" + std::string(ir::to_string(c.padding)) + ")";
    break;
  case ir::Cell::Kind::OutOfBounds:
    cj["kind"] = "out_of_bounds";
    line = "out of bounds (SIZE " + std::to_string(m.size()) + ")";
    break;
  }
  return {std::move(cj), "at " + std::to_string(pos) + ": " + line};
}

} // namespace

int run_map(const std::vector<std::string>& args, CommandIO& io) {
  MapRequest req;
  if (auto exit = parse_map_request(args, io, req)) return *exit;
  auto axes = ir::parse_axes_text(req.axes, kAxesSource);
  if (!axes)
    return report_failure(axes.diagnostics(), SourceBuffer(kAxesSource, req.axes), req.json, io);
  auto m = ir::parse_mapping_text(req.mapping, *axes, kMappingSource);
  if (!m)
    return report_failure(m.diagnostics(), SourceBuffer(kMappingSource, req.mapping), req.json, io);

  const std::string normal_form = ir::render_text(ir::factorize(*m));
  nlohmann::json cells = nlohmann::json::array();
  std::vector<std::string> lines;
  for (std::uint64_t pos : req.positions) {
    auto [cj, line] = describe_cell(*m, *axes, pos);
    cells.push_back(std::move(cj));
    lines.push_back(std::move(line));
  }

  if (req.json) {
    nlohmann::json axes_json = nlohmann::json::array();
    for (const auto& a : axes->axes()) axes_json.push_back({{"name", a.name}, {"size", a.size}});
    nlohmann::json doc = {
        {"ok", true},        {"axes", axes_json},          {"expression", m->to_string()},
        {"size", m->size()}, {"normal_form", normal_form}, {"cells", cells}};
    io.out << doc.dump(2) << "\n";
    return kExitOk;
  }
  io.out << "mapping:     " << m->to_string() << "\n"
         << "size:        " << m->size() << "\n"
         << "normal form: " << normal_form << "\n";
  for (const auto& l : lines) io.out << l << "\n";
  return kExitOk;
}

} // namespace tujit::cli
