// `tujit cycles FILE [--kernel NAME] [--json] [--timeline PATH.svg] [--max-cycles N]
// [--format …]` (docs/cli.md §7): the analytic and the trace cycle model of every command of the
// kernel side by side, and their schedule (harness/cycles/, docs/cycle-model.md), optionally the
// main command's busy/stall timeline as an SVG drawn by gnuplot; exit 1 when the analytic model
// exceeds the kernel's cycle budget (--max-cycles, or its `// tujit: max-cycles N` comment;
// docs/ci.md).
#include "harness/ci/cycle_budget.h"
#include "harness/ci/directives.h"
#include "harness/cli/check_report.h"
#include "harness/cli/ci_report.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/kernel_size.h"
#include "harness/cli/option_values.h"
#include "harness/cycles/kernel_report.h"
#include "harness/cycles/occupancy_svg.h"
#include "harness/cycles/schedule_report.h"
#include "harness/cycles/timeline_svg.h"
#include "harness/run/run_footprint.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

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

po::options_description cycles_options() {
  po::options_description extra = format_option();
  extra.add_options()("timeline", po::value<std::string>(),
                      "draw one slice's per-stage busy/stall timeline into PATH.svg (gnuplot)")(
      "trace", po::value<std::string>(),
      "write the kernel's schedule into PATH.json in the Chrome trace event format (Perfetto, "
      "chrome://tracing): a track per context and engine, dependencies as arrows")(
      "memory", po::value<std::string>(),
      "draw where the kernel's DM, TRF and VRF values live and for how long into PATH.svg")(
      "max-cycles", po::value<std::uint64_t>(),
      "fail (exit 1) when the analytic model needs more cycles (overrides the kernel's "
      "`// tujit: max-cycles N` comment)")(
      "force", "replace an existing --timeline / --trace / --memory file");
  add_max_bytes_option(extra);
  return extra;
}

/// The cycle budget: --max-cycles, else the kernel's `// tujit: max-cycles N` comment (whose
/// position `at` then points to); nullopt for none. The comment's own diagnostics when it is
/// malformed.
Result<std::optional<std::uint64_t>> cycle_budget(const po::variables_map& vm,
                                                  const ir::SpecAnalysis& analysis,
                                                  const ir::Kernel& kernel, SourceSpan& at) {
  at = kernel.name_span;
  if (vm.count("max-cycles")) return std::optional{vm["max-cycles"].as<std::uint64_t>()};
  const auto& kernels = analysis.file.kernels;
  const auto dirs = ci::read_directives(analysis.file.source, kernels);
  const auto& mine = dirs.kernels[static_cast<std::size_t>(&kernel - kernels.data())];
  if (!mine.diagnostics.empty()) return mine.diagnostics;
  if (mine.max_cycles_span) at = *mine.max_cycles_span;
  return mine.max_cycles;
}

/// The report: JSON (the models, the schedule and the budget's verdict) or text.
int report_cycles(const ir::Kernel& kernel, const cycles::KernelCycles& report,
                  std::optional<std::uint64_t> budget, const std::optional<Diagnostic>& over,
                  const FileCommandOptions& opt, const SourceBuffer& src, KernelReport& ci_report,
                  CommandIO& io) {
  const int status = over ? kExitUserError : kExitOk;
  if (opt.json) {
    nlohmann::ordered_json doc = {{"kernel", kernel.name}};
    const nlohmann::ordered_json body = cycles::kernel_cycles_json(report);
    for (const auto& [key, value] : body.items()) doc[key] = value;
    doc["timeline"] = cycles::schedule_json(report);
    if (budget) {
      doc["max_cycles"] = *budget;
      doc["within_budget"] = !over;
    }
    io.out << doc.dump(2) << "\n";
    if (over) io.err << render(*over, &src);
    return status;
  }
  ci_report.text() << "kernel " << kernel.name << "\n"
                   << cycles::kernel_cycles_text(report) << cycles::schedule_text(report);
  if (budget)
    ci_report.text() << fmt::format("budget: {} of {} cycles ({})\n", cycles::budget_cycles(report),
                                    *budget, over ? "OVER" : "within");
  return ci_report.finish(status, opt.file, &kernel, &src,
                          over ? Diagnostics{*over} : Diagnostics{});
}

} // namespace

int run_cycles(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description extra = cycles_options();
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc = parse_file_command(
          "cycles",
          "Times every command of the kernel on one slice with the analytic model (closed form)\n"
          "and the trace model (walks the address streams), side by side: contraction chains and\n"
          "parts of one, fetch → collect commands, TRF / VRF stores and the StoTRF / StoVRF short\n"
          "command; then schedules the commands by context (docs/cycle-model.md §9). Every slice\n"
          "runs the same program in lock-step, so one slice's cycles are the kernel's.",
          args, io, opt, &extra,
          " [--timeline PATH.svg] [--trace PATH.json] [--memory PATH.svg] [--force] [--max-cycles "
          "N]"
          " [--max-bytes SIZE]"
          " [--format FORMAT]",
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
  if (auto rc = check_output_options(vm, {"timeline", "trace", "memory"}, "cycles", io)) return *rc;
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
  if (auto d = run::kernel_size_error(c.analysis->file, c.checked(), *max_bytes))
    return stop({*d}, kExitUserError);
  auto report = cycles::kernel_cycles(c.checked(), timeline);
  if (!report) return stop(report.diagnostics(), kExitUserError);
  for (const auto& cmd : report->commands) {
    if (cmd.trace_complete()) continue;
    io.err << "tujit cycles: internal error (this is a bug in tujit): the trace of `"
           << kernel->name << "` did not finish\n";
    return kExitInternal;
  }
  if (timeline) {
    const std::string path = vm["timeline"].as<std::string>();
    auto written = cycles::write_timeline_svg(cycles::timeline_report(*report), kernel->name, path,
                                              vm.count("force") > 0);
    if (!written) return stop(written.diagnostics(), kExitUsage);
    io.err << "tujit cycles: timeline written to " << path << "\n";
  }
  if (vm.count("trace")) {
    const std::string path = vm["trace"].as<std::string>();
    if (auto written = cycles::write_chrome_trace(*kernel, *report, path, vm.count("force") > 0);
        !written)
      return stop(written.diagnostics(), kExitUsage);
    io.err << "tujit cycles: schedule trace written to " << path
           << " (open it in https://ui.perfetto.dev or chrome://tracing)\n";
  }
  if (vm.count("memory")) {
    const std::string path = vm["memory"].as<std::string>();
    if (auto written = cycles::write_occupancy_svg(*report, path, vm.count("force") > 0); !written)
      return stop(written.diagnostics(), kExitUsage);
    io.err << "tujit cycles: memory occupancy written to " << path << "\n";
  }
  SourceSpan budget_at;
  auto budget = cycle_budget(vm, *c.analysis, *kernel, budget_at);
  if (!budget) return stop(budget.diagnostics(), kExitUserError);
  std::optional<Diagnostic> over;
  if (*budget)
    over = ci::check_cycle_budget(*kernel, cycles::budget_cycles(*report), **budget, budget_at);
  return report_cycles(*kernel, *report, *budget, over, opt, src, ci_report, io);
}

} // namespace tujit::cli
