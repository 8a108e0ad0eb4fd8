// `tujit cycles --timeline PATH.svg`: the trace's per-stage busy/stall timeline of one slice, drawn
// by gnuplot (a subprocess) so a person sees the bottleneck at a glance: one row per stage, green
// where it works, red where it waits, the bottleneck's row labelled.
#pragma once

#include "harness/cycles/cycle_report.h"
#include "ir/support/diagnostic.h"

#include <string>

namespace tujit::cycles {

/// The gnuplot script and data for `report` (trace run with record_timeline = true), as text;
/// the script draws on gnuplot's stdout. Exposed for tests.
struct TimelinePlot {
  std::string script;
  std::string data;
};
TimelinePlot timeline_plot(const CycleReport& report, const std::string& kernel,
                           const std::string& data_path);

/// Draws the timeline into `path` (harness/plot/gnuplot_svg.h: published whole or not at all).
/// gnuplot is taken from $TUJIT_GNUPLOT, else from $PATH. E-CYCLES-002 when it is missing or
/// fails; E-IO-002 when `path` exists and not `overwrite`, E-IO-003 / E-IO-004 when it cannot be
/// written.
Status write_timeline_svg(const CycleReport& report, const std::string& kernel,
                          const std::string& path, bool overwrite);

} // namespace tujit::cycles
