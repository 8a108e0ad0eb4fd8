// Reports of the cycle models (docs/cli.md `tujit cycles`): the JSON document, a text table for
// people, and the summary `tujit explain` and `tujit run --json` embed.
#pragma once

#include "harness/cycles/cycle_model.h"
#include "ir/seq/contraction_program.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tujit::cycles {

/// Both models of one program.
struct CycleReport {
  AnalyticCycles analytic;
  TraceCycles trace;
  std::uint64_t live_slices = 1; // slices running this program in lock-step
  double agreement = 1.0;        // 1 − |analytic − trace| / trace of the totals
};

CycleReport cycle_report(const ir::seq::ContractionProgram& program,
                         const CycleOptions& options = {}, bool record_timeline = false);

nlohmann::ordered_json analytic_json(const AnalyticCycles& a);
nlohmann::ordered_json trace_json(const TraceCycles& t);

/// `tujit cycles --json` without the "kernel" field: {"slices", "analytic": {total, stages,
/// bottleneck, mac_utilization, …}, "trace": {total, stages: {name: {busy, stall, first, last}},
/// trf_cache_hits, trf_bank_conflicts, …}, "agreement"}.
nlohmann::ordered_json cycle_report_json(const CycleReport& r);

/// The cycle summary for `tujit explain --json` / `tujit run --json` (both models, as above).
/// Pass cycle_options_for(kernel) when the kernel is at hand (a TRF store, a fetch cast).
nlohmann::ordered_json cycle_summary_json(const ir::seq::ContractionProgram& program,
                                          const CycleOptions& options = {});

/// The same for a person (tujit cycles, tujit explain): one line per stage, both models.
std::string cycle_summary_text(const CycleReport& r);
std::string cycle_summary_text(const ir::seq::ContractionProgram& program,
                               const CycleOptions& options = {});

} // namespace tujit::cycles
