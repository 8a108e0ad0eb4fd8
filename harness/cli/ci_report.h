// `--format text|json|junit|sarif|github` of check, run and cycles (docs/ci.md), and the
// one-kernel report of run and cycles under a CI format: the command's usual text goes to stderr
// (and into the test case's output), stdout holds only the report document.
#pragma once

#include "harness/cli/command.h"
#include "harness/report/report.h"
#include "ir/lang/kernel.h"

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include <chrono>
#include <optional>
#include <sstream>
#include <string>

namespace tujit::cli {

/// The `--format` option.
boost::program_options::options_description format_option();

/// The format `--format` names (`--json` is `--format json`). A usage error (exit 2) for an
/// unknown name or a --json that contradicts --format.
std::optional<int> read_format(std::string_view cmd,
                               const boost::program_options::variables_map& vm, bool json,
                               CommandIO& io, report::ReportFormat& out);

/// One kernel's outcome of `tujit run` / `tujit cycles` as a CI report.
class KernelReport {
public:
  KernelReport(std::string command, report::ReportFormat format, CommandIO& io);
  bool ci() const { return report::is_ci_format(format_); }
  /// Where the command prints its text report: stdout, or under a CI format a buffer that
  /// finish() copies to stderr and into the test case.
  std::ostream& text() { return ci() ? buffer_ : io_.out; }
  /// Ends the command with `status`: prints `diagnostics` rendered on stderr (unless the caller
  /// already did: `shown`), and under a CI format writes the report of one test case (the
  /// kernel, or the file when no kernel was picked) on stdout. Usage errors (exit 2) write no
  /// report. Returns `status`.
  int finish(int status, const std::string& file, const ir::Kernel* kernel,
             const SourceBuffer* source, const Diagnostics& diagnostics, bool shown = false);

private:
  std::string command_;
  report::ReportFormat format_;
  CommandIO& io_;
  std::ostringstream buffer_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

} // namespace tujit::cli
