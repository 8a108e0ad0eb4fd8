// `tujit bench --plot PATH.svg`: one SVG of three panels, drawn by gnuplot, each readable without
// the JSON: (a) simulated MAC/s against problem size for the JIT, the interpreter and OpenBLAS
// sgemm (with the FMA peak as a line), (b) modelled cycles per kernel / sweep point in rank order,
// (c) analytic against trace cycles (the two cycle models; on the diagonal they agree).
#pragma once

#include "harness/bench/bench_types.h"
#include "harness/plot/gnuplot_svg.h"
#include "ir/support/diagnostic.h"

#include <string>

namespace tujit::bench {

using plot::GnuplotJob;
using plot::gp_string;

/// The data files and script (exposed for tests).
GnuplotJob bench_plot_job(const BenchReport& report, const std::string& title);

/// Draws the report into `path` (E-BENCH-008 when gnuplot is missing or fails; E-IO-002 when
/// `path` exists and not `overwrite`, or cannot be written).
Status write_bench_plot(const BenchReport& report, const std::string& title,
                        const std::string& path, bool overwrite);

} // namespace tujit::bench
