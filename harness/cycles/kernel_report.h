// Reports of a whole kernel's cycles (kernel_cycles.h) for `tujit cycles`: the JSON document and
// the text for a person. The command the kernel leads with (its contraction, else its last
// command) keeps the chain report's top-level fields (cycle_report.h); every command and the
// kernel's schedule are listed next to it.
#pragma once

#include "harness/cycles/kernel_cycles.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tujit::cycles {

/// Both models of one data-path command: {"total", "stages": {name: …}, "bottleneck", "fetch":
/// {read_size, reads_per_packet, flits_per_packet, reads, adapter_latency}, "trf": {…}}.
nlohmann::ordered_json datapath_json(const DataPathCycles& d, const DataPathCommand& c, bool trace);

/// `tujit cycles --json` without the "kernel" field: the main command's report (cycle_report_json
/// for a chain; for a data-path command {"slices", "analytic", "trace", "agreement"}), then
/// "commands" (each with its statement, context, form, set-up, both models' cycles and slots) and
/// "schedule" ({"analytic": {total, period}, "trace": {…}, "agreement", "double_buffered"}).
nlohmann::ordered_json kernel_cycles_json(const KernelCycles& k);

/// The same for a person: the command table and schedule, then each command's stage table.
std::string kernel_cycles_text(const KernelCycles& k);

/// The main command's trace as a chain report, for the timeline picture (timeline_svg.h).
CycleReport timeline_report(const KernelCycles& k);

} // namespace tujit::cycles
