// `tujit seq --axes "A=8,B=512" --dtype bf16 --buf "A, B" --time "A, B / 32" --packet "B % 32"
// [--mode read|write] [--context main|sub] [--json]` (docs/cli.md §10): the sequencer configuration
// that reads a memory buffer as a stream (docs/datapath.md §4, §5) — its loops, packet size,
// contiguous run and access size, the Fetch Engine's read_size and cycles, and the per-term walk.
// Padded stream positions may over-read past the buffer (reads) or are dropped (writes). A stream
// the sequencer cannot produce exits 1 with an E-FETCH diagnostic (stage `fetch`); bad
// axes or mapping text exit 1 with a caret into that option's text; bad usage exits 2.
#include "harness/cli/command.h"
#include "harness/cli/command_line.h"
#include "harness/cli/diagnostic_json.h"
#include "ir/datapath/fetch_engine.h"
#include "ir/datapath/sequencer_derive.h"
#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/mapping/syntax.h"
#include "ir/types/scalar_type.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;
namespace dp = ir::datapath;

constexpr const char* kAxesSource = "--axes";

struct Located {
  Diagnostic diagnostic;
  std::optional<SourceBuffer> source; // the option text a parse error points into
};

nlohmann::json located_json(const Located& l) {
  nlohmann::json j =
      l.source ? diagnostic_json(l.diagnostic, *l.source) : diagnostic_fields(l.diagnostic);
  constexpr std::string_view kRulePrefix = "rule: ";
  for (const auto& n : l.diagnostic.notes) {
    if (n.rfind(kRulePrefix, 0) == 0) {
      j["rule"] = n.substr(kRulePrefix.size());
      break;
    }
  }
  return j;
}

nlohmann::json entries_json(const std::vector<dp::SeqEntry>& es) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& e : es) a.push_back({e.size, e.stride});
  return a;
}

// The derivation's fields (present whenever the derivation itself succeeded).
void add_derivation(nlohmann::json& doc, const dp::SequencerDerivation& d) {
  const dp::SequencerConfig& c = d.config;
  doc["entries"] = entries_json(c.entries);
  doc["packet_size"] = c.packet_size;
  doc["contiguous_run"] = c.contiguous_run;
  doc["max_access_size"] = c.max_access_size;
  doc["sequencer"] = c.to_string();
  doc["raw_entries"] = entries_json(d.raw_entries);
  doc["merged"] = d.merged;
  doc["buffer_size"] = d.buffer_size;
  doc["time_size"] = d.time_size;
  doc["footprint"] = c.footprint();
  doc["live_footprint"] = d.live_footprint;
  doc["live_positions"] = d.live_positions;
  if (d.mode == dp::SeqMode::Read)
    doc["over_read"] = c.footprint() > d.buffer_size ? c.footprint() - d.buffer_size : 0;
  else
    doc["dropped_positions"] = c.stream_size() - d.live_positions;
  nlohmann::json terms = nlohmann::json::array();
  for (const auto& s : d.steps)
    terms.push_back({{"term", s.term},
                     {"side", s.in_packet ? "packet" : "time"},
                     {"entries", entries_json(s.entries)},
                     {"broadcast", s.broadcast},
                     {"padded", s.padded},
                     {"buf_after", ir::render_text(s.buf_after)}});
  doc["terms"] = terms;
}

void print_derivation(std::ostream& os, const dp::SequencerDerivation& d) {
  os << "term by term (docs/datapath.md §4):\n";
  for (const auto& s : d.steps) {
    os << "  " << (s.in_packet ? "packet " : "time   ") << s.term << "  ->  "
       << (s.entries.empty() ? std::string("(size 1, no loop)") : dp::entries_text(s.entries))
       << (s.broadcast ? "  broadcast" : "")
       << (s.padded ? (d.mode == dp::SeqMode::Read ? "  padded (over-read)" : "  padded (dropped)")
                    : "")
       << "   Buf after: " << ir::render_text(s.buf_after) << "\n";
  }
  if (d.merged)
    os << "raw entries:     " << dp::entries_text(d.raw_entries) << " (" << d.raw_entries.size()
       << " > 8: merged)\n";
  const dp::SequencerConfig& c = d.config;
  os << "sequencer:       " << c.to_string() << "\n"
     << "packet_size:     " << c.packet_size << "\n"
     << "contiguous_run:  " << c.contiguous_run << "\n"
     << "max_access_size: " << c.max_access_size << "\n"
     << "footprint:       " << c.footprint() << " of " << d.buffer_size << " buffer elements";
  if (d.mode == dp::SeqMode::Read && c.footprint() > d.buffer_size)
    os << " (padded positions over-read " << c.footprint() - d.buffer_size
       << " element(s) past the end: top padding, never data)";
  if (d.mode == dp::SeqMode::Write && c.footprint() > d.live_footprint)
    os << " (the written positions reach " << d.live_footprint << ")";
  os << "\n";
  if (d.mode == dp::SeqMode::Write && d.live_positions < c.stream_size())
    os << "written:         " << d.live_positions << " of " << c.stream_size()
       << " stream positions (the stream's padded positions are dropped)\n";
}

