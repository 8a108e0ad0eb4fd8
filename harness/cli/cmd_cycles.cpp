// `tujit cycles FILE [--kernel NAME] [--json] [--timeline PATH.svg]` (spec/cli.md): the analytic
// and the trace cycle model of the kernel's contraction chain side by side (harness/cycles/,
// docs/cycle-model.md), optionally the trace's busy/stall timeline as an SVG drawn by gnuplot.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cycles/cycle_report.h"
#include "harness/cycles/timeline_svg.h"
#include "ir/seq/lower_contraction.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

// The models time one complete contract_outer → contract_packet → contract_time → contract_lane
// chain (contraction.md §10).
bool has_chain(const ir::Kernel& k) {
  return std::any_of(k.stages.begin(), k.stages.end(), [&k](const ir::Stage& outer) {
    if (outer.op != ir::StageOp::ContractOuter || !outer.trf) return false;
    bool packet = false, time = false, lane = false;
    for (const auto& s : k.stages) {
      if (s.chain != outer.chain) continue;
      packet = packet || s.op == ir::StageOp::ContractPacket;
      time = time || s.op == ir::StageOp::ContractTime;
      lane = lane || s.op == ir::StageOp::ContractLane;
    }
    return packet && time && lane;
  });
}

int fail(const Diagnostics& ds, const SourceBuffer& src, const std::string& kernel, bool json,
         int status, CommandIO& io) {
  for (const auto& d : ds) io.err << render(d, &src);
  if (json) {
    nlohmann::json doc = {{"kernel", kernel}, {"ok", false}};
    doc["diagnostics"] = nlohmann::json::array();
    for (const auto& d : ds) doc["diagnostics"].push_back(diagnostic_json(d, src));
    io.out << doc.dump(2) << "\n";
  }
  return status;
}

} // namespace

int run_cycles(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description extra;
  extra.add_options()("timeline", po::value<std::string>(),
                      "draw one slice's per-stage busy/stall timeline into PATH.svg (gnuplot)");
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc = parse_file_command(
          "cycles",
          "Times the kernel's contraction chain on one slice with the analytic model (closed\n"
          "form) and the trace model (walks the Sequencer IR's address streams), side by side.\n"
          "Every slice runs the same program in lock-step, so one slice's cycles are the chain's.",
          args, io, opt, &extra, " [--timeline PATH.svg]", &vm))
    return *rc;
  CheckedSpec c;
  const ir::Kernel* kernel = nullptr;
  if (auto rc = load_one_kernel("cycles", opt, io, c, &kernel)) return *rc;
  const SourceBuffer& src = c.analysis->file.source;
  if (!has_chain(*kernel)) {
    Diagnostic d = make_error(
        "E-CYCLES-001",
        fmt::format("kernel `{}` has no contract_outer → contract_packet → contract_time → "
                    "contract_lane chain to time",
                    kernel->name),
        kernel->name_span,
        {"the cycle models time complete contraction chains (contraction.md §10); stores and "
         "Outer-only kernels have no output stream to time"});
    d.stage = "cycles";
    return fail({d}, src, kernel->name, opt.json, kExitUserError, io);
  }
  auto program = ir::seq::lower_contraction(*kernel);
  if (!program) return fail(program.diagnostics(), src, kernel->name, opt.json, kExitUserError, io);

  const bool timeline = vm.count("timeline") > 0;
  const auto report = cycles::cycle_report(*program, cycles::cycle_options_for(*kernel), timeline);
  if (!report.trace.complete) {
    io.err << "tujit cycles: internal error (this is a bug in tujit): the trace of `"
           << kernel->name << "` did not finish\n";
    return kExitInternal;
  }
  if (timeline) {
    const std::string path = vm["timeline"].as<std::string>();
    auto written = cycles::write_timeline_svg(report, kernel->name, path);
    if (!written) return fail(written.diagnostics(), src, kernel->name, opt.json, kExitUsage, io);
    io.err << "tujit cycles: timeline written to " << path << "\n";
  }
  if (opt.json) {
    nlohmann::ordered_json doc = {{"kernel", kernel->name}};
    const nlohmann::ordered_json body = cycles::cycle_report_json(report);
    for (const auto& [key, value] : body.items()) doc[key] = value;
    io.out << doc.dump(2) << "\n";
    return kExitOk;
  }
  io.out << "kernel " << kernel->name << "\n" << cycles::cycle_summary_text(report);
  return kExitOk;
}

} // namespace tujit::cli
