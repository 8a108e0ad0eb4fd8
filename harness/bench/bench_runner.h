// The measuring half of `tujit bench`: each kernel is verified, lowered, laid out once on seeded
// inputs, timed by the cycle models and compiled (cold and from the object cache)
// (bench_prepare.cpp); then Google Benchmark runs the JIT, the interpreter and OpenBLAS sgemm on
// it, with repetitions, in this process (bench_measure.cpp). Google Benchmark's own JSON
// document is kept verbatim for --json.
#pragma once

#include "harness/bench/bench_types.h"
#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tujit::bench {

struct BenchOptions {
  unsigned repetitions = 3;
  double min_time_s = 0.2; // Google Benchmark's minimum time per repetition
  unsigned threads = 1;    // JIT worker threads (sgemm is single-threaded)
  std::uint64_t seed = 0;
  /// Rates over the process's CPU time instead of wall time: on a machine shared with other work
  /// the wall clock also counts the time the scheduler gave to others.
  bool cpu_time = false;
  /// The interpreter runs at most this many products per iteration: above it, only the first
  /// live slices (at least one) run and its MAC/s is normalised by the products it did.
  std::uint64_t interp_mac_cap = std::uint64_t{1} << 22;
  /// A kernel whose tensors, when run, exceed this is refused (E-LIMIT-002), as
  /// `tujit run --max-bytes` refuses it (harness/run/run_footprint.h).
  std::uint64_t max_bytes = std::uint64_t{4} << 30;
  bool sgemm = true;
  bool fma_peak = true;
  /// Called after each finished benchmark run: (done, total, what).
  std::function<void(std::uint64_t, std::uint64_t, const std::string&)> progress;
};

/// One kernel ready to measure (inputs staged, program compiled). Opaque.
struct PreparedKernel;
struct PreparedDeleter {
  void operator()(PreparedKernel* p) const;
};
using PreparedPtr = std::unique_ptr<PreparedKernel, PreparedDeleter>;

/// What a kernel is called in the report.
struct KernelLabel {
  std::string label, source;
  std::optional<std::uint64_t> point;
  std::map<std::string, std::string> params;
};

/// Verifies (ir/verify check_kernel), checks the size limit, lowers, stages seeded inputs, runs
/// both cycle models and compiles `kernel` of `file` (bench_prepare.cpp). Fails with the first
/// error diagnostic of the verifier, the limit (E-LIMIT-002) or the lowering (E-BENCH-005 when
/// it is no contraction chain).
Result<PreparedPtr> prepare_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const KernelLabel& label, const BenchOptions& options);

struct Measured {
  std::vector<KernelResult> kernels; // unranked, in the order given
  double fma_peak_macs_per_s = 0;
  nlohmann::json gbench; // Google Benchmark's JSON: {"context", "benchmarks"}
};

/// Registers and runs every benchmark under Google Benchmark (bench_measure.cpp; one
/// process-wide registry: not reentrant), then clears the registry.
Measured measure(std::vector<PreparedPtr>& kernels, const BenchOptions& options);

/// The FMA peak probe (fma_peak.cpp): `rounds` rounds of independent f32 FMAs in registers on
/// the widest vectors the host has (16 lanes with AVX-512F, else 8 with AVX2 + FMA; compiled with
/// target attributes). Returns the FMA lanes done (= MACs), 0 when the CPU has no FMA.
std::uint64_t fma_burst(std::uint64_t rounds);

} // namespace tujit::bench
