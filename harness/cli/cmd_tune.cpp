// `tujit tune --einsum E --sizes S --dtype D [--top K] [--budget SECONDS] [--threads N]
// [--shard I/N] [--json] [--csv PATH] [--plot PATH.svg] [--emit BEST.rs] [--run-top K]`, and
// `tujit tune --merge SHARD.json…` (docs/tune.md, docs/cli.md §14): search the legal kernels of a
// contraction, rank them by the analytic cycle model, and hand back the best one as a spec file.
// Output paths are checked before the search and written through runtime/io/output_file.h;
// SIGINT / SIGTERM end the search as a spent --budget does, and the outputs get what was ranked.
#include "harness/bench/bench_session.h"
#include "harness/bench/sweep_file.h"
#include "harness/cli/command.h"
#include "harness/cli/command_line.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/kernel_size.h"
#include "harness/cli/option_values.h"
#include "harness/tune/run_top.h"
#include "harness/tune/tune_plot.h"
#include "harness/tune/tune_report.h"
#include "runtime/io/interrupt.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <optional>
#include <ostream>
#include <sstream>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "usage: tujit tune --einsum \"vmk,vnk->vmn\" --sizes \"V=32,M=1024,N=8,K=256\" --dtype bf16\n"
    "                  [--top K] [--budget SECONDS] [--threads N] [--shard I/N] [--json]\n"
    "                  [--csv PATH] [--plot PATH.svg] [--emit BEST.rs] [--run-top K]\n"
    "       tujit tune --merge SHARD.json... [--top K] [--json] [--csv PATH] [--plot PATH.svg]\n"
    "                  [--emit BEST.rs]\n";

constexpr const char* kDescription =
    "Searches every kernel the Tensor Unit can run for a contraction of two operands: the\n"
    "first is the stream, the second the TRF operand. Each candidate mapping (which digits of\n"
    "which axes go to Cluster, Slice, Lane, Time and the packet, PackSize, the time broadcast,\n"
    "the TRF Element's layout and read width, LaneMode) is checked by the verifiers `tujit\n"
    "check` runs and timed by the analytic cycle model; the fastest are ranked, each with its\n"
    "kernel as a spec file that `tujit check`, `tujit cycles` and `tujit run` read. --shard\n"
    "splits the search across machines; --merge joins the shards' --json output.\n"
    "docs/tune.md describes the search space, the bound and the report.\n";

bool is_size_limit(const Diagnostics& ds) {
  return !ds.empty() && ds.front().code == "E-LIMIT-002";
}

// --run-top: each of the first k ranked kernels on the JIT, verified, traced. The worst status:
// engines that disagree are a bug (3), an oracle mismatch a failed kernel (1).
int run_top(tune::Report& report, std::size_t k, unsigned threads, std::uint64_t seed,
            std::uint64_t max_bytes, nlohmann::ordered_json* runs, std::ostream& text,
            CommandIO& io) {
  int status = kExitOk;
  text << "\n--run-top " << k << ": JIT with --verify (interpreter bit for bit, float64 oracle)\n";
  for (std::size_t i = 0; i < std::min(k, report.best.size()); ++i) {
    const tune::Entry& e = report.best[i];
    auto r = tune::run_ranked(e, threads, seed, max_bytes);
    if (!r && is_size_limit(r.diagnostics()))
      return report_all(io, r.diagnostics(), nullptr, kExitUserError);
    if (!r) {
      report_all(io, r.diagnostics(), nullptr, kExitInternal);
      io.err << "tujit tune: internal error (this is a bug in tujit): ranked kernel " << e.rank
             << " does not run\n";
      return kExitInternal;
    }
    text << fmt::format(
        "  rank {}: analytic {} / trace {} cycles; jit vs interp {}; oracle {} "
        "(max abs err {:g}); {} poisoned; sha256 {}\n",
        r->rank, r->analytic_cycles, r->trace_cycles, r->engines_bit_exact ? "bit-exact" : "DIFFER",
        r->oracle_ok ? "ok" : "MISMATCH", r->oracle_max_abs_err, r->poisoned_outputs, r->sha256);
    runs->push_back({{"rank", r->rank},
                     {"analytic_cycles", r->analytic_cycles},
                     {"trace_cycles", r->trace_cycles},
                     {"engines_bit_exact", r->engines_bit_exact},
                     {"oracle_ok", r->oracle_ok},
                     {"oracle_max_abs_err", r->oracle_max_abs_err},
                     {"poisoned_outputs", r->poisoned_outputs},
                     {"sha256", r->sha256},
                     {"run_ms", r->run_ms},
                     {"verify_ms", r->verify_ms}});
    if (!r->engines_bit_exact)
      status = kExitInternal;
    else if (!r->oracle_ok && status == kExitOk)
      status = kExitUserError;
  }
  return status;
}

