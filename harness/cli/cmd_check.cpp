// `tujit check FILE [--kernel NAME] [--json]` (spec/cli.md): parse, infer and type every kernel of
// a spec file; diagnostics with carets on stderr, or one JSON document on stdout.
#include "harness/cli/command.h"
#include "ir/lang/kernel.h"

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <ostream>
#include <sstream>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

bool inside(SourceSpan s, SourceSpan k) {
  return s.offset >= k.offset && s.offset < k.end();
}

nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer& src) {
  std::uint32_t line = 0, col = 0;
  if (d.span) std::tie(line, col) = src.line_col(d.span->offset);
  nlohmann::json j = {{"severity", std::string(to_string(d.severity))},
                      {"code", d.code},
                      {"stage", d.stage},
                      {"message", d.message},
                      {"file", src.name()},
                      {"line", line},
                      {"col", col}};
  j["notes"] = d.notes;
  return j;
}

nlohmann::json kernel_json(const ir::Kernel& k, const SourceBuffer& src) {
  nlohmann::json stages = nlohmann::json::array();
  for (const auto& s : k.stages) {
    auto [line, col] = src.line_col(s.name_span.offset);
    // `derived` is filled by the stage verifiers (a later stage of the pipeline).
    stages.push_back({{"op", std::string(ir::to_string(s.op))},
                      {"derived", nlohmann::json::object()},
                      {"line", line},
                      {"col", col},
                      {"output", ir::to_string(s.output)}});
  }
  return {{"name", k.name}, {"ok", k.ok}, {"stages", stages}};
}

} // namespace

int run_check(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description visible("usage: tujit check FILE [--kernel NAME] [--json]\n\n"
                                  "Parses a kernel spec, infers every type argument and checks "
                                  "every stage.\n\noptions");
  visible.add_options()("help,h", "show this help")("kernel", po::value<std::string>(),
                                                    "check only the kernel NAME")(
      "json", "print one JSON document on stdout (spec/cli.md)");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>());
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit check: " << e.what() << "\n" << visible;
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << visible;
    return kExitOk;
  }
  if (!vm.count("file")) {
    io.err << "tujit check: missing FILE\n" << visible;
    return kExitUsage;
  }
  const std::string path = vm["file"].as<std::string>();
  const bool json = vm.count("json") > 0;

  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) {
    io.err << "tujit check: cannot read '" << path << "'\n";
    return kExitUsage;
  }

  ir::SpecAnalysis a = ir::analyze(SourceBuffer(path, text.str()));
  const SourceBuffer& src = a.file.source;
  std::vector<const ir::Kernel*> selected;
  for (const auto& k : a.file.kernels) selected.push_back(&k);
  Diagnostics shown = a.diagnostics;
  if (vm.count("kernel")) {
    const std::string want = vm["kernel"].as<std::string>();
    const ir::Kernel* pick = nullptr;
    for (const auto& k : a.file.kernels)
      if (k.name == want) pick = &k;
    if (!pick) {
      std::string names;
      for (const auto& k : a.file.kernels) names += (names.empty() ? "" : ", ") + k.name;
      io.err << "tujit check: no kernel named '" << want << "' in '" << path << "'"
             << (names.empty() ? std::string(" (it defines none)") : "; its kernels are: " + names)
             << "\n";
      return kExitUsage;
    }
    selected = {pick};
    // Keep the kernel's diagnostics and the file-level ones (outside every kernel).
    Diagnostics keep;
    for (const auto& d : a.diagnostics) {
      bool in_other = false;
      if (d.span && !inside(*d.span, pick->span))
        for (const auto& k : a.file.kernels)
          in_other = in_other || (&k != pick && inside(*d.span, k.span));
      if (!in_other) keep.push_back(d);
    }
    shown = std::move(keep);
  }

  const int status = has_errors(shown) ? kExitUserError : kExitOk;
  if (json) {
    nlohmann::json doc;
    doc["kernels"] = nlohmann::json::array();
    for (const auto* k : selected) doc["kernels"].push_back(kernel_json(*k, src));
    doc["diagnostics"] = nlohmann::json::array();
    for (const auto& d : shown) doc["diagnostics"].push_back(diagnostic_json(d, src));
    io.out << doc.dump(2) << "\n";
    return status;
  }
  for (const auto& d : shown) io.err << render(d, &src);
  for (const auto* k : selected) {
    io.out << k->name << ": " << (k->ok ? "ok" : "FAILED") << " (";
    for (std::size_t i = 0; i < k->stages.size(); ++i)
      io.out << (i ? ", " : "") << ir::to_string(k->stages[i].op);
    io.out << ")\n";
  }
  return status;
}

} // namespace tujit::cli
