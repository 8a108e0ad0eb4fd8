// `tujit run FILE [--kernel NAME] [--engine jit|interp] [--threads N] [--seed N]
// [--input NAME=PATH.npy]… [--output PATH.npy] [--force] [--verify] [--no-cache] [--json]
// [--expect PATH.npy [--rtol R] [--atol A]] [--save-inputs DIR] [--format …]`
// (docs/cli.md "tujit run", docs/ci.md): runs a kernel on seeded random or given inputs with the
// JIT (default) or the reference interpreter through the run pipeline (harness/run/
// run_pipeline.h), prints the output's digest, optionally writes it as .npy; --verify runs the
// other engine (bit for bit) and the float64 oracle; --expect compares the output with a golden
// array, --save-inputs keeps the inputs.
#include "harness/cli/check_report.h"
#include "harness/cli/ci_report.h"
#include "harness/cli/command.h"
#include "harness/cli/diagnostic_json.h"
#include "harness/cli/option_values.h"
#include "harness/cli/run_ci.h"
#include "harness/cli/run_limits.h"
#include "harness/cycles/cycle_report.h"
#include "harness/run/run_footprint.h"
#include "harness/run/run_pipeline.h"
#include "harness/run/run_plan.h"
#include "ir/seq/operand_streams.h"
#include "runtime/exec/process_usage.h"
#include "runtime/io/output_file.h"
#include "runtime/npy/npy.h"
#include "runtime/npy/npy_convert.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <ostream>

