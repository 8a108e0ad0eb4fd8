// The report of `tujit tune` (docs/tune.md §4): a ranked table for people, one JSON document
// (`{"searched": N, "valid": N, "seconds": S, "best": [{"rank": 1, "cycles": C, "spec": "…"}, …],
// …}`), CSV rows, and the merge of shards' JSON into one report.
#pragma once

#include "harness/run/run_footprint.h"
#include "harness/tune/problem.h"
#include "harness/tune/ranked_kernel.h"
#include "harness/tune/tuner.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tujit::tune {

struct Report {
  std::string einsum, sizes, dtype, accumulator;
  std::uint64_t shard_count = 1;
  std::vector<std::uint64_t> shards{0}; // shard indices this report covers
  std::uint64_t space = 0, shard_size = 0, searched = 0, valid = 0, modelled = 0;
  double seconds = 0, cpu_seconds = 0;
  unsigned threads = 1;
  bool complete = true;
  std::size_t top = 10;
  std::map<std::string, std::uint64_t> refused, pruned;
  std::vector<Entry> best;   // rank order
  std::vector<Entry> pareto; // fewest live slices first
  std::vector<PlotPoint> points;
  std::vector<std::string> notes; // e.g. shards a merge did not see
};

/// The report of a search: ranked entries built (and round-tripped) by ranked_entry(), each
/// refused when running it would take more than `max_bytes` (E-LIMIT-002).
Result<Report> make_report(const Problem& p, const TuneResult& r, std::size_t top,
                           std::uint64_t shard_index, std::uint64_t shard_count,
                           std::uint64_t max_bytes = run::kDefaultMaxRunBytes);

/// Candidates evaluated per second of CPU time (per core), 0 when nothing was timed.
double per_core_rate(const Report& r);

nlohmann::ordered_json report_json(const Report& r);
/// The ranked table, the counts and the Pareto front, for a terminal.
std::string report_text(const Report& r);
/// One row per ranked kernel (status=best) and per Pareto point (status=pareto).
std::string report_csv(const Report& r);

/// Joins the JSON of shards of one search (E-TUNE-006 for a file that is not `tujit tune --json`
/// output, comes from another problem or search space, or repeats a shard). Shards not seen are a
/// note, not an error.
Result<Report> merge_reports(const std::vector<std::string>& paths);

} // namespace tujit::tune