po::options_description tune_options() {
  po::options_description o("options");
  o.add_options()("help,h", "this help")(
      "einsum", po::value<std::string>(),
      "the contraction: STREAM,TRF->OUTPUT axis letters, e.g. \"vmk,vnk->vmn\"")(
      "sizes", po::value<std::string>(), "every axis's size, e.g. \"V=32,M=1024,N=8,K=256\"")(
      "dtype", po::value<std::string>(),
      "operand types: one for both (i4, i8, f8e4m3, f8e5m2, bf16) or STREAM,TRF (e.g. i9,i8)")(
      "top", po::value<std::size_t>()->default_value(10), "rank this many kernels")(
      "budget", po::value<double>(),
      "stop searching after SECONDS (the ranking then covers what was searched)")(
      "threads", po::value<std::string>()->default_value("0"),
      "worker threads (0 = every hardware thread); the ranking does not depend on it")(
      "shard", po::value<std::string>(),
      "search only shard I of N (0 <= I < N; candidate c is in shard c % N)")(
      "merge", "join the --json outputs of shards (the FILEs) into one report")(
      "json", "print one JSON document on stdout (the table goes to stderr)")(
      "csv", po::value<std::string>(), "write the ranked kernels and the Pareto front to PATH")(
      "plot", po::value<std::string>(),
      "draw modelled cycles against live slices with the Pareto front (gnuplot SVG)")(
      "emit", po::value<std::string>(), "write the rank-1 kernel as a spec file to PATH")(
      "run-top", po::value<std::size_t>()->default_value(0),
      "run the top K kernels on the JIT with --verify and trace their cycles")(
      "seed", po::value<std::uint64_t>()->default_value(0), "seed of --run-top's random inputs")(
      "no-bound", "model every valid candidate (no lower-bound skipping; slower, same ranking)")(
      "force", "overwrite existing output files");
  add_max_bytes_option(o);
  return o;
}

// The combinations of options tune refuses (usage printed): a search or a merge, not both.
bool usage_ok(const po::variables_map& vm, const std::vector<std::string>& files, CommandIO& io) {
  const bool merge = vm.count("merge") > 0;
  const std::size_t top = vm["top"].as<std::size_t>();
  const std::size_t run_k = vm["run-top"].as<std::size_t>();
  if (merge == (vm.count("einsum") > 0) || (merge && files.empty()) ||
      (!merge && (!files.empty() || !vm.count("sizes") || !vm.count("dtype")))) {
    io.err << "tujit tune: give --einsum, --sizes and --dtype, or --merge with shard JSON files\n"
           << kUsage;
    return false;
  }
  if (top == 0 || run_k > top) {
    io.err << "tujit tune: --top must be at least 1 and --run-top at most --top\n" << kUsage;
    return false;
  }
  if (vm.count("budget") && !(vm["budget"].as<double>() > 0)) {
    io.err << "tujit tune: --budget is a positive number of seconds\n" << kUsage;
    return false;
  }
  if (merge && (vm.count("shard") || run_k > 0 || vm.count("budget"))) {
    io.err << "tujit tune: --merge takes no --shard, --budget or --run-top\n" << kUsage;
    return false;
  }
  return true;
}

// The search of --einsum / --sizes / --dtype, ranked into `report`; `interrupted_by` is the
// signal that stopped it (0: none). An exit status when there is no report to print.
std::optional<int> search(const po::variables_map& vm, unsigned threads, std::uint64_t max_bytes,
                          tune::Report& report, int& interrupted_by, CommandIO& io) {
  const std::size_t top = vm["top"].as<std::size_t>();
  auto problem = tune::make_problem(vm["einsum"].as<std::string>(), vm["sizes"].as<std::string>(),
                                    vm["dtype"].as<std::string>());
  if (!problem) return report_all(io, problem.diagnostics(), nullptr, kExitUserError);
  if (auto d = tune::problem_size_error(*problem, max_bytes)) {
    cli::report(io, *d);
    return kExitUserError;
  }
  tune::TuneOptions options;
  options.top = top;
  options.threads = threads;
  options.bound = vm.count("no-bound") == 0;
  if (vm.count("budget")) options.budget_seconds = vm["budget"].as<double>();
  if (vm.count("shard")) {
    auto s = bench::parse_shard(vm["shard"].as<std::string>());
    if (!s) return report_all(io, s.diagnostics(), nullptr, kExitUsage);
    options.shard_index = s->index;
    options.shard_count = s->count;
  }
  bench::ProgressBar bar(io.err, "tujit tune");
  options.progress = [&bar](std::uint64_t done, std::uint64_t total) {
    bar.update(done, total, "");
  };
  const runtime::io::GracefulStop graceful;
  options.stop_requested = [] { return runtime::io::stop_requested() != 0; };
  const tune::TuneResult result = tune::tune(*problem, options);
  interrupted_by = runtime::io::stop_requested();
  if (!result.internal_errors.empty()) {
    io.err << "tujit tune: internal error (this is a bug in tujit): "
           << result.internal_errors.front() << " (" << result.internal_errors.size() << " such)\n";
    return kExitInternal;
  }
  auto made =
      tune::make_report(*problem, result, top, options.shard_index, options.shard_count, max_bytes);
  if (!made && is_size_limit(made.diagnostics()))
    return report_all(io, made.diagnostics(), nullptr, kExitUserError);
  if (!made) {
    report_all(io, made.diagnostics(), nullptr, kExitInternal);
    io.err << "tujit tune: internal error (this is a bug in tujit): a ranked kernel's spec "
              "does not reproduce it\n";
    return kExitInternal;
  }
  report = std::move(*made);
  return std::nullopt;
}

