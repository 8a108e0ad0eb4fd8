// `tujit bench (FILE… | --sweep SWEEP [--shard I/N] | --merge JSON…) [--repetitions N]
// [--json PATH] [--csv PATH] [--plot PATH.svg] [--threads N] [--force]` (docs/cli.md §8):
// Google Benchmark runs each kernel on the JIT, the reference interpreter and OpenBLAS sgemm in
// this process, next to the machine's measured FMA peak; the report states ratios, both cycle
// models, compile times and peak RSS. Output files are written atomically and never replace an
// existing file without --force.
#include "harness/bench/bench_plot.h"
#include "harness/bench/bench_report.h"
#include "harness/bench/bench_session.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"
#include "runtime/npy/npy.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

namespace tujit::cli {

namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "usage: tujit bench FILE... [--kernel NAME] [options]\n"
    "       tujit bench --sweep SWEEP.toml [--shard I/N] [options]\n"
    "       tujit bench --merge SHARD.json... --json OUT.json [--csv PATH] [--plot PATH.svg]\n";

void print_diagnostics(const Diagnostics& ds, const std::string& source, CommandIO& io) {
  std::optional<SourceBuffer> buffer;
  if (!source.empty()) {
    std::ifstream in(source, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (in) buffer.emplace(source, s.str());
  }
  for (const auto& d : ds) io.err << render(d, buffer ? &*buffer : nullptr);
}

// Writes `text` to `path` ("-" = stdout) atomically; false (diagnostic printed) on failure.
bool write_output(const std::string& path, const std::string& text, bool force, CommandIO& io) {
  if (path == "-") {
    io.out << text;
    return true;
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  if (auto d = runtime::write_file_atomically(path, std::span(bytes, text.size()), force)) {
    io.err << render(*d, nullptr);
    if (!force) io.err << "(use --force to overwrite it)\n";
    return false;
  }
  return true;
}

} // namespace

int run_bench(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description o("options");
  o.add_options()("help,h", "this help")("kernel", po::value<std::string>(),
                                         "benchmark only the kernel NAME of each FILE")(
      "sweep", po::value<std::string>(), "expand, verify and benchmark a TOML sweep file")(
      "shard", po::value<std::string>(),
      "run only shard I of N of the sweep's points (0 <= I < N; point p is in shard p % N)")(
      "merge", "join the --json outputs of shards (the FILEs) into one report")(
      "repetitions", po::value<unsigned>()->default_value(3), "Google Benchmark repetitions")(
      "min-time", po::value<double>()->default_value(0.2), "minimum seconds per repetition")(
      "threads", po::value<unsigned>()->default_value(1),
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
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(o).add(hidden);
  po::positional_options_description pos;
  pos.add("file", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    io.err << "tujit bench: " << e.what() << "\n" << kUsage;
    return kExitUsage;
  }
  if (vm.count("help")) {
    io.out << kUsage
           << "\nRuns each kernel's contraction chain under Google Benchmark on the JIT and the\n"
              "reference interpreter, with OpenBLAS sgemm on the same logical GEMM and the\n"
              "machine's measured FMA peak as baselines; reports min/median/max MAC/s, the\n"
              "ratios, compile times (cold / object cache), analytic and trace cycles, MAC\n"
              "utilisation and peak RSS. A sweep's points are ranked by modelled cycles;\n"
              "points the verifiers refuse are listed with their diagnostic.\n\n"
           << o;
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
  // Refuse existing outputs before spending minutes measuring.
  for (const char* opt : {"json", "csv", "plot"}) {
    if (!vm.count(opt) || force) continue;
    const std::string path = vm[opt].as<std::string>();
    std::error_code ec;
    if (path != "-" && std::filesystem::exists(path, ec)) {
      io.err << render(
          make_error("E-IO-002",
                     fmt::format("--{} '{}' exists already; not overwritten", opt, path),
                     std::nullopt, {"pass --force to overwrite it"}),
          nullptr);
      return kExitUsage;
    }
  }

  bench::BenchReport report;
  nlohmann::ordered_json doc;
  std::string title;
  if (merge) {
    std::vector<std::string> notes;
    auto merged = bench::merge_reports(files, &report, &notes);
    if (!merged) {
      print_diagnostics(merged.diagnostics(), "", io);
      return kExitUsage;
    }
    for (const auto& n : notes) io.err << "tujit bench --merge: note: " << n << "\n";
    doc = std::move(*merged);
    title = fmt::format("tujit bench: {} merged shard(s){}", files.size(),
                        report.sweep ? " of sweep " + report.sweep->name : "");
  } else {
    bench::BenchOptions options;
    options.repetitions = std::max(1u, vm["repetitions"].as<unsigned>());
    options.min_time_s = vm["min-time"].as<double>();
    options.threads = vm["threads"].as<unsigned>();
    options.seed = vm["seed"].as<std::uint64_t>();
    options.cpu_time = vm.count("cpu-time") > 0;
    options.interp_mac_cap = std::max<std::uint64_t>(1, vm["interp-mac-cap"].as<std::uint64_t>());
    bench::ProgressBar bar(io.err, "tujit bench");
    options.progress = [&bar](std::uint64_t done, std::uint64_t total, const std::string& what) {
      bar.update(done, total, what);
    };
    bench::Session session;
    if (sweep) {
      auto spec = bench::load_sweep(vm["sweep"].as<std::string>());
      if (!spec) {
        print_diagnostics(spec.diagnostics(), "", io);
        return spec.diagnostics().front().code == "E-IO-001" ? kExitUsage : kExitUserError;
      }
      bench::Shard shard;
      if (vm.count("shard")) {
        auto s = bench::parse_shard(vm["shard"].as<std::string>());
        if (!s) {
          print_diagnostics(s.diagnostics(), "", io);
          return kExitUsage;
        }
        shard = *s;
      }
      session = bench::bench_sweep(*spec, shard, options);
      title =
          fmt::format("tujit bench --sweep {} (shard {}/{})", spec->name, shard.index, shard.count);
    } else {
      std::optional<std::string> kernel;
      if (vm.count("kernel")) kernel = vm["kernel"].as<std::string>();
      std::string failed;
      auto s = bench::bench_files(files, kernel, options, &failed);
      if (!s) {
        print_diagnostics(s.diagnostics(), failed, io);
        return kExitUserError;
      }
      session = std::move(*s);
      title = "tujit bench " + fmt::format("{}", fmt::join(files, " "));
    }
    report = std::move(session.report);
    doc = bench::report_json(report, session.gbench);
  }
  title += fmt::format(" — {}, load {}", report.host, report.load_average);

  const bool json_stdout = vm.count("json") && vm["json"].as<std::string>() == "-";
  (json_stdout ? io.err : io.out) << bench::report_text(report);
  bool ok = true;
  if (vm.count("json"))
    ok = write_output(vm["json"].as<std::string>(), doc.dump(2) + "\n", force, io) && ok;
  if (vm.count("csv"))
    ok = write_output(vm["csv"].as<std::string>(), bench::report_csv(report), force, io) && ok;
  if (vm.count("plot")) {
    auto drawn = bench::write_bench_plot(report, title, vm["plot"].as<std::string>(), force);
    if (!drawn) {
      print_diagnostics(drawn.diagnostics(), "", io);
      ok = false;
    }
  }
  return ok ? kExitOk : kExitUsage;
}

} // namespace tujit::cli
