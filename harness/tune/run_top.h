// `tujit tune --run-top K` (docs/tune.md §4): a ranked kernel's emitted spec run the way
// `tujit run SPEC --verify` runs it (the JIT, then the reference interpreter bit for bit and the
// float64 oracle), and its cycles traced, so the ranking is confirmed by the trace model and the
// kernel's result by both engines.
#pragma once

#include "harness/tune/ranked_kernel.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <string>

namespace tujit::tune {

struct TopRun {
  std::uint64_t rank = 0;
  std::uint64_t analytic_cycles = 0, trace_cycles = 0;
  bool engines_bit_exact = false;
  bool oracle_ok = false;
  double oracle_max_abs_err = 0;
  std::uint64_t poisoned_outputs = 0;
  std::string sha256; // of the JIT's output (docs/cli.md §6)
  double run_ms = 0, verify_ms = 0;
};

/// Runs `e.spec` on the JIT with `threads` workers and seeded inputs, verified (run::run_kernel,
/// harness/run/run_pipeline.h). Diagnostics for a kernel the run path refuses (E-RUN-…;
/// E-LIMIT-002 when the verified run would need more than `max_bytes`).
Result<TopRun> run_ranked(const Entry& e, unsigned threads, std::uint64_t seed,
                          std::uint64_t max_bytes);

} // namespace tujit::tune
