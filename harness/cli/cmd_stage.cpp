// `tujit stage OP --axes "A=8,B=64" [--dtype D] [--lane …] [--time …] … [--json]` (spec/cli.md
// "tujit stage"): runs one stage verifier (ir/verify/) on bare mappings and prints its derived
// parameters or the rule that failed. Each OP reads exactly the options its verifier's input
// reads; a missing one, or one the OP does not read, is a usage error (exit 2) so typos surface.
// Bad axes or mapping text exit 1 with a caret under the offending column of that option's text;
// a failed rule exits 1 with the verifier's diagnostic.
#include "harness/cli/command.h"
#include "harness/cli/derived_json.h"
#include "harness/cli/diagnostic_json.h"
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "ir/types/lane_mode.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/collect.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/stream_adapter.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"
#include "ir/verify/trf_sequencer.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
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

// The options a stage reads (without the leading `--`); every OP also takes --axes and --json.
struct StageOptions {
  std::map<std::string, std::string> text; // option → its text, for the options given
  std::string axes_text;
  ir::AxisTable axes;
  std::map<std::string, ir::Mapping> mappings; // mapping options, parsed
  ir::ScalarType dtype = ir::ScalarType::BF16;
  ir::ScalarType weight_dtype = ir::ScalarType::BF16;
  ir::LaneMode mode = ir::LaneMode::Interleaved;
};

using Runner = Result<ir::verify::DerivedTable> (*)(const StageOptions&);

struct OpSpec {
  std::string_view name;
  std::string_view summary;
  std::vector<std::string> required; // option names without `--`
  std::vector<std::string> optional;
  Runner run;
};

// The mapping-valued options (parsed against --axes); the others are types and the lane mode.
const std::vector<std::string>& mapping_options() {
  static const std::vector<std::string> names = {"lane",       "time",    "packet",  "out-time",
                                                 "out-packet", "element", "pre-time"};
  return names;
}

template <class Derived>
Result<ir::verify::DerivedTable> table_of(Result<Derived> r) {
  if (!r) return std::move(r).take_diagnostics();
  return r->to_table();
}

const ir::Mapping& mapping(const StageOptions& o, const std::string& name) {
  return o.mappings.at(name);
}

Result<ir::verify::DerivedTable> run_to_trf(const StageOptions& o) {
  ir::verify::ToTrfInput in;
  in.dtype = o.dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.lane = mapping(o, "lane");
  in.element = mapping(o, "element");
  return table_of(ir::verify::verify_to_trf(in));
}

Result<ir::verify::DerivedTable> run_to_vrf(const StageOptions& o) {
  ir::verify::ToVrfInput in;
  in.dtype = o.dtype;
  in.element = mapping(o, "element");
  return table_of(ir::verify::verify_to_vrf(in));
}

Result<ir::verify::DerivedTable> run_collect(const StageOptions& o) {
  ir::verify::CollectInput in;
  in.dtype = o.dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_collect(in));
}

Result<ir::verify::DerivedTable> run_stream_adapter(const StageOptions& o) {
  ir::verify::StreamAdapterInput in;
  in.dtype = o.dtype;
  in.lane = mapping(o, "lane");
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_stream_adapter(in));
}

Result<ir::verify::DerivedTable> run_trf_sequencer(const StageOptions& o) {
  ir::verify::TrfSequencerInput in;
  in.weight = o.dtype; // the TRF tensor's element type Dw is this stage's only type (§5.2)
  in.lane = mapping(o, "lane");
  in.element = mapping(o, "element");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  return table_of(ir::verify::verify_trf_sequencer(in));
}

Result<ir::verify::DerivedTable> run_contract_outer(const StageOptions& o) {
  ir::verify::ContractOuterInput in;
  in.stream_dtype = o.dtype;
  in.weight_dtype = o.weight_dtype;
  in.time = mapping(o, "time");
  in.packet = mapping(o, "packet");
  in.lane = mapping(o, "lane");
  in.element = mapping(o, "element");
  in.out_time = mapping(o, "out-time");
  in.out_packet = mapping(o, "out-packet");
  auto r = ir::verify::verify_contract_outer(in);
  if (!r) return std::move(r).take_diagnostics();
  return r->to_table(in);
}

Result<ir::verify::DerivedTable> run_contract_packet(const StageOptions& o) {
  ir::verify::ContractPacketInput in;
  in.dtype = o.dtype;
  in.out_packet = mapping(o, "packet"); // OP: the packet leaving the Outer stage
  in.p2 = mapping(o, "out-packet");
  return table_of(ir::verify::verify_contract_packet(in));
}

Result<ir::verify::DerivedTable> run_contract_time(const StageOptions& o) {
  ir::verify::ContractTimeInput in;
  in.ot = mapping(o, "time"); // OT: the Outer stage's OutTime
  in.t2 = mapping(o, "out-time");
  return table_of(ir::verify::verify_contract_time(in));
}

