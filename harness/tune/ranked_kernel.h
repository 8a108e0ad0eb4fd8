// A ranked candidate as `tujit tune` reports it (docs/tune.md §4): its spec text, the facts of the
// table, and the proof that the text is the kernel that was ranked — the emitted spec, read back
// by the front end and checked by `tujit check`'s verifiers, lowers to a program the analytic
// model gives the same cycles, and the trace model times alongside.
#pragma once

#include "harness/tune/tuner.h"

#include <cstdint>
#include <map>
#include <string>

namespace tujit::tune {

struct Entry {
  std::uint64_t rank = 0;  // 1-based, in the report it belongs to
  std::uint64_t index = 0; // the choice's position in the search space
  std::uint64_t cycles = 0, trace_cycles = 0;
  double mac_utilization = 0;
  std::string bottleneck;
  std::uint64_t live_slices = 0, trf_bytes = 0, trf_misses = 0, lanes = 1;
  std::uint64_t pack_size = 1, time_broadcast = 1, read_size = 1;
  std::string read_width; // "wide" | "narrow"
  std::uint64_t inner_time = 1, slot_capacity = 1;
  std::string lane_mode;                       // "Interleaved" | "Sequential"
  std::map<std::string, std::string> mappings; // slot → `m![…]` body text
  std::string mapping;                         // mapping_summary()
  std::string spec;                            // the kernel as a spec file
};

/// Ranking order of reported entries (the same key as ranks_before).
bool entry_before(const Entry& a, const Entry& b);

/// Builds the entry of `r`: rebuilds its chain, writes its spec text (header: how to reproduce
/// it and what it models), reads the text back through the front end and the kernel checker,
/// and times it with both cycle models. A kernel `tujit run` would refuse as larger than
/// `max_bytes` is refused (E-LIMIT-002, harness/run/run_footprint.h) before it is lowered. Any
/// disagreement with the search's score is a bug in tujit: E-TUNE-011 with what differed.
Result<Entry> ranked_entry(const Problem& p, const Ranked& r, std::uint64_t space,
                           std::uint64_t max_bytes);

} // namespace tujit::tune
