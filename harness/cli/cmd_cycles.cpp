// `tujit cycles FILE [--kernel NAME] [--json] [--timeline PATH.svg] [--max-cycles N]
// [--format …]` (docs/cli.md §7): the analytic and the trace cycle model of the kernel's
// contraction chain side by side (harness/cycles/, docs/cycle-model.md), optionally the trace's
// busy/stall timeline as an SVG drawn by gnuplot; exit 1 when the analytic model exceeds the
// kernel's cycle budget (--max-cycles, or its `// tujit: max-cycles N` comment; docs/ci.md).
#include "harness/ci/cycle_budget.h"
#include "harness/ci/directives.h"
#include "harness/cli/check_report.h"
#include "harness/cli/ci_report.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/kernel_size.h"
#include "harness/cli/option_values.h"
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
// chain (docs/contraction.md §10).
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
  report_all(io, ds, &src, status);
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
  po::options_description extra = format_option();
  extra.add_options()("timeline", po::value<std::string>(),
                      "draw one slice's per-stage busy/stall timeline into PATH.svg (gnuplot)")(
      "max-cycles", po::value<std::uint64_t>(),
      "fail (exit 1) when the analytic model needs more cycles (overrides the kernel's "
      "`// tujit: max-cycles N` comment)")("force", "replace an existing --timeline file");
  add_max_bytes_option(extra);
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc = parse_file_command(
          "cycles",
          "Times the kernel's contraction chain on one slice with the analytic model (closed\n"
          "form) and the trace model (walks the Sequencer IR's address streams), side by side.\n"
          "Every slice runs the same program in lock-step, so one slice's cycles are the chain's.",
          args, io, opt, &extra,
          " [--timeline PATH.svg [--force]] [--max-cycles N] [--max-bytes SIZE] [--format FORMAT]",
          &vm))
    return *rc;
  report::ReportFormat format = report::ReportFormat::Text;
  if (auto rc = read_format("cycles", vm, opt.json, io, format)) return *rc;
  if (vm.count("max-cycles") && vm["max-cycles"].as<std::uint64_t>() == 0) {
    io.err << "tujit cycles: --max-cycles wants a positive number of cycles\n";
    return kExitUsage;
  }
  const auto max_bytes = max_bytes_option(vm, "cycles", io);
  if (!max_bytes) return kExitUsage;
  const bool timeline = vm.count("timeline") > 0;
  const bool force = vm.count("force") > 0;
  if (auto rc = check_output_option(vm, "timeline", io)) return *rc;
  KernelReport ci_report("cycles", format, io);
  CheckedSpec c;
  const ir::Kernel* kernel = nullptr;
  if (auto rc = load_one_kernel("cycles", opt, io, c, &kernel))
    return ci_report.finish(*rc, opt.file, nullptr, c.analysis ? &c.analysis->file.source : nullptr,
                            c.shown, true);
  const SourceBuffer& src = c.analysis->file.source;
  auto stop = [&](const Diagnostics& ds, int status) {
    if (ci_report.ci()) return ci_report.finish(status, opt.file, kernel, &src, ds);
    return fail(ds, src, kernel->name, opt.json, status, io);
  };
  if (!has_chain(*kernel)) {
    Diagnostic d = make_error(
        "E-CYCLES-001",
        fmt::format("kernel `{}` has no contract_outer → contract_packet → contract_time → "
                    "contract_lane chain to time",
                    kernel->name),
        kernel->name_span,
        {"the cycle models time complete contraction chains (docs/contraction.md §10); stores and "
         "Outer-only kernels have no output stream to time"});
    d.stage = "cycles";
    return stop({d}, kExitUserError);
  }
  if (auto d = kernel_size_error(c.analysis->file, *kernel, *max_bytes))
    return stop({*d}, kExitUserError);
  auto program = ir::seq::lower_contraction(*kernel);
  if (!program) return stop(program.diagnostics(), kExitUserError);

  const auto report = cycles::cycle_report(*program, cycles::cycle_options_for(*kernel), timeline);
  if (!report.trace.complete) {
    io.err << "tujit cycles: internal error (this is a bug in tujit): the trace of `"
           << kernel->name << "` did not finish\n";
    return kExitInternal;
  }
  if (timeline) {
    const std::string path = vm["timeline"].as<std::string>();
    auto written = cycles::write_timeline_svg(report, kernel->name, path, force);
    if (!written) return stop(written.diagnostics(), kExitUsage);
    io.err << "tujit cycles: timeline written to " << path << "\n";
  }
  // The budget: --max-cycles, else the kernel's comment.
  std::optional<std::uint64_t> budget;
  SourceSpan budget_at = kernel->name_span;
  if (vm.count("max-cycles")) {
    budget = vm["max-cycles"].as<std::uint64_t>();
  } else {
    const auto& kernels = c.analysis->file.kernels;
    const auto dirs = ci::read_directives(src, kernels);
    const auto& mine = dirs.kernels[static_cast<std::size_t>(kernel - kernels.data())];
    if (!mine.diagnostics.empty()) return stop(mine.diagnostics, kExitUserError);
    budget = mine.max_cycles;
    if (mine.max_cycles_span) budget_at = *mine.max_cycles_span;
  }
  std::optional<Diagnostic> over;
  if (budget) over = ci::check_cycle_budget(*kernel, report.analytic.total, *budget, budget_at);
  const int status = over ? kExitUserError : kExitOk;
  if (opt.json) {
    nlohmann::ordered_json doc = {{"kernel", kernel->name}};
    const nlohmann::ordered_json body = cycles::cycle_report_json(report);
    for (const auto& [key, value] : body.items()) doc[key] = value;
    if (budget) {
      doc["max_cycles"] = *budget;
      doc["within_budget"] = !over;
    }
    io.out << doc.dump(2) << "\n";
    if (over) io.err << render(*over, &src);
    return status;
  }
  ci_report.text() << "kernel " << kernel->name << "\n" << cycles::cycle_summary_text(report);
  if (budget)
    ci_report.text() << fmt::format("budget: {} of {} cycles ({})\n", report.analytic.total,
                                    *budget, over ? "OVER" : "within");
  return ci_report.finish(status, opt.file, kernel, &src,
                          over ? Diagnostics{*over} : Diagnostics{});
}

} // namespace tujit::cli
