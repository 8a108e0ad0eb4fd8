// `tujit bench (FILE… | --sweep SWEEP [--shard I/N] | --merge JSON…) [--repetitions N]
// [--json PATH] [--csv PATH] [--plot PATH.svg] [--threads N] [--max-bytes SIZE] [--force]`
// (docs/cli.md §8): Google Benchmark runs each kernel on the JIT, the reference interpreter and
// OpenBLAS sgemm in this process, next to the machine's measured FMA peak; the report states
// ratios, both cycle models, compile times and peak RSS. Kernels stream (bench_session.h): the
// --json document grows as they are measured; SIGINT / SIGTERM stop the run after the current
// kernel and every output still gets what was measured (exit 128 + the signal). Output paths
// are checked before any work and written through runtime/io/output_file.h.
#include "harness/bench/bench_json_stream.h"
#include "harness/bench/bench_plot.h"
#include "harness/bench/bench_report.h"
#include "harness/bench/bench_session.h"
#include "harness/cli/command.h"
#include "harness/cli/command_line.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/kernel_size.h"
#include "harness/cli/option_values.h"
#include "ir/support/input_file.h"
#include "runtime/io/interrupt.h"
#include "runtime/io/output_file.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <ostream>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "usage: tujit bench FILE... [--kernel NAME] [options]\n"
    "       tujit bench --sweep SWEEP.toml [--shard I/N] [options]\n"
    "       tujit bench --merge SHARD.json... --json OUT.json [--csv PATH] [--plot PATH.svg]\n";

/// A usage or I/O problem (E-IO-*, a bad --shard or --merge input) is exit 2; the kernel's or
/// sweep's own errors, and a file over its size limit (E-LIMIT-004, docs/errors.md), are exit 1.
int status_of(const Diagnostics& ds) {
  const std::string& code = ds.front().code;
  return code.starts_with("E-IO-") || code == "E-BENCH-003" ? kExitUsage : kExitUserError;
}

/// Renders `ds`, against the spec file `source` when given.
int print_diagnostics(const Diagnostics& ds, const std::string& source, CommandIO& io) {
  std::optional<SourceBuffer> buffer;
  if (!source.empty())
    if (auto text = read_input_file(source, ir::kMaxSpecBytes, "kernel spec file"))
      buffer.emplace(source, std::move(*text));
  return report_all(io, ds, buffer ? &*buffer : nullptr, status_of(ds));
}

po::options_description bench_options() {
  po::options_description o("options");
  o.add_options()("help,h", "this help")("kernel", po::value<std::string>(),
                                         "benchmark only the kernel NAME of each FILE")(
      "sweep", po::value<std::string>(), "expand, verify and benchmark a TOML sweep file")(
      "shard", po::value<std::string>(),
      "run only shard I of N of the sweep's points (0 <= I < N; point p is in shard p % N)")(
      "merge", "join the --json outputs of shards (the FILEs) into one report")(
      "repetitions", po::value<unsigned>()->default_value(3), "Google Benchmark repetitions")(
      "min-time", po::value<double>()->default_value(0.2), "minimum seconds per repetition")(
      "threads", po::value<std::string>()->default_value("1"),
      "JIT worker threads (sgemm and the interpreter use one; 0 = every hardware thread)")(
      "seed", po::value<std::uint64_t>()->default_value(0), "seed of the random inputs")(
      "cpu-time", "rates over the process's CPU time instead of wall time (a shared machine)")(
      "interp-mac-cap", po::value<std::uint64_t>()->default_value(std::uint64_t{1} << 22),
      "the interpreter runs only as many slices as keep it under this many products per run")(
      "json", po::value<std::string>(),
      "write Google Benchmark's JSON plus the \"tujit\" summary to PATH (- = stdout)")(
      "csv", po::value<std::string>(), "write one CSV row per kernel / sweep point to PATH")(
      "plot", po::value<std::string>(), "draw MAC/s, ranking and cycle-model plots (gnuplot SVG)")(
      "force", "overwrite existing output files");
  add_max_bytes_option(o); // a sweep lists a point over it as invalid
  return o;
}