int report_failure(const std::vector<Located>& ds, const dp::SequencerDerivation* derived,
                   bool json, CommandIO& io) {
  for (const auto& l : ds) report(io, l.diagnostic, l.source ? &*l.source : nullptr);
  if (json) {
    nlohmann::json doc = {{"ok", false}};
    if (derived) add_derivation(doc, *derived);
    doc["diagnostics"] = nlohmann::json::array();
    for (const auto& l : ds) doc["diagnostics"].push_back(located_json(l));
    io.out << doc.dump(2) << "\n";
  } else if (derived) {
    print_derivation(io.out, *derived);
  }
  return kExitUserError;
}

std::vector<Located> unlocated(const Diagnostics& ds) {
  std::vector<Located> out;
  for (const auto& d : ds) out.push_back({d, std::nullopt});
  return out;
}

/// What `tujit seq` was asked, its option values checked.
struct SeqRequest {
  std::string axes, buf, time, packet; // option texts
  ir::ScalarType dtype = ir::ScalarType::BF16;
  std::string mode_text, context_text;
  dp::SeqMode mode = dp::SeqMode::Read;
  dp::FetchContext context = dp::FetchContext::Main;
  bool json = false;
};

po::options_description seq_options() {
  po::options_description visible(
      "usage: tujit seq --axes \"A=8,B=512\" --dtype bf16 --buf \"A, B\" --time \"A, B / 32\"\n"
      "                 --packet \"B % 32\" [--mode read|write] [--context main|sub] [--json]\n\n"
      "The sequencer configuration [n:s, ...] : p that reads the memory buffer --buf as the\n"
      "stream (--time, --packet) (docs/datapath.md §4), its contiguous run and access size, and\n"
      "for reads the Fetch Engine's read_size, reads per packet and cycles (§5). Mappings are\n"
      "m![...] bodies without `m![ ]`.\n\noptions");
  visible.add_options()("help,h", "show this help")(
      "axes", po::value<std::string>()->default_value(""),
      "axis declarations NAME=SIZE, comma separated (the axes![...] body)")(
      "dtype", po::value<std::string>()->default_value("bf16"), "element type in memory")(
      "buf", po::value<std::string>(), "the buffer's mapping (e.g. a DmTensor's Element)")(
      "time", po::value<std::string>(), "the stream's Time mapping")(
      "packet", po::value<std::string>(), "the stream's Packet mapping")(
      "mode", po::value<std::string>()->default_value("read"),
      "read (buffer -> stream, Fetch) or write (stream -> buffer, Commit)")(
      "context", po::value<std::string>()->default_value("main"),
      "main (reads up to 32 B) or sub (reads 8 B)")("json", "print one JSON document on stdout");
  return visible;
}