Result<ir::verify::DerivedTable> run_contract_lane(const StageOptions& o) {
  ir::verify::ContractLaneInput in;
  in.mode = o.mode;
  in.lane = mapping(o, "lane");
  in.t2 = mapping(o, "time");
  in.p2 = mapping(o, "packet");
  in.t3 = mapping(o, "out-time");
  in.p3 = mapping(o, "out-packet");
  // Without a contract_time before the Lane Folder nothing was summed: pre-reduce time = Time.
  auto pre = o.mappings.find("pre-time");
  in.pre_reduce_time = pre != o.mappings.end() ? pre->second : in.t2;
  return table_of(ir::verify::verify_contract_lane(in));
}

const std::vector<OpSpec>& op_specs() {
  static const std::vector<OpSpec> specs = {
      {"to_trf",
       "Collect stream [--time, --packet] into the TRF as --lane / --element",
       {"dtype", "time", "packet", "lane", "element"},
       {},
       &run_to_trf},
      {"to_vrf",
       "an i32/f32 operand --element into the VRF",
       {"dtype", "element"},
       {},
       &run_to_vrf},
      {"collect",
       "any packet to one 32 B flit: [--time, --packet] -> [--out-time, --out-packet]",
       {"dtype", "time", "packet", "out-time", "out-packet"},
       {},
       &run_collect},
      {"stream_adapter",
       "contract_outer's stream side: [--time, --packet] -> [--out-time, --out-packet], "
       "--lane broadcast",
       {"dtype", "lane", "time", "packet", "out-time", "out-packet"},
       {},
       &run_stream_adapter},
      {"trf_sequencer",
       "contract_outer's TRF side: TRF --lane / --element (of type --dtype) read as "
       "[--out-time, --out-packet]",
       {"dtype", "lane", "element", "out-time", "out-packet"},
       {},
       &run_trf_sequencer},
      {"contract_outer",
       "operand pair, stream adapter and TRF sequencer together (--weight-dtype defaults to "
       "--dtype)",
       {"dtype", "time", "packet", "lane", "element", "out-time", "out-packet"},
       {"weight-dtype"},
       &run_contract_outer},
      {"contract_packet",
       "Packet Reducer: --packet (OP) summed into --out-packet (P2)",
       {"dtype", "packet", "out-packet"},
       {},
       &run_contract_packet},
      {"contract_time",
       "Time Reducer: --time (OT) summed into --out-time (T2)",
       {"time", "out-time"},
       {},
       &run_contract_time},
      {"contract_lane",
       "Lane Folder: [--lane, --time, --packet] -> [--out-time, --out-packet] in --mode "
       "(--pre-time: OT before contract_time, default --time)",
       {"lane", "time", "packet", "out-time", "out-packet", "mode"},
       {"pre-time"},
       &run_contract_lane},
  };
  return specs;
}

const OpSpec* find_op(std::string_view name) {
  for (const auto& s : op_specs())
    if (s.name == name) return &s;
  return nullptr;
}

std::string op_names() {
  std::string s;
  for (const auto& spec : op_specs()) s += (s.empty() ? "" : ", ") + std::string(spec.name);
  return s;
}

std::string option_list(const OpSpec& spec) {
  std::string s = "--axes";
  for (const auto& o : spec.required) s += " --" + o;
  for (const auto& o : spec.optional) s += " [--" + o + "]";
  return s + " [--json]";
}

// Like the other commands' diagnostics, plus the rule as a field; located only when the
// diagnostic points into an option's text.
nlohmann::json stage_diagnostic_json(const Diagnostic& d, const SourceBuffer* src) {
  nlohmann::json j = diagnostic_fields(d);
  // ir::verify::rule_error puts "rule: NAME" first among the notes; scripts want it as a field.
  constexpr std::string_view kRulePrefix = "rule: ";
  for (const auto& n : d.notes) {
    if (n.rfind(kRulePrefix, 0) == 0) {
      j["rule"] = n.substr(kRulePrefix.size());
      break;
    }
  }
  if (src && d.span) {
    auto [line, col] = src->line_col(d.span->offset);
    j["file"] = src->name();
    j["line"] = line;
    j["col"] = col;
  }
  return j;
}

// One diagnostic and the option text it points into (none for a verifier's rule failure).
struct Reported {
  Diagnostic diagnostic;
  std::optional<SourceBuffer> source;
};

int report_failure(const std::vector<Reported>& ds, std::string_view op, bool json, CommandIO& io) {
  for (const auto& r : ds) report(io, r.diagnostic, r.source ? &*r.source : nullptr);
  if (json) {
    nlohmann::json doc = {{"ok", false}, {"op", std::string(op)}};
    doc["diagnostics"] = nlohmann::json::array();
    for (const auto& r : ds)
      doc["diagnostics"].push_back(
          stage_diagnostic_json(r.diagnostic, r.source ? &*r.source : nullptr));
    io.out << doc.dump(2) << "\n";
  }
  return kExitUserError;
}

