// `tujit tune --plot PATH.svg` (docs/tune.md §4): modelled cycles against live slices, drawn by
// gnuplot — every modelled candidate as a dot, the Pareto front (fewest cycles on at most that
// many slices) as a step line, the ranked kernels highlighted.
#pragma once

#include "harness/plot/gnuplot_svg.h"
#include "harness/tune/tune_report.h"

#include <string>

namespace tujit::tune {

/// The data files and script (exposed for tests).
plot::GnuplotJob tune_plot_job(const Report& r);

/// Draws `r` into `path` (E-TUNE-007 when gnuplot is missing or fails; E-IO-002 when `path`
/// exists and not `overwrite`).
Status write_tune_plot(const Report& r, const std::string& path, bool overwrite);

} // namespace tujit::tune
