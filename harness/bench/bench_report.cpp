#include "harness/bench/bench_report.h"

#include "ir/support/input_file.h"

#include <fmt/format.h>

#include <algorithm>

#include <csignal>

#include <set>
#include <sstream>

namespace tujit::bench {

namespace {

using ojson = nlohmann::ordered_json;

double ratio(double a, double b) {
  return b > 0 ? a / b : 0;
}

ojson spread_json(const Spread& s) {
  return {{"min", s.min}, {"median", s.median}, {"max", s.max}};
}
Spread spread_from(const nlohmann::json& j) {
  return {j.value("min", 0.0), j.value("median", 0.0), j.value("max", 0.0)};
}

ojson kernel_json(const KernelResult& k) {
  const Ratios q = ratios_of(k);
  ojson j = {{"label", k.label}, {"kernel", k.kernel}, {"source", k.source}};
  j["point"] = k.point ? ojson(*k.point) : ojson(nullptr);
  j["params"] = k.params;
  j["rank"] = k.rank;
  j["work"] = k.work;
  j["slices"] = k.slices;
  j["live_slices"] = k.live_slices;
  j["simulated_macs"] = k.simulated_macs;
  j["interp_slices"] = k.interp_slices;
  j["interp_macs"] = k.interp_macs;
  j["engines_bit_exact"] = k.engines_bit_exact;
  j["gemm"] = {{"batch", k.gemm.batch},
               {"m", k.gemm.m},
               {"k", k.gemm.k},
               {"n", k.gemm.n},
               {"macs", k.gemm.macs()}};
  j["cycles"] = {{"analytic", k.cycles_analytic},
                 {"trace", k.cycles_trace},
                 {"mac_utilization", k.mac_utilization},
                 {"mac_utilization_overall", k.mac_utilization_overall}};
  j["compile_ms"] = {{"cold", k.compile_cold_ms},
                     {"warm", k.compile_warm_ms},
                     {"warm_cache_hit", k.warm_cache_hit}};
  j["macs_per_s"] = {{"jit", spread_json(k.jit_macs_per_s)},
                     {"run", spread_json(k.run_macs_per_s)},
                     {"interp", spread_json(k.interp_macs_per_s)},
                     {"sgemm", spread_json(k.sgemm_macs_per_s)},
                     {"fma_peak", k.fma_peak_macs_per_s}};
  j["ratios"] = {{"jit_vs_interp", q.jit_vs_interp},
                 {"jit_vs_sgemm", q.jit_vs_sgemm},
                 {"jit_vs_fma_peak", q.jit_vs_fma_peak},
                 {"sgemm_vs_fma_peak", q.sgemm_vs_fma_peak}};
  j["peak_rss_mib"] = k.peak_rss_mib;
  return j;
}

KernelResult kernel_from(const nlohmann::json& j) {
  KernelResult k;
  k.label = j.at("label").get<std::string>();
  k.kernel = j.value("kernel", "");
  k.source = j.value("source", "");
  if (j.contains("point") && j["point"].is_number_unsigned())
    k.point = j["point"].get<std::uint64_t>();
  if (j.contains("params")) k.params = j["params"].get<std::map<std::string, std::string>>();
  k.rank = j.value("rank", std::uint64_t{0});
  k.work = j.value("work", std::string("MAC"));
  k.slices = j.value("slices", std::uint64_t{0});
  k.live_slices = j.value("live_slices", std::uint64_t{0});
  k.simulated_macs = j.value("simulated_macs", std::uint64_t{0});
  k.interp_slices = j.value("interp_slices", std::uint64_t{0});
  k.interp_macs = j.value("interp_macs", std::uint64_t{0});
  k.engines_bit_exact = j.value("engines_bit_exact", false);
  const auto& g = j.at("gemm");
  k.gemm = {g.at("batch").get<std::uint64_t>(), g.at("m").get<std::uint64_t>(),
            g.at("k").get<std::uint64_t>(), g.at("n").get<std::uint64_t>()};
  const auto& c = j.at("cycles");
  k.cycles_analytic = c.at("analytic").get<std::uint64_t>();
  k.cycles_trace = c.at("trace").get<std::uint64_t>();
  k.mac_utilization = c.value("mac_utilization", 0.0);
  k.mac_utilization_overall = c.value("mac_utilization_overall", 0.0);
  const auto& ms = j.at("compile_ms");
  k.compile_cold_ms = ms.value("cold", 0.0);
  k.compile_warm_ms = ms.value("warm", 0.0);
  k.warm_cache_hit = ms.value("warm_cache_hit", false);
  const auto& r = j.at("macs_per_s");
  k.jit_macs_per_s = spread_from(r.at("jit"));
  if (r.contains("run")) k.run_macs_per_s = spread_from(r.at("run"));
  k.interp_macs_per_s = spread_from(r.at("interp"));
  k.sgemm_macs_per_s = spread_from(r.at("sgemm"));
  k.fma_peak_macs_per_s = r.value("fma_peak", 0.0);
  k.peak_rss_mib = j.value("peak_rss_mib", 0.0);
  return k;
}

ojson invalid_json(const InvalidPoint& p) {
  return {{"point", p.point}, {"name", p.name},   {"params", p.params},
          {"code", p.code},   {"stage", p.stage}, {"message", p.message}};
}

InvalidPoint invalid_from(const nlohmann::json& j) {
  InvalidPoint p;
  p.point = j.at("point").get<std::uint64_t>();
  p.name = j.value("name", "");
  if (j.contains("params")) p.params = j["params"].get<std::map<std::string, std::string>>();
  p.code = j.value("code", "");
  p.stage = j.value("stage", "");
  p.message = j.value("message", "");
  return p;
}

Diagnostic merge_error(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-BENCH-004", std::move(message), std::nullopt, std::move(notes));
  d.stage = "bench";
  return d;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string params_text(const std::map<std::string, std::string>& params) {
  std::string s;
  for (const auto& [k, v] : params) s += fmt::format("{}{}={}", s.empty() ? "" : ";", k, v);
  return s;
}

// "1.23e+09" style, short enough for a table.
std::string rate(double v) {
  return v > 0 ? fmt::format("{:.3g}", v) : "-";
}

} // namespace

std::string signal_name(int sig) {
  switch (sig) {
  case SIGINT:
    return "SIGINT";
  case SIGTERM:
    return "SIGTERM";
  case SIGHUP:
    return "SIGHUP";
  default:
    return fmt::format("signal {}", sig);
  }
}

int signal_number(const std::string& name) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    if (signal_name(sig) == name) return sig;
  return SIGINT;
}

Ratios ratios_of(const KernelResult& k) {
  Ratios r;
  r.jit_vs_interp = ratio(k.jit_macs_per_s.median, k.interp_macs_per_s.median);
  r.jit_vs_sgemm = ratio(k.jit_macs_per_s.median, k.sgemm_macs_per_s.median);
  // Elements per second are no MAC rate: the FMA peak is no yardstick for them.
  r.jit_vs_fma_peak = k.work == "MAC" ? ratio(k.jit_macs_per_s.median, k.fma_peak_macs_per_s) : 0;
  r.sgemm_vs_fma_peak = ratio(k.sgemm_macs_per_s.median, k.fma_peak_macs_per_s);
  return r;
}

nlohmann::ordered_json report_json(const BenchReport& r, const nlohmann::json& gbench) {
  ojson doc;
  doc["context"] = gbench.contains("context") ? ojson(gbench["context"]) : ojson::object();
  doc["benchmarks"] = gbench.contains("benchmarks") ? ojson(gbench["benchmarks"]) : ojson::array();
  doc["tujit"] = tujit_section(r);
  return doc;
}

nlohmann::ordered_json tujit_section(const BenchReport& r) {
  ojson t;
  t["format"] = kBenchFormat;
  t["host"] = r.host;
  t["load_average"] = r.load_average;
  t["threads"] = r.threads;
  t["repetitions"] = r.repetitions;
  t["time"] = r.cpu_time ? "process cpu" : "wall";
  t["interp_mac_cap"] = r.interp_mac_cap;
  t["baselines"] = {{"fma_peak_macs_per_s", r.fma_peak_macs_per_s},
                    {"sgemm", "OpenBLAS cblas_sgemm, 1 thread, f32, batch × [m×k]·[k×n]"},
                    {"fma_peak", "8-wide f32 FMA, 10 independent chains, 1 core"}};
  if (r.sweep) {
    t["sweep"] = {{"name", r.sweep->name},
                  {"file", r.sweep->file},
                  {"total_points", r.sweep->total_points},
                  {"shard", fmt::format("{}/{}", r.sweep->shard_index, r.sweep->shard_count)}};
  } else {
    t["sweep"] = nullptr;
  }
  t["shards_merged"] = r.shards_merged;
  t["interrupted_by"] = r.interrupted_by ? ojson(signal_name(r.interrupted_by)) : ojson(nullptr);
  t["ranked_by"] = "trace cycles, then analytic cycles (fewest first)";
  t["kernels"] = ojson::array();
  for (const auto& k : r.kernels) t["kernels"].push_back(kernel_json(k));
  t["invalid"] = ojson::array();
  for (const auto& p : r.invalid) t["invalid"].push_back(invalid_json(p));
  return t;
}

Result<BenchReport> report_from_json(const nlohmann::json& doc, const std::string& name) {
  if (!doc.is_object() || !doc.contains("tujit") || !doc["tujit"].is_object() ||
      doc["tujit"].value("format", "") != std::string(kBenchFormat))
    return merge_error(fmt::format("'{}' is not the --json output of `tujit bench` (no \"tujit\" "
                                   "section of format {})",
                                   name, kBenchFormat));
  const auto& t = doc["tujit"];
  BenchReport r;
  try {
    r.host = t.value("host", "");
    r.load_average = t.value("load_average", "");
    r.threads = t.value("threads", 1u);
    r.repetitions = t.value("repetitions", 1u);
    r.cpu_time = t.value("time", "wall") == std::string("process cpu");
    r.interp_mac_cap = t.value("interp_mac_cap", std::uint64_t{0});
    r.fma_peak_macs_per_s = t.at("baselines").value("fma_peak_macs_per_s", 0.0);
    if (t.contains("sweep") && t["sweep"].is_object()) {
      const auto& s = t["sweep"];
      SweepInfo info;
      info.name = s.value("name", "");
      info.file = s.value("file", "");
      info.total_points = s.value("total_points", std::uint64_t{0});
      const std::string shard = s.value("shard", "0/1");
      std::sscanf(shard.c_str(), "%lu/%lu", &info.shard_index, &info.shard_count);
      r.sweep = info;
    }
    if (t.contains("interrupted_by") && t["interrupted_by"].is_string())
      r.interrupted_by = signal_number(t["interrupted_by"].get<std::string>());
    for (const auto& k : t.at("kernels")) r.kernels.push_back(kernel_from(k));
    for (const auto& p : t.at("invalid")) r.invalid.push_back(invalid_from(p));
  } catch (const nlohmann::json::exception& e) {
    return merge_error(fmt::format("'{}': malformed \"tujit\" section: {}", name, e.what()));
  }
  return r;
}

std::string report_csv(const BenchReport& r) {
  std::string out =
      "rank,label,kernel,source,point,params,status,code,message,cycles_trace,cycles_analytic,"
      "mac_utilization,mac_utilization_overall,simulated_macs,gemm_batch,gemm_m,gemm_k,gemm_n,"
      "jit_macs_per_s_min,jit_macs_per_s_median,jit_macs_per_s_max,run_macs_per_s_median,"
      "interp_macs_per_s_median,"
      "interp_slices,live_slices,sgemm_macs_per_s_median,fma_peak_macs_per_s,jit_vs_interp,"
      "jit_vs_sgemm,jit_vs_fma_peak,compile_cold_ms,compile_warm_ms,peak_rss_mib,work\n";
  for (const auto& k : r.kernels) {
    const Ratios q = ratios_of(k);
    out += fmt::format(
        "{},{},{},{},{},{},ok,,,{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},"
        "{},{},{}\n",
        k.rank, csv_field(k.label), csv_field(k.kernel), csv_field(k.source),
        k.point ? std::to_string(*k.point) : "", csv_field(params_text(k.params)), k.cycles_trace,
        k.cycles_analytic, k.mac_utilization, k.mac_utilization_overall, k.simulated_macs,
        k.gemm.batch, k.gemm.m, k.gemm.k, k.gemm.n, k.jit_macs_per_s.min, k.jit_macs_per_s.median,
        k.jit_macs_per_s.max, k.run_macs_per_s.median, k.interp_macs_per_s.median, k.interp_slices,
        k.live_slices, k.sgemm_macs_per_s.median, k.fma_peak_macs_per_s, q.jit_vs_interp,
        q.jit_vs_sgemm, q.jit_vs_fma_peak, k.compile_cold_ms, k.compile_warm_ms, k.peak_rss_mib,
        k.work);
  }
  for (const auto& p : r.invalid)
    out += fmt::format(",{},,,{},{},invalid,{},{}{}\n", csv_field(p.name), p.point,
                       csv_field(params_text(p.params)), p.code, csv_field(p.message),
                       std::string(25, ','));
  return out;
}

namespace {

/// A row's kernel column: the label cut to 44 characters, marked `*` when its rates are not MACs.
std::string row_label(const KernelResult& k) {
  const std::string mark = k.work == "MAC" ? "" : "*";
  const std::size_t room = 44 - mark.size();
  return (k.label.size() > room ? k.label.substr(0, room - 3) + "..." : k.label) + mark;
}

} // namespace

std::string report_text(const BenchReport& r) {
  std::string out =
      fmt::format("{:>4}  {:<44} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>8}\n",
                  "rank", "kernel", "cycles", "jit MAC/s", "run MAC/s", "interp", "sgemm",
                  "jit/intp", "jit/sgemm", "jit/peak", "cold ms");
  for (const auto& k : r.kernels) {
    const Ratios q = ratios_of(k);
    out += fmt::format("{:>4}  {:<44} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10.1f} {:>9.3f} "
                       "{:>9.3f} {:>8.1f}\n",
                       k.rank, row_label(k), k.cycles_trace, rate(k.jit_macs_per_s.median),
                       rate(k.run_macs_per_s.median), rate(k.interp_macs_per_s.median),
                       rate(k.sgemm_macs_per_s.median), q.jit_vs_interp, q.jit_vs_sgemm,
                       q.jit_vs_fma_peak, k.compile_cold_ms);
  }
  if (std::any_of(r.kernels.begin(), r.kernels.end(),
                  [](const KernelResult& k) { return k.work != "MAC"; }))
    out += "\n* no contraction chain: the rates count output elements of the Vector Engine pass "
           "per second, not MACs; sgemm and the FMA peak do not apply\n";
  if (!r.invalid.empty()) {
    out += fmt::format("\n{} invalid point(s):\n", r.invalid.size());
    for (const auto& p : r.invalid)
      out += fmt::format("  #{} {}: {}: {}\n", p.point, p.name, p.code, p.message);
  }
  if (r.interrupted_by)
    out += fmt::format("\nINTERRUPTED by {}: the results of the {} kernel(s) and {} invalid "
                       "point(s) before it\n",
                       signal_name(r.interrupted_by), r.kernels.size(), r.invalid.size());
  out += fmt::format("\nFMA peak (1 core, f32): {} MAC/s; JIT threads: {}; repetitions: {}; "
                     "rates over {} time; cycles = trace model, one slice\n",
                     rate(r.fma_peak_macs_per_s), r.threads, r.repetitions,
                     r.cpu_time ? "process CPU" : "wall");
  return out;
}

Result<nlohmann::ordered_json> merge_reports(const std::vector<std::string>& paths,
                                             BenchReport* merged, std::vector<std::string>* notes) {
  if (paths.empty()) return merge_error("--merge needs at least one JSON file");
  ojson benchmarks = ojson::array();
  nlohmann::json context;
  BenchReport out;
  std::set<std::uint64_t> seen;
  std::set<std::string> seen_labels;
  for (const auto& path : paths) {
    auto text = read_input_file(path, kMaxShardBytes, "--merge input");
    if (!text) return std::move(text).take_diagnostics();
    auto doc = nlohmann::json::parse(*text, nullptr, false);
    if (doc.is_discarded()) return merge_error(fmt::format("'{}' is not JSON", path));
    auto r = report_from_json(doc, path);
    if (!r) return std::move(r).take_diagnostics();
    if (&path == &paths.front()) {
      out = *r;
      out.kernels.clear();
      out.invalid.clear();
      context = doc.value("context", nlohmann::json::object());
    } else if (r->sweep.has_value() != out.sweep.has_value() ||
               (r->sweep && (r->sweep->name != out.sweep->name ||
                             r->sweep->total_points != out.sweep->total_points))) {
      return merge_error(
          fmt::format("'{}' comes from another sweep than '{}'", path, paths.front()),
          {fmt::format("sweeps: '{}' ({} points) and '{}' ({} points)",
                       r->sweep ? r->sweep->name : "none", r->sweep ? r->sweep->total_points : 0,
                       out.sweep ? out.sweep->name : "none",
                       out.sweep ? out.sweep->total_points : 0)});
    }
    if (r->sweep) out.shards_merged.push_back(r->sweep->shard_index);
    if (r->interrupted_by) {
      notes->push_back(fmt::format("'{}' was interrupted by {}: its shard is incomplete", path,
                                   signal_name(r->interrupted_by)));
      if (!out.interrupted_by) out.interrupted_by = r->interrupted_by;
    }
    out.fma_peak_macs_per_s = std::max(out.fma_peak_macs_per_s, r->fma_peak_macs_per_s);
    const auto claim = [&](std::optional<std::uint64_t> point, const std::string& label) {
      if (point) return seen.insert(*point).second;
      return seen_labels.insert(label).second;
    };
    for (auto& k : r->kernels) {
      if (!claim(k.point, k.label))
        return merge_error(fmt::format("'{}' holds `{}` again: a shard was merged twice, or "
                                       "shards overlap",
                                       path, k.label));
      out.kernels.push_back(std::move(k));
    }
    for (auto& p : r->invalid) {
      if (!claim(p.point, p.name))
        return merge_error(fmt::format("'{}' holds point #{} again", path, p.point));
      out.invalid.push_back(std::move(p));
    }
    if (doc.contains("benchmarks") && doc["benchmarks"].is_array())
      for (const auto& b : doc["benchmarks"]) benchmarks.push_back(ojson::parse(b.dump()));
  }
  if (out.sweep) {
    out.sweep->shard_index = 0;
    out.sweep->shard_count = 1;
    for (std::uint64_t i = 0; i < out.sweep->total_points; ++i)
      if (!seen.count(i)) notes->push_back(fmt::format("point #{} is in no merged shard", i));
  }
  std::sort(out.invalid.begin(), out.invalid.end(),
            [](const InvalidPoint& a, const InvalidPoint& b) { return a.point < b.point; });
  rank_kernels(out.kernels);
  nlohmann::json gb = {{"context", context}, {"benchmarks", benchmarks}};
  *merged = out;
  return report_json(out, gb);
}

} // namespace tujit::bench