/// The output paths, each checked before any work: not an existing file without --force, not a
/// non-regular file ever, not one path for two outputs; only --json may be stdout.
bool check_outputs(const po::variables_map& vm, CommandIO& io) {
  for (const char* opt : {"csv", "plot"})
    if (vm.count(opt) && vm[opt].as<std::string>() == "-") {
      io.err << "tujit bench: only --json may be - (stdout)\n";
      return false;
    }
  return !check_output_options(vm, {"json", "csv", "plot"}, "bench", io);
}

/// The CSV, the plot and the text table of a finished (or interrupted) report.
bool write_reports(const bench::BenchReport& r, const std::string& title,
                   const po::variables_map& vm, bool force, CommandIO& io) {
  const bool json_stdout = vm.count("json") && vm["json"].as<std::string>() == "-";
  (json_stdout ? io.err : io.out) << bench::report_text(r);
  bool ok = true;
  if (vm.count("csv"))
    ok = write_output(vm["csv"].as<std::string>(), bench::report_csv(r), force, io) && ok;
  if (vm.count("plot")) {
    auto drawn = bench::write_bench_plot(r, title, vm["plot"].as<std::string>(), force);
    if (!drawn) {
      print_diagnostics(drawn.diagnostics(), "", io);
      ok = false;
    }
  }
  return ok;
}

int run_merge(const std::vector<std::string>& files, const po::variables_map& vm, bool force,
              CommandIO& io) {
  bench::BenchReport joined;
  std::vector<std::string> notes;
  auto merged = bench::merge_reports(files, &joined, &notes);
  if (!merged) return print_diagnostics(merged.diagnostics(), "", io);
  for (const auto& n : notes) io.err << "tujit bench --merge: note: " << n << "\n";
  const std::string title = fmt::format(
      "tujit bench: {} merged shard(s){} — {}, load {}", files.size(),
      joined.sweep ? " of sweep " + joined.sweep->name : "", joined.host, joined.load_average);
  bool ok = true;
  if (vm.count("json"))
    ok = write_output(vm["json"].as<std::string>(), merged->dump(2) + "\n", force, io);
  ok = write_reports(joined, title, vm, force, io) && ok;
  return ok ? kExitOk : kExitUsage;
}

/// The options of a measuring run, validated (exit status when one is bad).
std::optional<int> measuring_options(const po::variables_map& vm, bench::BenchOptions& options,
                                     CommandIO& io) {
  const auto threads = parse_thread_count(vm["threads"].as<std::string>());
  if (!threads) {
    io.err << "tujit bench: " << thread_count_error(vm["threads"].as<std::string>()) << "\n";
    return kExitUsage;
  }
  const auto max_bytes = max_bytes_option(vm, "bench", io);
  if (!max_bytes) return kExitUsage;
  options.repetitions = std::max(1u, vm["repetitions"].as<unsigned>());
  options.min_time_s = vm["min-time"].as<double>();
  options.threads = *threads;
  options.max_bytes = *max_bytes;
  options.seed = vm["seed"].as<std::uint64_t>();
  options.cpu_time = vm.count("cpu-time") > 0;
  options.interp_mac_cap = std::max<std::uint64_t>(1, vm["interp-mac-cap"].as<std::uint64_t>());
  return std::nullopt;
}

/// Where the streamed --json document goes: a file through the writer, stdout, or nowhere.
struct JsonTarget {
  std::optional<runtime::io::OutputFile> file;
  bool to_stdout = false;
};