namespace tujit::cli {

namespace po = boost::program_options;

namespace {

std::string param_names(const std::vector<const ir::KernelParam*>& ps) {
  std::string s;
  for (const auto* p : ps) s += (s.empty() ? "" : ", ") + p->name;
  return s;
}

using run::Engine;
using run::RunOutcome;
using run::RunRequest;

nlohmann::ordered_json verify_json(const run::RunVerification& r, std::uint64_t poisoned) {
  nlohmann::ordered_json v;
  if (r.engines_not_compared) {
    v["engines_bit_exact"] = nullptr;
    v["engines_not_compared"] = *r.engines_not_compared;
  } else {
    v["engines_bit_exact"] = r.engines_bit_exact;
  }
  v["other_engine"] = r.other_engine;
  if (!r.engines_bit_exact) v["engine_difference"] = r.engine_difference;
  if (r.oracle_not_applicable) {
    v["oracle_max_abs_err"] = nullptr;
    v["oracle_ok"] = nullptr;
    v["oracle_not_applicable"] = *r.oracle_not_applicable;
  } else {
    v["oracle_max_abs_err"] = r.oracle_max_abs_err;
    v["oracle_ok"] = r.oracle_ok;
  }
  v["poisoned_outputs"] = poisoned;
  return v;
}

/// time_ms: "parse" = reading, typing and checking the file (load_checked), "inputs" = making the
/// inputs (seeded random over their tiles, or the given contents), "lower" = the chain's
/// verifiers and the lowering to the Sequencer IR with its address streams, "compile" = the JIT
/// to native code (0 for the interpreter), "run" = the engine from the logical inputs into the
/// logical output, "verify" = --verify's second engine and float64 oracle.
/// `cycle_doc`: the cycle counts of a contraction run (null: none).
nlohmann::ordered_json run_json(const ir::Kernel& kernel, const RunOutcome& r, double parse_ms,
                                nlohmann::ordered_json cycle_doc) {
  nlohmann::ordered_json shape = nlohmann::ordered_json::array();
  for (auto n : r.output.shape()) shape.push_back(n);
  nlohmann::ordered_json j = {{"kernel", kernel.name},
                              {"engine", r.engine},
                              {"threads", r.threads},
                              {"output",
                               {{"axes", r.output_axes},
                                {"shape", shape},
                                {"dtype", std::string(ir::name(r.output.dtype))},
                                {"sha256", r.sha256}}}};
  if (r.verify) j["verify"] = verify_json(*r.verify, r.poisoned_outputs);
  if (!r.earlier.empty()) {
    nlohmann::ordered_json commands = nlohmann::ordered_json::array();
    for (const run::CommandOutcome& c : r.earlier) {
      nlohmann::ordered_json e = {{"value", c.value},
                                  {"output", c.summary},
                                  {"sha256", c.sha256},
                                  {"simulated_macs", c.simulated_macs},
                                  {"run_ms", c.run_ms}};
      if (c.verify) e["verify"] = verify_json(*c.verify, c.poisoned_outputs);
      commands.push_back(std::move(e));
    }
    j["earlier_commands"] = std::move(commands);
  }
  nlohmann::ordered_json& times = j["time_ms"];
  times["parse"] = parse_ms;
  times["inputs"] = r.inputs_ms;
  times["lower"] = r.lower_ms;
  times["compile"] = r.compile_ms;
  times["run"] = r.run_ms;
  times["verify"] = r.verify_ms;
  if (r.engine == "jit") j["compile_cache_hit"] = r.cache_hit;
  j["simulated_macs"] = r.simulated_macs;
  // The whole process so far (runtime/exec/process_usage.h): what a run really costs.
  j["process"] = {{"cpu_ms", runtime::process_cpu_ms()}, {"peak_rss_mib", runtime::peak_rss_mib()}};
  if (!cycle_doc.is_null()) j["cycles"] = std::move(cycle_doc);
  return j;
}

} // namespace

namespace {

po::options_description run_options() {
  po::options_description extra = format_option();
  extra.add_options()("engine", po::value<std::string>()->default_value("jit"),
                      "jit | interp (the reference interpreter)")(
      "threads", po::value<std::string>()->default_value("0"),
      "JIT worker threads (0 = every hardware thread)")(
      "seed", po::value<std::uint64_t>()->default_value(0), "seed of the random inputs")(
      "input", po::value<std::vector<std::string>>(),
      "NAME=PATH.npy: a parameter's contents (values, or raw codes: <u2 bf16, |u1 f8, packed "
      "|u1 i4, <f4 f32 bit for bit; docs/cli.md §6.1)")(
      "float-input-rounding", po::value<std::string>()->default_value("nearest"),
      "how float values become bf16 / f8 inputs: nearest (round to nearest even, subnormals "
      "kept) or device (the chip's converters: flush, saturate, f8e5m2 ties away)")(
      "output", po::value<std::string>(), "write the output tensor to PATH.npy")(
      "raw-output", "write bf16 / f8 outputs as their codes (<u2 / |u1) instead of <f4 values")(
      "force", "overwrite an existing --output file")(
      "verify", "run the other engine (bit for bit) and the float64 oracle")(
      "no-cache", "compile even when the JIT object cache holds the kernel")(
      "ftz-results",
      "flush subnormal f32 products and sums to signed zero (docs/contraction.md §9.3)")(
      "max-bytes", po::value<std::string>()->default_value("4GiB"),
      "refuse a run whose tensors and images would exceed this many bytes (e.g. 512M)")(
      "timeout", po::value<std::string>()->default_value("0"),
      "stop a run that takes longer than this many seconds (0 = no limit)")(
      "expect", po::value<std::string>(),
      "fail (exit 1) unless the output equals the array in PATH.npy bit for bit")(
      "rtol", po::value<double>(), "with --expect: relative tolerance (numpy.isclose)")(
      "atol", po::value<double>(), "with --expect: absolute tolerance (numpy.isclose)")(
      "save-inputs", po::value<std::string>(),
      "write each input the run uses to DIR/NAME.npy (--force overwrites)");
  return extra;
}

/// The run's options past parsing, each checked before any work (a usage error costs nothing).
struct RunArgs {
  Engine engine = Engine::Jit;
  unsigned threads = 0;
  runtime::NpyConvertOptions npy;
  std::uint64_t max_bytes = 0;
  std::chrono::milliseconds timeout{0};
  std::vector<std::pair<std::string, std::string>> input_paths; // name → path
  std::optional<ExpectOptions> expect;
};

/// --input NAME=PATH.npy, each parameter at most once.
std::optional<int> read_input_paths(const po::variables_map& vm, CommandIO& io, RunArgs& a) {
  if (!vm.count("input")) return std::nullopt;
  for (const auto& s : vm["input"].as<std::vector<std::string>>()) {
    auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) {
      io.err << "tujit run: --input wants NAME=PATH.npy, got '" << s << "'\n";
      return kExitUsage;
    }
    const std::string name = s.substr(0, eq);
    for (const auto& [seen, path] : a.input_paths)
      if (seen == name) {
        io.err << "tujit run: --input gives '" << name << "' twice ('" << path << "' and '"
               << s.substr(eq + 1) << "'); give each parameter once\n";
        return kExitUsage;
      }
    a.input_paths.emplace_back(name, s.substr(eq + 1));
  }
  return std::nullopt;
}

std::optional<int> read_run_args(const po::variables_map& vm, CommandIO& io, RunArgs& a) {
  if (auto rc = read_expect_options(vm, io, a.expect)) return *rc;
  const std::string engine = vm["engine"].as<std::string>();
  if (engine != "interp" && engine != "jit") {
    io.err << "tujit run: unknown engine '" << engine << "' (engines: jit, interp)\n";
    return kExitUsage;
  }
  a.engine = engine == "jit" ? Engine::Jit : Engine::Interp;
  const std::string rounding = vm["float-input-rounding"].as<std::string>();
  if (rounding != "nearest" && rounding != "device") {
    io.err << "tujit run: --float-input-rounding is nearest or device, not '" << rounding << "'\n";
    return kExitUsage;
  }
  a.npy.rounding = rounding == "device" ? runtime::FloatInputRounding::Device
                                        : runtime::FloatInputRounding::Nearest;
  const auto max_bytes = parse_byte_size(vm["max-bytes"].as<std::string>());
  const auto timeout = parse_timeout(vm["timeout"].as<std::string>());
  if (!max_bytes || !timeout) {
    io.err << "tujit run: "
           << (!max_bytes ? "--max-bytes wants a size such as 4GiB or 512M"
                          : "--timeout wants a number of seconds (0 = none)")
           << "\n";
    return kExitUsage;
  }
  a.max_bytes = *max_bytes;
  a.timeout = *timeout;
  const auto threads = parse_thread_count(vm["threads"].as<std::string>());
  if (!threads) {
    io.err << "tujit run: " << thread_count_error(vm["threads"].as<std::string>()) << "\n";
    return kExitUsage;
  }
  a.threads = *threads;
  if (auto rc = read_input_paths(vm, io, a)) return *rc;
  // The output path before the work, not after it (runtime/io/output_file.h).
  return check_output_option(vm, "output", io);
}

/// The contents of each --input, as the parameter's whole logical tensor or the tile the kernel
/// reads (ir::seq::input_tiles), into req.given. An exit status on failure.
std::optional<int> read_given_inputs(const ir::SpecFile& file, const ir::Kernel& kernel,
                                     const run::RunPlan& plan, const RunArgs& a, RunRequest& req,
                                     CommandIO& io, Diagnostics& failed) {
  const auto inputs = plan.inputs();
  std::optional<ir::seq::InputShapes>& tiles = req.tiles;
  for (const auto& [name, path] : a.input_paths) {
    const ir::KernelParam* param = nullptr;
    for (const auto* p : inputs)
      if (p->name == name) param = p;
    if (!param) {
      io.err << "tujit run: kernel '" << kernel.name << "' has no input parameter '" << name
             << "'; its inputs are: " << param_names(inputs) << "\n";
      return kExitUsage;
    }
    auto npy = runtime::read_npy_file(path);
    if (!npy) return report_all(io, npy.diagnostics(), nullptr, kExitUsage);
    const auto whole = ir::seq::type_axes(*param->tensor, file.axes);
    auto t = runtime::tensor_from_npy(*npy, param->tensor->dtype, whole, name, a.npy);
    // A tile kernel also takes just the tile it reads (ir::seq::input_tiles).
    if (!tiles) {
      auto found = plan.input_tiles(file);
      if (!found) {
        failed = found.diagnostics();
        return kExitUserError;
      }
      tiles = std::move(*found);
    }
    const std::vector<ir::Axis>& tile = tiles->at(name);
    if (!t && tile != whole)
      if (auto tt = runtime::tensor_from_npy(*npy, param->tensor->dtype, tile, name, a.npy))
        t = std::move(tt);
    if (!t) {
      report_all(io, t.diagnostics(), nullptr, kExitUserError);
      if (tile != whole)
        io.err << "tujit run: '" << name << "' is read over the tile " << runtime::axes_text(tile)
               << " of " << runtime::axes_text(whole) << "; an array of either shape is taken\n";
      return kExitUserError;
    }
    req.given[name] = std::move(*t);
  }
  return std::nullopt;
}

/// Arms `watchdog` to end the process with a timeout report when the run outlasts --timeout
/// (0 = none).
void arm_watchdog(const RunArgs& a, const ir::Kernel& kernel, bool json, CommandIO& io,
                  std::optional<Watchdog>& watchdog) {
  if (a.timeout.count() <= 0) return;
  Watchdog::Action on_expire = exit_on_timeout(kernel.name, a.timeout, io.err);
  if (json) // the JSON document first: the action ends the process
    on_expire = [&io, name = kernel.name, limit = a.timeout, then = std::move(on_expire)] {
      nlohmann::json ds = nlohmann::json::array();
      ds.push_back(diagnostic_json(timeout_diagnostic(name, limit), nullptr));
      io.out << failure_document("run", kExitUserError, ds).dump(2) << "\n" << std::flush;
      then();
    };
  watchdog.emplace(a.timeout, std::move(on_expire));
}

RunRequest run_request(const po::variables_map& vm, const RunArgs& a) {
  RunRequest req;
  req.engine = a.engine;
  req.threads = a.threads;
  req.jit.use_cache = vm.count("no-cache") == 0;
  req.ftz_results = vm.count("ftz-results") > 0;
  req.seed = vm["seed"].as<std::uint64_t>();
  req.verify = vm.count("verify") > 0;
  return req;
}

/// --output PATH.npy (values, or codes with --raw-output); an exit status when it cannot be
/// written.
std::optional<int> write_output(const po::variables_map& vm, const runtime::LogicalTensor& output,
                                CommandIO& io) {
  if (!vm.count("output")) return std::nullopt;
  runtime::NpyConvertOptions options;
  options.raw_bits = vm.count("raw-output") > 0;
  const auto bytes = runtime::serialize_npy(runtime::npy_from_tensor(output, options));
  if (auto d =
          runtime::io::write_file(vm["output"].as<std::string>(), bytes, vm.count("force") > 0)) {
    report(io, *d);
    return kExitUsage;
  }
  return std::nullopt;
}

/// Engines that disagree are a bug in tujit (exit 3); an oracle or --expect mismatch is a failed
/// run; poison alone is reported, not an error (docs/design.md §5.4).
int run_status(const RunOutcome& r, const std::optional<ExpectComparison>& compared) {
  int status = kExitOk;
  if (r.verify && !r.verify->oracle_not_applicable && !r.verify->oracle_ok) status = kExitUserError;
  if (r.verify && !r.verify->engines_not_compared && !r.verify->engines_bit_exact)
    status = kExitInternal;
  if (compared && !compared->ok() && status == kExitOk) status = kExitUserError;
  return status;
}

void print_verdict(std::ostream& out, std::string_view indent, const std::string& engine,
                   const run::RunVerification& v) {
  if (v.engines_not_compared)
    out << indent << *v.engines_not_compared << "\n";
  else
    out << fmt::format("{}{} vs {}: {}\n", indent, engine, v.other_engine,
                       v.engines_bit_exact ? "bit-exact"
                                           : "DIFFER (a tujit bug): " + v.engine_difference);
  if (v.oracle_not_applicable)
    out << indent << *v.oracle_not_applicable << " (no oracle check)\n";
  else
    out << fmt::format("{}oracle: {} (max abs err {:g}, {} mismatches{})\n", indent,
                       v.oracle_ok ? "ok" : "MISMATCH", v.oracle_max_abs_err, v.mismatches,
                       v.worst.empty() ? "" : ", worst at " + v.worst);
}

void print_run_text(std::ostream& out, const ir::Kernel& kernel, const RunOutcome& r,
                    const std::optional<ExpectComparison>& compared,
                    const std::vector<SavedInput>& saved) {
  std::string shape;
  for (auto n : r.output.shape()) shape += (shape.empty() ? "" : ", ") + std::to_string(n);
  std::string axes;
  for (const auto& a : r.output_axes) axes += (axes.empty() ? "" : ", ") + a;
  out << fmt::format("{}: ran on {}; output [{}] = [{}] {}, sha256 {}\n", kernel.name, r.engine,
                     axes, shape, ir::name(r.output.dtype), r.sha256);
  out << fmt::format("  {} simulated MACs, {} poisoned outputs, run {:.3f} ms", r.simulated_macs,
                     r.poisoned_outputs, r.run_ms);
  if (r.engine == "jit")
    out << fmt::format(" on {} thread(s), compile {:.1f} ms{}", r.threads, r.compile_ms,
                       r.cache_hit ? " (object cache hit)" : "");
  out << "\n";
  if (r.verify) print_verdict(out, "  ", r.engine, *r.verify);
  for (const run::CommandOutcome& c : r.earlier) {
    out << fmt::format("  command `{}`: output {}, sha256 {}, {} simulated MACs, run {:.3f} ms\n",
                       c.value, c.summary, c.sha256, c.simulated_macs, c.run_ms);
    if (c.verify) print_verdict(out, "    ", r.engine, *c.verify);
  }
  if (compared) out << "  " << expect_text(*compared) << "\n";
  for (const auto& sv : saved) out << "  saved " << sv.name << " to " << sv.path << "\n";
}

} // namespace

