// What `tujit bench` measures and reports : per kernel (or sweep point) the simulated
// MAC/s of the JIT and of the reference interpreter, OpenBLAS sgemm on the same logical GEMM, the
// compile times, both cycle models, and the run's context (machine FMA peak, load). Kept apart
// from the measuring (bench_runner.h) and the output formats (bench_report.h) so `--merge` can
// rebuild it from JSON alone.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tujit::bench {

/// min / median / max over the repetitions.
struct Spread {
  double min = 0, median = 0, max = 0;
};
Spread spread_of(std::vector<double> values);

/// The logical GEMM a contraction chain computes: `batch` independent [m×k]·[k×n] products
/// (batch = axes of stream, TRF and output; m = stream and output only; n = TRF and output only;
/// k = the reduced axes of stream and TRF).
struct GemmShape {
  std::uint64_t batch = 1, m = 1, k = 1, n = 1;
  std::uint64_t macs() const { return batch * m * k * n; }
};

struct KernelResult {
  std::string label;  // unique in the report: the kernel name, or the sweep point's name
  std::string kernel; // the kernel's fn name
  std::string source; // the spec file, or the sweep file
  std::optional<std::uint64_t> point;        // sweep point index
  std::map<std::string, std::string> params; // sweep point parameters
  std::uint64_t rank = 0;                    // 1 = fewest modelled cycles

  /// What the rates count: "MAC" (a contraction chain's present products) or "element" (a
  /// kernel without one, whose Vector Engine pass the bench times: its output elements).
  std::string work = "MAC";
  std::uint64_t slices = 0, live_slices = 0;
  std::uint64_t simulated_macs = 0; // present products (elements) of one JIT run, live slices
  std::uint64_t interp_slices = 0;  // live slices the interpreter ran (capped)
  std::uint64_t interp_macs = 0;    // present products of one interpreter run
  bool engines_bit_exact = false;   // JIT ≡ interpreter on the interpreter's slices
  GemmShape gemm;

  std::uint64_t cycles_analytic = 0, cycles_trace = 0;
  double mac_utilization = 0;         // per MAC cycle (docs/contraction.md §10)
  double mac_utilization_overall = 0; // present products / (total cycles · MAC array)

  double compile_cold_ms = 0; // object cache disabled
  double compile_warm_ms = 0; // object loaded from the on-disk cache
  bool warm_cache_hit = false;

  Spread jit_macs_per_s, interp_macs_per_s, sgemm_macs_per_s; // sgemm: logical MACs
  /// The JIT end to end, as `tujit run` does it (harness/run/run_pipeline.h run_kernel): inputs
  /// made, lowered with the address streams, the object loaded from the warm cache, run, the
  /// output's digest taken. Not parsing or process start.
  Spread run_macs_per_s;
  double peak_rss_mib = 0;        // process peak (getrusage) after this kernel's benchmarks
  double fma_peak_macs_per_s = 0; // the FMA peak measured in the same run (ratios)
};

/// A sweep point the verifiers refused: listed, never dropped.
struct InvalidPoint {
  std::uint64_t point = 0;
  std::string name;
  std::map<std::string, std::string> params;
  std::string code, stage, message;
};

struct SweepInfo {
  std::string name, file;
  std::uint64_t total_points = 0;
  std::uint64_t shard_index = 0, shard_count = 1;
};

struct BenchReport {
  std::vector<KernelResult> kernels; // ranked (rank 1 first)
  std::vector<InvalidPoint> invalid;
  std::optional<SweepInfo> sweep;
  std::vector<std::uint64_t> shards_merged; // shard indices a --merge joined
  double fma_peak_macs_per_s = 0;           // one core, f32 FMA lanes per second
  unsigned threads = 1;                     // JIT worker threads
  unsigned repetitions = 1;
  bool cpu_time = false; // rates over process CPU time (else wall time)
  std::uint64_t interp_mac_cap = 0;
  std::string load_average; // /proc/loadavg at the start
  std::string host;
  /// The signal that stopped the run early (0: it ran to the end); the report then holds what
  /// was measured before it.
  int interrupted_by = 0;
};

/// Orders `kernels` by trace cycles, then analytic cycles, then point index / label, and sets
/// their rank (1-based).
void rank_kernels(std::vector<KernelResult>& kernels);

} // namespace tujit::bench