int run_measure(const std::vector<std::string>& files, const po::variables_map& vm, bool force,
                CommandIO& io) {
  // From here the first SIGINT / SIGTERM ends the run after the current kernel, keeping the
  // results (runtime/io/interrupt.h).
  runtime::io::clear_stop_request(); // a request that came before this command is not for it
  runtime::io::GracefulStop graceful;
  bench::BenchOptions options;
  if (auto rc = measuring_options(vm, options, io)) return *rc;
  std::optional<bench::SweepSpec> spec;
  bench::Shard shard;
  if (vm.count("sweep")) {
    auto s = bench::load_sweep(vm["sweep"].as<std::string>());
    if (!s) return print_diagnostics(s.diagnostics(), "", io);
    spec = std::move(*s);
    if (vm.count("shard")) {
      auto sh = bench::parse_shard(vm["shard"].as<std::string>());
      if (!sh) return print_diagnostics(sh.diagnostics(), "", io);
      shard = *sh;
    }
  }
  JsonTarget json;
  if (vm.count("json")) {
    const std::string path = vm["json"].as<std::string>();
    json.to_stdout = path == "-";
    if (!json.to_stdout) {
      auto f = runtime::io::OutputFile::create(path, force);
      if (!f) return print_diagnostics(f.diagnostics(), "", io);
      json.file.emplace(std::move(*f));
    }
  }
  bench::JsonReportStream stream([&](std::string_view text) -> std::optional<Diagnostic> {
    if (json.file) return json.file->write(text);
    if (json.to_stdout) io.out << text << std::flush;
    return std::nullopt;
  });
  bench::ProgressBar bar(io.err, "tujit bench");
  options.progress = [&bar](std::uint64_t done, std::uint64_t total, const std::string& what) {
    bar.update(done, total, what);
  };

  bench::BenchReport result;
  std::string title;
  if (spec) {
    result = bench::bench_sweep(*spec, shard, options, stream.sink());
    title =
        fmt::format("tujit bench --sweep {} (shard {}/{})", spec->name, shard.index, shard.count);
  } else {
    std::optional<std::string> kernel;
    if (vm.count("kernel")) kernel = vm["kernel"].as<std::string>();
    std::string failed;
    Diagnostics errors;
    result = bench::bench_files(files, kernel, options, stream.sink(), &errors, &failed);
    if (!errors.empty()) {
      // No output file of a failed run; stdout still gets a whole document.
      json.file.reset();
      if (json.to_stdout) {
        nlohmann::json ds = nlohmann::json::array();
        for (const auto& d : errors) ds.push_back(diagnostic_json(d, nullptr));
        stream.finish(result, ds);
      }
      return print_diagnostics(errors, failed, io);
    }
    title = "tujit bench " + fmt::format("{}", fmt::join(files, " "));
  }
  title += fmt::format(" — {}, load {}", result.host, result.load_average);

  bool ok = stream.finish(result);
  if (stream.error()) {
    report(io, *stream.error()); // the temporary is removed with json.file
    ok = false;
  } else if (json.file) {
    if (auto d = json.file->commit()) {
      report(io, *d);
      ok = false;
    }
  }
  ok = write_reports(result, title, vm, force, io) && ok;
  if (result.interrupted_by) return 128 + result.interrupted_by;
  return ok ? kExitOk : kExitUsage;
}

} // namespace

int run_bench(const std::vector<std::string>& args, CommandIO& io) {
  const po::options_description o = bench_options();
  po::variables_map vm;
  if (auto rc = parse_command_line("bench", args, o, "file", kUsage, io, vm)) return *rc;
  if (vm.count("help")) {
    io.out << kUsage
           << "\nRuns each kernel's contraction chain under Google Benchmark on the JIT and the\n"
              "reference interpreter, with OpenBLAS sgemm on the same logical GEMM and the\n"
              "machine's measured FMA peak as baselines; reports min/median/max MAC/s, the\n"
              "ratios, compile times (cold / object cache), analytic and trace cycles, MAC\n"
              "utilisation and peak RSS. A sweep's points are ranked by modelled cycles;\n"
              "points the verifiers refuse are listed with their diagnostic. SIGINT or SIGTERM\n"
              "stop after the current kernel and keep what was measured (exit 128 + signal).\n"
              "A kernel with a Vector Engine pass and no contraction is timed in output\n"
              "elements per second instead of MACs (docs/cli.md §8).\n\n"
           << o;
    note_help_table(o, io);
    return kExitOk;
  }
  const std::vector<std::string> files =
      vm.count("file") ? vm["file"].as<std::vector<std::string>>() : std::vector<std::string>{};
  const bool merge = vm.count("merge") > 0, sweep = vm.count("sweep") > 0;
  const bool force = vm.count("force") > 0;
  if ((sweep && (merge || !files.empty())) || (!sweep && files.empty())) {
    io.err << "tujit bench: give spec FILEs, or --sweep SWEEP, or --merge with shard JSON files\n"
           << kUsage;
    return kExitUsage;
  }
  if (vm.count("shard") && !sweep) {
    io.err << "tujit bench: --shard needs --sweep\n" << kUsage;
    return kExitUsage;
  }
  // Every output path before spending minutes measuring.
  if (!check_outputs(vm, io)) return kExitUsage;
  return merge ? run_merge(files, vm, force, io) : run_measure(files, vm, force, io);
}

} // namespace tujit::cli