/// Parses and checks the options into `req`; the exit status when the command ends here (help,
/// or a usage error: exit 2).
std::optional<int> parse_seq_request(const std::vector<std::string>& args, CommandIO& io,
                                     SeqRequest& req) {
  const po::options_description visible = seq_options();
  po::variables_map vm;
  try {
    const int style =
        po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(visible).style(style).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit seq: " << e.what() << " (see `tujit seq --help`)\n";
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible << "\n";
    note_help_table(visible, io);
    return kExitOk;
  }
  for (const char* required : {"buf", "time", "packet"}) {
    if (!vm.count(required)) {
      io.err << "tujit seq: missing --" << required << " (see `tujit seq --help`)\n";
      return kExitUsage;
    }
  }
  const std::string dtype_text = vm["dtype"].as<std::string>();
  auto dtype = ir::parse_scalar_type(dtype_text, ir::ScalarNameSet::All);
  if (!dtype) {
    io.err << "tujit seq: --dtype '" << dtype_text << "' is not an element type (one of "
           << ir::allowed_scalar_names(ir::ScalarNameSet::All) << ")\n";
    return kExitUsage;
  }
  req.dtype = *dtype;
  req.mode_text = vm["mode"].as<std::string>();
  if (req.mode_text != "read" && req.mode_text != "write") {
    io.err << "tujit seq: --mode '" << req.mode_text << "' is not read or write\n";
    return kExitUsage;
  }
  req.mode = req.mode_text == "read" ? dp::SeqMode::Read : dp::SeqMode::Write;
  req.context_text = vm["context"].as<std::string>();
  if (req.context_text != "main" && req.context_text != "sub") {
    io.err << "tujit seq: --context '" << req.context_text << "' is not main or sub\n";
    return kExitUsage;
  }
  req.context = req.context_text == "main" ? dp::FetchContext::Main : dp::FetchContext::Sub;
  req.json = vm.count("json") > 0;
  req.axes = vm["axes"].as<std::string>();
  req.buf = vm["buf"].as<std::string>();
  req.time = vm["time"].as<std::string>();
  req.packet = vm["packet"].as<std::string>();
  return std::nullopt;
}

/// The buffer, Time and Packet mappings over --axes; every bad mapping is reported, each with a
/// caret into its own option's text (the exit status then).
std::optional<int> parse_seq_mappings(const SeqRequest& req, CommandIO& io,
                                      std::vector<ir::Mapping>& maps) {
  auto axes = ir::parse_axes_text(req.axes, kAxesSource);
  if (!axes) {
    std::vector<Located> ds;
    for (const auto& d : axes.diagnostics()) ds.push_back({d, SourceBuffer(kAxesSource, req.axes)});
    return report_failure(ds, nullptr, req.json, io);
  }
  std::vector<Located> bad;
  for (const auto& [opt, text] : {std::pair{"--buf", &req.buf}, std::pair{"--time", &req.time},
                                  std::pair{"--packet", &req.packet}}) {
    auto m = ir::parse_mapping_text(*text, *axes, opt);
    if (!m) {
      for (const auto& d : m.diagnostics()) bad.push_back({d, SourceBuffer(opt, *text)});
      continue;
    }
    maps.push_back(*m);
  }
  if (!bad.empty()) return report_failure(bad, nullptr, req.json, io);
  return std::nullopt;
}

int report_sequencer(const SeqRequest& req, const dp::SequencerDerivation& derived,
                     const std::optional<dp::FetchDerived>& fetch, CommandIO& io) {
  if (req.json) {
    nlohmann::json doc = {{"ok", true}, {"mode", req.mode_text}, {"dtype", ir::name(req.dtype)}};
    add_derivation(doc, derived);
    if (fetch) {
      doc["context"] = req.context_text;
      doc["read_size"] = fetch->read_size;
      doc["read_bytes"] = fetch->read_bytes;
      doc["reads_per_packet"] = fetch->reads_per_packet;
      doc["cycles"] = fetch->cycles;
    }
    io.out << doc.dump(2) << "\n";
    return kExitOk;
  }
  print_derivation(io.out, derived);
  if (fetch)
    io.out << "read_size:       " << fetch->read_size << " elements (" << fetch->read_bytes
           << " B, " << req.context_text << " context)\n"
           << "reads/packet:    " << fetch->reads_per_packet << "\n"
           << "cycles:          " << fetch->cycles << " (|Time| " << derived.time_size << " x "
           << fetch->reads_per_packet << " reads)\n";
  return kExitOk;
}

} // namespace

int run_seq(const std::vector<std::string>& args, CommandIO& io) {
  SeqRequest req;
  if (auto exit = parse_seq_request(args, io, req)) return *exit;
  std::vector<ir::Mapping> maps;
  if (auto exit = parse_seq_mappings(req, io, maps)) return *exit;
  auto derived = dp::derive_sequencer(maps[0], maps[1], maps[2], req.mode);
  if (!derived) return report_failure(unlocated(derived.diagnostics()), nullptr, req.json, io);
  std::optional<dp::FetchDerived> fetch;
  if (req.mode == dp::SeqMode::Read) {
    auto f = dp::check_fetch(*derived, req.dtype, req.context);
    if (!f) return report_failure(unlocated(f.diagnostics()), &*derived, req.json, io);
    fetch = std::move(*f);
  }
  return report_sequencer(req, *derived, fetch, io);
}

} // namespace tujit::cli
