// Running gnuplot as a subprocess to draw an SVG (`tujit bench --plot`, `tujit cycles
// --timeline`): the data files and the script go to a private temporary directory; gnuplot
// writes the picture on its stdout, a pipe tujit reads into runtime/io/output_file.h (the one
// writer: a temporary next to the target, checked writes, fsync, rename). The picture is
// published only when gnuplot exits 0 and the SVG is complete, so a reader never sees a
// half-drawn or empty picture, and a full disk is an error, not "written".
#pragma once

#include "ir/support/diagnostic.h"

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace tujit::plot {

/// gnuplot from $TUJIT_GNUPLOT, else from $PATH.
std::optional<std::string> find_gnuplot();

/// A gnuplot string literal ("…" with `"` and `\` escaped).
std::string gp_string(const std::string& s);

struct GnuplotJob {
  /// File name (inside the temporary directory) → contents.
  std::map<std::string, std::string> data_files;
  /// The script, given the temporary directory (where the data files are). It selects the svg
  /// terminal and sets no output: gnuplot then draws on its stdout.
  std::function<std::string(const std::string& dir)> script;
};

/// Draws `job` into `path` (runtime/io/output_file.h: E-IO-002 for an existing `path` without
/// `overwrite`, E-IO-003 when it is not a regular file, E-IO-004 when it cannot be written).
/// `error_code` (e.g. "E-BENCH-008") with `stage` when gnuplot is missing, fails or draws no
/// complete SVG, naming `option`.
Status write_gnuplot_svg(const GnuplotJob& job, const std::string& path, bool overwrite,
                         const std::string& error_code, const std::string& option,
                         const std::string& stage);

} // namespace tujit::plot
