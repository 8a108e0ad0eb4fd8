// The outputs of `tujit bench`: the JSON document (Google Benchmark's own {"context",
// "benchmarks"} plus a "tujit" section with every kernel's summary, ratios, ranking and the invalid
// sweep points), the CSV (one row per kernel or invalid point), the text table for people, and
// `--merge` of shard documents.
#pragma once

#include "harness/bench/bench_types.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::bench {

/// The "tujit" section's format tag; --merge refuses documents without it.
inline constexpr const char* kBenchFormat = "tujit-bench/1";

/// Ratios of one kernel's medians (0 when the denominator was not measured).
struct Ratios {
  double jit_vs_interp = 0, jit_vs_sgemm = 0, jit_vs_fma_peak = 0, sgemm_vs_fma_peak = 0;
};
Ratios ratios_of(const KernelResult& k);

/// {"context", "benchmarks"} from `gbench` (Google Benchmark's document), plus "tujit".
nlohmann::ordered_json report_json(const BenchReport& r, const nlohmann::json& gbench);
/// The "tujit" section alone (bench_json_stream.h writes it after the streamed runs).
nlohmann::ordered_json tujit_section(const BenchReport& r);

/// "SIGINT", "SIGTERM", "SIGHUP" (the report's `interrupted_by`), and back.
std::string signal_name(int sig);
int signal_number(const std::string& name);
/// The "tujit" section back (E-BENCH-004 when it is missing or malformed).
Result<BenchReport> report_from_json(const nlohmann::json& doc, const std::string& name);

/// One header line, then one line per kernel (ranked) and one per invalid point.
std::string report_csv(const BenchReport& r);

/// The table for a terminal: rank, label, cycles, MAC/s of each engine and the ratios.
std::string report_text(const BenchReport& r);

/// The largest shard document --merge reads (a 100,000-point sweep with Google Benchmark's runs
/// stays well below it).
inline constexpr std::uint64_t kMaxShardBytes = std::uint64_t{1} << 30;

/// Joins shard documents (read from `paths` through ir/support/input_file.h): the kernels and
/// invalid points of every shard, re-ranked; Google Benchmark's runs concatenated. E-BENCH-004 when
/// documents are not tujit bench output, come from different sweeps, or hold the same point twice.
/// `notes` gets one line per point no shard covered.
Result<nlohmann::ordered_json> merge_reports(const std::vector<std::string>& paths,
                                             BenchReport* merged, std::vector<std::string>* notes);

} // namespace tujit::bench