// E-TUNE-005: every candidate was refused.
void report_nothing_fits(const tune::Report& report, CommandIO& io) {
  Diagnostic d = make_error(
      "E-TUNE-005",
      fmt::format("no kernel of `{}` with {} ({}) fits the Tensor Unit{}", report.einsum,
                  report.sizes, report.dtype,
                  report.complete ? "" : " among the candidates searched"),
      std::nullopt,
      {"every candidate was refused; the counts by rule above say which rules, docs/errors.md "
       "what they mean"});
  d.stage = "tune";
  cli::report(io, d);
}

// --emit, --csv and --plot; false when one could not be written (reported).
bool write_outputs(const po::variables_map& vm, const tune::Report& report, CommandIO& io) {
  const bool force = vm.count("force") > 0;
  bool written = true;
  if (vm.count("emit") && !report.best.empty())
    written = write_output(vm["emit"].as<std::string>(), report.best.front().spec, force, io);
  if (vm.count("csv"))
    written =
        write_output(vm["csv"].as<std::string>(), tune::report_csv(report), force, io) && written;
  if (vm.count("plot")) {
    auto drawn = tune::write_tune_plot(report, vm["plot"].as<std::string>(), force);
    if (!drawn) {
      report_all(io, drawn.diagnostics(), nullptr, kExitUsage);
      written = false;
    }
  }
  return written;
}

} // namespace

int run_tune(const std::vector<std::string>& args, CommandIO& io) {
  const po::options_description o = tune_options();
  po::variables_map vm;
  if (auto rc = parse_command_line("tune", args, o, "file", kUsage, io, vm)) return *rc;
  if (vm.count("help")) {
    io.out << kUsage << "\n" << kDescription << "\n" << o;
    note_help_table(o, io);
    return kExitOk;
  }
  const bool merge = vm.count("merge") > 0, json = vm.count("json") > 0;
  const std::vector<std::string> files =
      vm.count("file") ? vm["file"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const std::size_t top = vm["top"].as<std::size_t>();
  const std::size_t run_k = vm["run-top"].as<std::size_t>();
  if (!usage_ok(vm, files, io)) return kExitUsage;
  const auto threads = parse_thread_count(vm["threads"].as<std::string>());
  if (!threads) {
    io.err << "tujit tune: " << thread_count_error(vm["threads"].as<std::string>()) << "\n";
    return kExitUsage;
  }
  const auto max_bytes = max_bytes_option(vm, "tune", io);
  if (!max_bytes) return kExitUsage;
  if (auto rc = check_output_options(vm, {"csv", "plot", "emit"}, "tune", io)) return *rc;

  tune::Report report;
  int interrupted_by = 0;
  if (merge) {
    auto merged = tune::merge_reports(files);
    if (!merged) return report_all(io, merged.diagnostics(), nullptr, kExitUsage);
    report = std::move(*merged);
    if (report.best.size() > top) report.best.resize(top);
  } else if (auto rc = search(vm, *threads, *max_bytes, report, interrupted_by, io)) {
    return *rc;
  }

  std::ostringstream text;
  text << tune::report_text(report);
  nlohmann::ordered_json doc = tune::report_json(report);
  int status = kExitOk;
  if (report.best.empty()) {
    report_nothing_fits(report, io);
    status = kExitUserError;
  } else if (run_k > 0 && interrupted_by == 0) {
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    status = run_top(report, run_k, *threads, vm["seed"].as<std::uint64_t>(), *max_bytes, &runs,
                     text, io);
    doc["runs"] = runs;
  }
  (json ? io.err : io.out) << text.str();
  if (json) io.out << doc.dump(2) << "\n";
  if (!write_outputs(vm, report, io) && status == kExitOk) status = kExitUsage;
  if (interrupted_by != 0) {
    io.err << "tujit tune: stopped by signal " << interrupted_by
           << "; the ranking covers the candidates searched\n";
    return 128 + interrupted_by;
  }
  return status;
}

} // namespace tujit::cli
