#include "harness/cli/run_ci.h"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

namespace tujit::cli {

std::optional<int> read_expect_options(const boost::program_options::variables_map& vm,
                                       CommandIO& io, std::optional<ExpectOptions>& out) {
  const bool rtol = vm.count("rtol") > 0, atol = vm.count("atol") > 0;
  if (!vm.count("expect")) {
    if (!rtol && !atol) return std::nullopt;
    io.err << "tujit run: --rtol / --atol are tolerances of --expect PATH.npy\n";
    return kExitUsage;
  }
  ExpectOptions e;
  e.path = vm["expect"].as<std::string>();
  auto tolerance = [&](const char* name, std::optional<double>& slot) {
    if (!vm.count(name)) return true;
    const double v = vm[name].as<double>();
    if (!std::isfinite(v) || v < 0) {
      io.err << "tujit run: --" << name << " wants a finite number >= 0, got " << v << "\n";
      return false;
    }
    slot = v;
    return true;
  };
  if (!tolerance("rtol", e.rtol) || !tolerance("atol", e.atol)) return kExitUsage;
  out = std::move(e);
  return std::nullopt;
}

Diagnostics run_failures(const ir::Kernel& kernel, const run::RunOutcome& r,
                         const std::optional<ExpectComparison>& expect) {
  Diagnostics out;
  auto add = [&](const char* code, std::string message, std::vector<std::string> notes) {
    Diagnostic d = make_error(code, std::move(message), kernel.name_span, std::move(notes));
    d.stage = "run";
    out.push_back(std::move(d));
  };
  if (r.verify && !r.verify->engines_not_compared && !r.verify->engines_bit_exact)
    add("E-RUN-008",
        fmt::format("the {} and the {} disagree on kernel `{}` (a bug in tujit)", r.engine,
                    r.verify->other_engine, kernel.name),
        {r.verify->engine_difference, "report it with the kernel and the --seed"});
  if (r.verify && !r.verify->oracle_not_applicable && !r.verify->oracle_ok)
    add("E-ORACLE-005",
        fmt::format("the output of kernel `{}` disagrees with the float64 oracle beyond its "
                    "tolerance in {} cells",
                    kernel.name, r.verify->mismatches),
        {fmt::format("max abs err {:g}{}", r.verify->oracle_max_abs_err,
                     r.verify->worst.empty() ? "" : ", worst at " + r.verify->worst)});
  if (expect && !expect->ok()) out.push_back(expect_mismatch(*expect, kernel));
  return out;
}

void add_ci_json(nlohmann::ordered_json& doc, const std::optional<ExpectComparison>& expect,
                 const std::vector<SavedInput>& saved) {
  if (expect) doc["expect"] = expect_json(*expect);
  if (saved.empty()) return;
  nlohmann::ordered_json s = nlohmann::ordered_json::array();
  for (const auto& in : saved)
    s.push_back({{"name", in.name}, {"path", in.path}, {"shape", in.shape}});
  doc["saved_inputs"] = s;
}

} // namespace tujit::cli
