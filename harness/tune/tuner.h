// The search of `tujit tune` (docs/tune.md §3): every choice of the search space (one shard of
// it) is built, verified and, when it can still enter the ranking, modelled; worker threads take
// blocks of the space, a shared lower bound keeps them from lowering candidates that cannot make
// the top K or the Pareto front, and the ranking is the same for any thread count.
#pragma once

#include "harness/tune/evaluate.h"
#include "harness/tune/problem.h"
#include "harness/tune/search_space.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tujit::tune {

struct TuneOptions {
  std::size_t top = 10;
  double budget_seconds = 0; // 0: search the whole space (shard)
  unsigned threads = 0;      // 0: every hardware thread
  std::uint64_t shard_index = 0, shard_count = 1;
  /// Skip modelling candidates whose lower bound keeps them out of the top K and the Pareto front
  /// (off: model every valid candidate; the benchmark measures both).
  bool bound = true;
  /// Called from the calling thread about ten times a second: (candidates done, to do).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  /// Polled as often: true stops the search as a spent budget does (SIGINT in `tujit tune`).
  std::function<bool()> stop_requested;
};

/// A valid, modelled candidate.
struct Ranked {
  Choice choice;
  Score score;
};

/// Ranking order: fewer cycles, then the same speed on less hardware (fewer live slices, a smaller
/// TRF share: room to double-buffer the next operand), then the enumeration index.
bool ranks_before(const Ranked& a, const Ranked& b);

/// A modelled candidate for the plot.
struct PlotPoint {
  std::uint64_t live_slices = 0, cycles = 0;
};

struct TuneResult {
  std::uint64_t space = 0;      // choices in the whole search space
  std::uint64_t shard_size = 0; // choices in this run's shard
  std::uint64_t searched = 0;   // choices evaluated (the shard, or fewer when the budget ran out)
  std::uint64_t valid = 0;      // accepted by every verifier
  std::uint64_t modelled = 0;   // valid and timed by the analytic model (depends on the thread
                                // schedule when the bound is on)
  std::map<std::string, std::uint64_t> refused; // by the first rule broken (E-TUNE-010: not the
                                                // einsum)
  std::map<std::string, std::uint64_t> pruned;  // partial assignments not generated, by rule
  double seconds = 0, cpu_seconds = 0;
  unsigned threads = 1;
  bool complete = true;                     // false when the budget or a stop request ended it
  std::vector<Ranked> best;                 // at most `top`, in rank order
  std::vector<Ranked> pareto;               // cycles against live slices, fewest slices first
  std::vector<PlotPoint> points;            // modelled candidates (at most kMaxPlotPoints)
  std::vector<std::string> internal_errors; // bugs found on the way (exit 3)
};

inline constexpr std::size_t kMaxPlotPoints = 50000;

TuneResult tune(const Problem& p, const TuneOptions& options);

/// The Pareto front (fewest cycles for at most that many live slices) of `candidates`.
std::vector<Ranked> pareto_front(std::vector<Ranked> candidates);

} // namespace tujit::tune
