// `tujit stage OP --axes "A=8,B=64" [--dtype D] [--lane …] [--time …] … [--json]`
// (docs/cli.md §11): runs one stage verifier (ir/verify/) on bare mappings and prints its derived
// parameters or the rule that failed. Each OP reads exactly the options its verifier's input
// reads (stage_ops.h); a missing one, or one the OP does not read, is a usage error (exit 2) so
// typos surface. Bad axes or mapping text exit 1 with a caret under the offending column of that
// option's text; a failed rule exits 1 with the verifier's diagnostic (stage_report.h).
#include "harness/cli/command.h"
#include "harness/cli/command_line.h"
#include "harness/cli/stage_ops.h"
#include "harness/cli/stage_report.h"
#include "ir/mapping/syntax.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kAxesSource = "--axes";

// ---------------------------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------------------------

std::string usage_text() {
  std::string s =
      "usage: tujit stage OP --axes \"A=8,B=64\" [--dtype D] [--lane M] [--time M] [--packet M]\n"
      "       [--out-time M] [--out-packet M] [--element M] [--pre-time M]\n"
      "       [--mode interleaved|sequential] [--weight-dtype D] [--json]\n\n"
      "Runs one stage verifier on bare mappings (docs/cli.md, docs/contraction.md) and prints\n"
      "its derived parameters, or the rule that failed. Mappings M are m![...] bodies without\n"
      "`m![ ]`, over the axes of --axes. Each OP takes exactly these options:\n";
  for (const auto& op : stage_ops()) {
    s += "  " + std::string(op.name) + std::string(17 - op.name.size(), ' ') +
         stage_option_list(op) + "\n" + std::string(19, ' ') + std::string(op.summary) + "\n";
  }
  s += "\nexample:\n  tujit stage contract_time --axes \"A=4,B=2\" --time \"A, B\" --out-time "
       "\"A\"\n"
       "\noptions";
  return s;
}

po::options_description visible_options() {
  po::options_description visible(usage_text());
  visible.add_options()("help,h", "show this help")(
      "axes", po::value<std::string>(),
      "axis declarations NAME=SIZE, comma separated (the axes![...] body)")(
      "dtype", po::value<std::string>(), "element type of the stream (of the TRF: trf_sequencer)")(
      "weight-dtype", po::value<std::string>(), "contract_outer: the TRF element type Dw")(
      "lane", po::value<std::string>(), "Lane mapping")("time", po::value<std::string>(),
                                                        "Time mapping (the stage's input)")(
      "packet", po::value<std::string>(), "Packet mapping (the stage's input)")(
      "out-time", po::value<std::string>(), "declared OutTime mapping")(
      "out-packet", po::value<std::string>(),
      "declared OutPacket mapping")("element", po::value<std::string>(), "TRF/VRF Element mapping")(
      "pre-time", po::value<std::string>(), "contract_lane: OT before contract_time")(
      "mode", po::value<std::string>(),
      "contract_lane: interleaved | sequential")("json", "print one JSON document on stdout");
  return visible;
}