std::vector<Reported> with_source(const Diagnostics& ds, const std::string& source_name,
                                  const std::string& text) {
  std::vector<Reported> out;
  for (const auto& d : ds) out.push_back({d, SourceBuffer(source_name, text)});
  return out;
}

std::string usage_text() {
  std::string s =
      "usage: tujit stage OP --axes \"A=8,B=64\" [--dtype D] [--lane M] [--time M] [--packet M]\n"
      "       [--out-time M] [--out-packet M] [--element M] [--pre-time M]\n"
      "       [--mode interleaved|sequential] [--weight-dtype D] [--json]\n\n"
      "Runs one stage verifier on bare mappings (spec/cli.md, spec/contraction.md) and prints\n"
      "its derived parameters, or the rule that failed. Mappings M are m![...] bodies without\n"
      "`m![ ]`, over the axes of --axes. Each OP takes exactly these options:\n";
  for (const auto& spec : op_specs()) {
    s += "  " + std::string(spec.name) + std::string(17 - spec.name.size(), ' ') +
         option_list(spec) + "\n" + std::string(19, ' ') + std::string(spec.summary) + "\n";
  }
  s += "\nexample:\n  tujit stage contract_time --axes \"A=4,B=2\" --time \"A, B\" --out-time "
       "\"A\"\n"
       "\noptions";
  return s;
}

} // namespace

int run_stage(const std::vector<std::string>& args, CommandIO& io) {
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
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible << "\n";
    return kExitOk;
  }
  std::vector<std::string> ops;
  if (vm.count("op")) ops = vm["op"].as<std::vector<std::string>>();
  if (ops.size() != 1) {
    io.err << "tujit stage: expected exactly one OP (" << op_names() << "), got " << ops.size()
           << " (quote mappings: --time \"A, B / 2\")\n";
    return kExitUsage;
  }
  const OpSpec* spec = find_op(ops.front());
  if (!spec) {
    io.err << "tujit stage: unknown OP '" << ops.front() << "' (one of " << op_names() << ")\n";
    return kExitUsage;
  }
  const std::string prefix = "tujit stage " + std::string(spec->name) + ": ";

  // Exactly the options the OP reads (spec/cli.md): anything else is a typo or a mix-up.
  StageOptions o;
  for (const auto& [name, value] : vm) {
    if (name == "op" || name == "json" || name == "help" || name == "axes") continue;
    const bool reads =
        std::find(spec->required.begin(), spec->required.end(), name) != spec->required.end() ||
        std::find(spec->optional.begin(), spec->optional.end(), name) != spec->optional.end();
    if (!reads) {
      io.err << prefix << "--" << name << " is not read by " << spec->name << " (it takes "
             << option_list(*spec) << ")\n";
      return kExitUsage;
    }
    o.text[name] = value.as<std::string>();
  }
  if (!vm.count("axes")) {
    io.err << prefix << "missing --axes (it takes " << option_list(*spec) << ")\n";
    return kExitUsage;
  }
  for (const auto& name : spec->required) {
    if (!o.text.count(name)) {
      io.err << prefix << "missing --" << name << " (it takes " << option_list(*spec) << ")\n";
      return kExitUsage;
    }
  }

  // Types and the lane mode: a word outside a fixed list is a usage error.
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
  if (!parse_type("dtype", o.dtype)) return kExitUsage;
  o.weight_dtype = o.dtype; // contract_outer: Dw defaults to the stream type
  if (!parse_type("weight-dtype", o.weight_dtype)) return kExitUsage;
  if (auto it = o.text.find("mode"); it != o.text.end()) {
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
      return kExitUsage;
    }
  }

  const bool json = vm.count("json") > 0;
  o.axes_text = vm["axes"].as<std::string>();
  auto axes = ir::parse_axes_text(o.axes_text, kAxesSource);
  if (!axes)
    return report_failure(with_source(axes.diagnostics(), kAxesSource, o.axes_text), spec->name,
                          json, io);
  o.axes = std::move(*axes);

  // Every bad mapping is reported, each with a caret into its own option's text.
  std::vector<Reported> bad;
  for (const auto& name : mapping_options()) {
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
  if (!bad.empty()) return report_failure(bad, spec->name, json, io);

  auto derived = spec->run(o);
  if (!derived) {
    std::vector<Reported> rs;
    for (const auto& d : derived.diagnostics()) rs.push_back({d, std::nullopt});
    return report_failure(rs, spec->name, json, io);
  }

  if (json) {
    nlohmann::json doc = {
        {"ok", true}, {"op", std::string(spec->name)}, {"derived", to_json(*derived)}};
    io.out << doc.dump(2) << "\n";
    return kExitOk;
  }
  std::size_t width = 0;
  for (const auto& [key, value] : *derived) width = std::max(width, key.size());
  io.out << "ok: " << spec->name << "\n";
  for (const auto& [key, value] : *derived)
    io.out << "  " << key << std::string(width - key.size() + 2, ' ') << to_text(value) << "\n";
  return kExitOk;
}

} // namespace tujit::cli
