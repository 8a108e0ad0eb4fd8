// The whole-kernel schedule as `tujit cycles` reports it (docs/cycle-model.md §14, docs/cli.md
// §7): the JSON "timeline" object, the text a person reads under the command table, and the
// Chrome trace event file that Perfetto and chrome://tracing open.
#pragma once

#include "harness/cycles/kernel_cycles.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tujit::cycles {

/// {"values": [{memory, name, bytes, address, writer, readers, returned}], "commands": [{index,
/// track, holds, waits: [{command, why, what}], analytic: {start, end, bound_by}, trace:
/// {…}}], "analytic": {makespan, critical_path, busy: {track: cycles}}, "trace": {…}, "notes"}.
/// Command indices count from 0, as in "commands" of kernel_cycles_json.
nlohmann::ordered_json schedule_json(const KernelCycles& k);

/// "schedule (trace model): …": the makespan, each track's busy share, the critical path with
/// what each step waited for, and the placement's notes.
std::string schedule_text(const KernelCycles& k);

/// The Chrome trace event format (JSON object form): one process per cycle model, one track
/// (thread) per context and per engine, each command a complete event on its context and on
/// every engine it drives, each data or engine dependency a flow event; times in microseconds of
/// the 1 GHz clock (target::TensorUnitDescription::clock_hz).
nlohmann::ordered_json chrome_trace_json(const ir::Kernel& kernel, const KernelCycles& k);

/// Writes chrome_trace_json into `path` (runtime/io/output_file.h: E-IO-002 for an existing
/// file without `overwrite`, E-IO-003 / E-IO-004 when it cannot be written).
Status write_chrome_trace(const ir::Kernel& kernel, const KernelCycles& k, const std::string& path,
                          bool overwrite);

} // namespace tujit::cycles