int run_run(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description extra = run_options();
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc = parse_file_command(
          "run", "Runs a kernel on seeded random (or given) inputs.", args, io, opt, &extra,
          " [--engine jit|interp] [--threads N] [--seed N] "
          "[--input NAME=PATH.npy]... [--output PATH.npy] [--force] [--verify] "
          "[--expect PATH.npy [--rtol R] [--atol A]] [--save-inputs DIR] "
          "[--format FORMAT]",
          &vm))
    return *rc;
  report::ReportFormat format = report::ReportFormat::Text;
  if (auto rc = read_format("run", vm, opt.json, io, format)) return *rc;
  RunArgs a;
  if (auto rc = read_run_args(vm, io, a)) return *rc;

  KernelReport ci_report("run", format, io);
  auto t0 = std::chrono::steady_clock::now();
  CheckedSpec c;
  const ir::Kernel* picked = nullptr;
  if (auto rc = load_one_kernel("run", opt, io, c, &picked))
    return ci_report.finish(*rc, opt.file, nullptr, c.analysis ? &c.analysis->file.source : nullptr,
                            c.shown, true);
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const ir::SpecFile& file = c.analysis->file;
  const SourceBuffer& src = file.source;
  const ir::Kernel& kernel = *picked;
  auto stop = [&](int status, const Diagnostics& ds) {
    return ci_report.finish(status, opt.file, &kernel, &src, ds);
  };

  auto plan = run::plan_run(c.checked());
  if (!plan) return stop(kExitUserError, plan.diagnostics());
  // Limits before any allocation (docs/design.md §5.5): the footprint comes from the types alone.
  const bool verify = vm.count("verify") > 0;
  auto footprint = run::check_run_size(file, *plan, verify, a.max_bytes, !a.input_paths.empty());
  if (!footprint) return stop(kExitUserError, footprint.diagnostics());

  RunRequest req = run_request(vm, a);
  req.tiles = std::move(footprint->tiles);
  // The JSON document's cycle counts, from the program alone (docs/cli.md §7).
  nlohmann::ordered_json cycle_doc;
  if (opt.json && plan->result().ops.shape == ir::seq::RunShape::Contraction)
    req.on_lowered = [&](const ir::seq::RunProgram& p) {
      cycle_doc =
          cycles::cycle_summary_json(p.contraction().chain, cycles::cycle_options_for(c.checked()));
    };
  Diagnostics failed;
  if (auto rc = read_given_inputs(file, kernel, *plan, a, req, io, failed))
    return failed.empty() ? *rc : stop(*rc, failed);

  std::optional<runtime::NpyArray> golden;
  if (a.expect) {
    auto g = read_expected(*a.expect);
    if (!g) return stop(kExitUsage, g.diagnostics());
    golden = std::move(*g);
  }
  std::vector<SavedInput> saved;
  if (vm.count("save-inputs")) {
    auto s = save_run_inputs(file, *plan, req, vm["save-inputs"].as<std::string>(),
                             vm.count("force") > 0);
    if (!s) return stop(kExitUsage, s.diagnostics());
    saved = std::move(*s);
  }

  std::optional<Watchdog> watchdog;
  arm_watchdog(a, kernel, opt.json, io, watchdog);
  auto r = run::run_plan(file, *plan, std::move(req));
  if (watchdog) watchdog->disarm();
  if (!r) return stop(kExitUserError, r.diagnostics());

  if (auto rc = write_output(vm, r->output, io)) return *rc;
  std::optional<ExpectComparison> compared;
  if (a.expect) {
    auto cmp = compare_with_expected(r->output, *golden, *a.expect);
    if (!cmp) return stop(kExitUserError, cmp.diagnostics());
    compared = std::move(*cmp);
  }
  const int status = run_status(*r, compared);
  const Diagnostics failures = run_failures(kernel, *r, compared);
  if (opt.json) {
    auto doc = run_json(kernel, *r, load_ms, std::move(cycle_doc));
    add_ci_json(doc, compared, saved);
    io.out << doc.dump(2) << "\n";
    report_all(io, failures, &src, status);
    return status;
  }
  print_run_text(ci_report.text(), kernel, *r, compared, saved);
  return stop(status, failures);
}

} // namespace tujit::cli
