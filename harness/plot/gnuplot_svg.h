// Running gnuplot as a subprocess to draw an SVG (`tujit bench --plot`, `tujit cycles
// --timeline`): the data files and the script go to a private temporary directory, gnuplot writes
// a temporary file next to the target, which is renamed into place when complete, so a reader
// never sees a half-drawn picture.
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
  /// The script, given the temporary directory (where the data files are) and the SVG path
  /// gnuplot must write.
  std::function<std::string(const std::string& dir, const std::string& svg)> script;
};

/// Draws `job` into `path`. Refuses an existing `path` unless `overwrite` (E-IO-002).
/// `error_code` (e.g. "E-BENCH-008") with `stage` when gnuplot is missing or fails, naming
/// `option`.
Status write_gnuplot_svg(const GnuplotJob& job, const std::string& path, bool overwrite,
                         const std::string& error_code, const std::string& option,
                         const std::string& stage);

} // namespace tujit::plot