// Parses the arguments; nullopt when the command must stop (with `rc`: help printed, exit 0, or a
// usage error, exit 2).
std::optional<po::variables_map> parse_command_line(const std::vector<std::string>& args,
                                                    CommandIO& io, int& rc) {
  const po::options_description visible = visible_options();
  po::options_description hidden;
  hidden.add_options()("op", po::value<std::vector<std::string>>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("op", -1);
  po::variables_map vm;
  try {
    // No abbreviations: `--elem` must be a typo, not `--element`.
    const int style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(all).positional(positional).style(style).run(),
              vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit stage: " << e.what() << " (see `tujit stage --help`)\n";
    rc = kExitUsage;
    return std::nullopt;
  }
  if (vm.count("help")) {
    io.out << visible << "\n";
    note_help_table(visible, io);
    rc = kExitOk;
    return std::nullopt;
  }
  return vm;
}

// The OP named on the command line; nullptr (usage error printed) for none, several or an
// unknown one.
const StageOp* pick_op(const po::variables_map& vm, CommandIO& io) {
  std::vector<std::string> ops;
  if (vm.count("op")) ops = vm["op"].as<std::vector<std::string>>();
  if (ops.size() != 1) {
    io.err << "tujit stage: expected exactly one OP (" << stage_op_names() << "), got "
           << ops.size() << " (quote mappings: --time \"A, B / 2\")\n";
    return nullptr;
  }
  const StageOp* op = find_stage_op(ops.front());
  if (!op)
    io.err << "tujit stage: unknown OP '" << ops.front() << "' (one of " << stage_op_names()
           << ")\n";
  return op;
}

// Exactly the options the OP reads (docs/cli.md §11): anything else is a typo or a mix-up.
// False (usage error printed) otherwise.
bool collect_option_texts(const po::variables_map& vm, const StageOp& op, const std::string& prefix,
                          StageOptions& o, CommandIO& io) {
  for (const auto& [name, value] : vm) {
    if (name == "op" || name == "json" || name == "help" || name == "axes") continue;
    if (!reads_option(op, name)) {
      io.err << prefix << "--" << name << " is not read by " << op.name << " (it takes "
             << stage_option_list(op) << ")\n";
      return false;
    }
    o.text[name] = value.as<std::string>();
  }
  if (!vm.count("axes")) {
    io.err << prefix << "missing --axes (it takes " << stage_option_list(op) << ")\n";
    return false;
  }
  for (const auto& name : op.required) {
    if (!o.text.count(name)) {
      io.err << prefix << "missing --" << name << " (it takes " << stage_option_list(op) << ")\n";
      return false;
    }
  }
  return true;
}

// Types and the lane mode: a word outside a fixed list is a usage error (printed; false).
bool parse_words(const std::string& prefix, StageOptions& o, CommandIO& io) {
  auto parse_type = [&](const std::string& name, ir::ScalarType& dst) {
    auto it = o.text.find(name);
    if (it == o.text.end()) return true;
    auto t = ir::parse_scalar_type(it->second, ir::ScalarNameSet::All);
    if (!t) {
      io.err << prefix << "--" << name << " '" << it->second << "' is not an element type (one of "
             << ir::allowed_scalar_names(ir::ScalarNameSet::All) << ")\n";
      return false;
    }
    dst = *t;
    return true;
  };
  if (!parse_type("dtype", o.dtype)) return false;
  o.weight_dtype = o.dtype; // contract_outer: Dw defaults to the stream type
  if (!parse_type("weight-dtype", o.weight_dtype)) return false;
  auto it = o.text.find("mode");
  if (it == o.text.end()) return true;
  std::string m = it->second;
  std::transform(m.begin(), m.end(), m.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (m == "interleaved") {
    o.mode = ir::LaneMode::Interleaved;
  } else if (m == "sequential") {
    o.mode = ir::LaneMode::Sequential;
  } else {
    io.err << prefix << "--mode '" << it->second << "' is not a lane mode (interleaved or "
           << "sequential)\n";
    return false;
  }
  return true;
}

// The axes and every mapping option, parsed; each bad one is reported with a caret into its own
// option's text.
std::vector<Reported> parse_mappings(const std::string& axes_text, StageOptions& o) {
  o.axes_text = axes_text;
  auto axes = ir::parse_axes_text(o.axes_text, kAxesSource);
  if (!axes) return with_source(axes.diagnostics(), kAxesSource, o.axes_text);
  o.axes = std::move(*axes);
  std::vector<Reported> bad;
  for (const auto& name : stage_mapping_options()) {
    auto it = o.text.find(name);
    if (it == o.text.end()) continue;
    const std::string source = "--" + name;
    auto m = ir::parse_mapping_text(it->second, o.axes, source);
    if (!m) {
      auto r = with_source(m.diagnostics(), source, it->second);
      bad.insert(bad.end(), r.begin(), r.end());
      continue;
    }
    o.mappings.emplace(name, std::move(*m));
  }
  return bad;
}

} // namespace

int run_stage(const std::vector<std::string>& args, CommandIO& io) {
  int rc = kExitOk;
  const std::optional<po::variables_map> vm = parse_command_line(args, io, rc);
  if (!vm) return rc;
  const StageOp* op = pick_op(*vm, io);
  if (!op) return kExitUsage;
  const std::string prefix = "tujit stage " + std::string(op->name) + ": ";

  StageOptions o;
  if (!collect_option_texts(*vm, *op, prefix, o, io) || !parse_words(prefix, o, io))
    return kExitUsage;
  const bool json = vm->count("json") > 0;
  if (auto bad = parse_mappings((*vm)["axes"].as<std::string>(), o); !bad.empty())
    return report_failure(bad, op->name, json, io);

  auto derived = op->run(o);
  if (!derived) {
    std::vector<Reported> rs;
    for (const auto& d : derived.diagnostics()) rs.push_back({d, std::nullopt});
    return report_failure(rs, op->name, json, io);
  }
  return report_derived(*op, *derived, json, io);
}

} // namespace tujit::cli
