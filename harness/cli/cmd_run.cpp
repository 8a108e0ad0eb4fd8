// `tujit run FILE [--kernel NAME] [--engine interp] [--seed N] [--input NAME=PATH.npy]…
// [--output PATH.npy] [--force] [--verify] [--json]` (spec/cli.md "tujit run"): runs a
// contraction kernel on seeded random or given inputs with the reference interpreter, prints the
// output's digest, optionally writes it as .npy and checks it against the float64 oracle.
#include "harness/cli/check_report.h"
#include "harness/cli/command.h"
#include "harness/cli/run_kernel.h"
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

int show_diagnostics(const Diagnostics& ds, const SourceBuffer& src, CommandIO& io) {
  for (const auto& d : ds) io.err << render(d, &src);
  return kExitUserError;
}

std::string param_names(const std::vector<const ir::KernelParam*>& ps) {
  std::string s;
  for (const auto* p : ps) s += (s.empty() ? "" : ", ") + p->name;
  return s;
}

/// time_ms: "parse" = reading, typing and checking the file (load_checked), "verify" = the
/// interpreter's plan (it re-runs the chain's verifiers), "run" = lay out, run and read back,
/// "oracle" = the float64 oracle of --verify.
nlohmann::ordered_json run_json(const std::string& kernel, const RunOutcome& r, double parse_ms) {
  nlohmann::ordered_json shape = nlohmann::ordered_json::array();
  for (auto n : r.output.shape()) shape.push_back(n);
  nlohmann::ordered_json j = {{"kernel", kernel},
                              {"engine", r.engine},
                              {"threads", 1},
                              {"output",
                               {{"axes", r.output_axes},
                                {"shape", shape},
                                {"dtype", std::string(ir::name(r.output.dtype))},
                                {"sha256", r.sha256}}}};
  if (r.verify) {
    nlohmann::ordered_json v;
    // Only one engine exists until the JIT (issue 6): nothing to compare bit for bit.
    v["engines_bit_exact"] = nullptr;
    if (r.verify->oracle_not_applicable) {
      v["oracle_max_abs_err"] = nullptr;
      v["oracle_ok"] = nullptr;
      v["oracle_not_applicable"] = *r.verify->oracle_not_applicable;
    } else {
      v["oracle_max_abs_err"] = r.verify->oracle_max_abs_err;
      v["oracle_ok"] = r.verify->oracle_ok;
    }
    v["poisoned_outputs"] = r.poisoned_outputs;
    j["verify"] = v;
  }
  j["time_ms"] = {
      {"parse", parse_ms}, {"verify", r.plan_ms}, {"run", r.run_ms}, {"oracle", r.verify_ms}};
  j["simulated_macs"] = r.simulated_macs;
  return j;
}

} // namespace

int run_run(const std::vector<std::string>& args, CommandIO& io) {
  po::options_description extra;
  extra.add_options()("engine", po::value<std::string>()->default_value("interp"),
                      "interp (jit: issue 6)")("seed", po::value<std::uint64_t>()->default_value(0),
                                               "seed of the random inputs")(
      "input", po::value<std::vector<std::string>>(), "NAME=PATH.npy: a parameter's contents")(
      "output", po::value<std::string>(),
      "write the output tensor to PATH.npy")("force", "overwrite an existing --output file")(
      "verify", "check the output against the float64 oracle");
  FileCommandOptions opt;
  po::variables_map vm;
  if (auto rc =
          parse_file_command("run", "Runs a contraction kernel on seeded random (or given) inputs.",
                             args, io, opt, &extra,
                             " [--engine interp] [--seed N] [--input NAME=PATH.npy]... "
                             "[--output PATH.npy] [--force] [--verify]",
                             &vm))
    return *rc;
  const std::string engine = vm["engine"].as<std::string>();
  if (engine == "jit") {
    io.err << "tujit run: the JIT engine is not built yet (issue 6); use --engine interp\n";
    return kExitUsage;
  }
  if (engine != "interp") {
    io.err << "tujit run: unknown engine '" << engine << "' (engines: interp, jit)\n";
    return kExitUsage;
  }
  // name → path, validated before any work so a usage error costs nothing.
  std::vector<std::pair<std::string, std::string>> input_paths;
  if (vm.count("input"))
    for (const auto& s : vm["input"].as<std::vector<std::string>>()) {
      auto eq = s.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == s.size()) {
        io.err << "tujit run: --input wants NAME=PATH.npy, got '" << s << "'\n";
        return kExitUsage;
      }
      input_paths.emplace_back(s.substr(0, eq), s.substr(eq + 1));
    }

  auto t0 = std::chrono::steady_clock::now();
  std::optional<std::string> kernel_name;
  kernel_name = opt.kernel;
  CheckedSpec c;
  if (auto rc = load_checked("run", opt.file, kernel_name, io, c)) return *rc;
  const double load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const ir::SpecFile& file = c.analysis->file;
  const SourceBuffer& src = file.source;
  if (c.status() != kExitOk) return show_diagnostics(c.shown, src, io);
  if (c.selected.size() != 1) {
    std::string names;
    for (auto i : c.selected) names += (names.empty() ? "" : ", ") + file.kernels[i].name;
    io.err << "tujit run: '" << opt.file << "' defines "
           << (c.selected.empty() ? std::string("no kernel")
                                  : fmt::format("{} kernels ({}); pick one with --kernel NAME",
                                                c.selected.size(), names))
           << "\n";
    return kExitUsage;
  }
  for (const auto& d : c.shown) io.err << render(d, &src); // warnings
  const ir::Kernel& kernel = file.kernels[c.selected[0]];

  auto ops = find_run_operands(kernel);
  if (!ops) return show_diagnostics(ops.diagnostics(), src, io);

  RunRequest req;
  req.seed = vm["seed"].as<std::uint64_t>();
  req.verify = vm.count("verify") > 0;
  const auto inputs = ops->inputs();
  for (const auto& [name, path] : input_paths) {
    const ir::KernelParam* param = nullptr;
    for (const auto* p : inputs)
      if (p->name == name) param = p;
    if (!param) {
      io.err << "tujit run: kernel '" << kernel.name << "' has no input parameter '" << name
             << "'; its inputs are: " << param_names(inputs) << "\n";
      return kExitUsage;
    }
    auto npy = runtime::read_npy_file(path);
    if (!npy) {
      for (const auto& d : npy.diagnostics()) io.err << render(d, nullptr);
      return kExitUsage;
    }
    auto t = runtime::tensor_from_npy(*npy, param->tensor->dtype,
                                      runtime::tensor_axes(*param->tensor, file.axes), name);
    if (!t) {
      for (const auto& d : t.diagnostics()) io.err << render(d, nullptr);
      return kExitUserError;
    }
    req.given[name] = std::move(*t);
  }

  auto r = run_kernel(file, kernel, *ops, req);
  if (!r) return show_diagnostics(r.diagnostics(), src, io);

  if (vm.count("output")) {
    const auto bytes = runtime::serialize_npy(runtime::npy_from_tensor(r->output));
    if (auto d = runtime::write_file_atomically(vm["output"].as<std::string>(), bytes,
                                                vm.count("force") > 0)) {
      io.err << render(*d, nullptr);
      if (!vm.count("force")) io.err << "(use --force to overwrite it)\n";
      return kExitUsage;
    }
  }
  // An oracle mismatch is a failed run; poison alone is reported, not an error (DESIGN.md).
  const int status = r->verify && !r->verify->oracle_not_applicable && !r->verify->oracle_ok
                         ? kExitUserError
                         : kExitOk;
  if (opt.json) {
    io.out << run_json(kernel.name, *r, load_ms).dump(2) << "\n";
    return status;
  }
  std::string shape;
  for (auto n : r->output.shape()) shape += (shape.empty() ? "" : ", ") + std::to_string(n);
  std::string axes;
  for (const auto& a : r->output_axes) axes += (axes.empty() ? "" : ", ") + a;
  io.out << fmt::format("{}: ran on interp; output [{}] = [{}] {}, sha256 {}\n", kernel.name, axes,
                        shape, ir::name(r->output.dtype), r->sha256);
  io.out << fmt::format("  {} simulated MACs, {} poisoned outputs, run {:.3f} ms\n",
                        r->simulated_macs, r->poisoned_outputs, r->run_ms);
  if (r->verify) {
    if (r->verify->oracle_not_applicable)
      io.out << "  " << *r->verify->oracle_not_applicable << " (no oracle check)\n";
    else
      io.out << fmt::format("  oracle: {} (max abs err {:g}, {} mismatches{})\n",
                            r->verify->oracle_ok ? "ok" : "MISMATCH", r->verify->oracle_max_abs_err,
                            r->verify->mismatches,
                            r->verify->worst.empty() ? "" : ", worst at " + r->verify->worst);
  }
  return status;
}

} // namespace tujit::cli
