// CI reports (docs/ci.md): JUnit XML, SARIF 2.1.0 and GitHub workflow commands, written from one
// record per kernel that `tujit check`, `run` or `cycles` checked, ran or timed. Every format is
// made from the same records; a Diagnostic becomes a ReportDiagnostic in one place
// (report_diagnostic), so a code, a message or a file:line:col reads the same in every format.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::report {

/// A position in a spec file: 1-based line and column of the first byte, and of the byte after
/// the last one (end_line 0 when the diagnostic marks no range).
struct Location {
  std::string file;
  std::uint32_t line = 0, col = 0;
  std::uint32_t end_line = 0, end_col = 0;
};

/// Where `span` lies in `source`.
Location location_of(const SourceBuffer& source, SourceSpan span);

struct ReportDiagnostic {
  Severity severity = Severity::Error;
  std::string code;
  std::string stage;
  std::string message;
  std::vector<std::string> notes;
  std::optional<Location> location;
  /// As `tujit check` prints it: `file:line:col: error[CODE]: message`, the source line, the
  /// caret and the notes.
  std::string rendered;
  /// A refusal the spec asks for (`// tujit: expect CODE`): reported, but no failure.
  bool expected = false;
  /// The first line of `rendered`: `file:line:col: error[CODE]: message`.
  std::string headline() const;
};

/// The one conversion every format uses. Strings are made valid UTF-8 (a spec file may hold any
/// bytes; every format needs text).
ReportDiagnostic report_diagnostic(const Diagnostic& d, const SourceBuffer* source,
                                   bool expected = false);

/// A test case of a report: one kernel of one file.
struct ReportRecord {
  enum class Outcome { Passed, Failed, InternalError };
  std::string file;                 // the spec file as named on the command line
  std::string name;                 // the kernel; the file name when the file defines no kernel
  std::optional<Location> location; // the kernel's name in the file
  Outcome outcome = Outcome::Passed;
  std::string summary; // one line: "ok", "refused as expected (E-TIME-004)", …
  std::string output;  // what the command printed about the kernel (JUnit system-out)
  double seconds = 0;
  std::vector<ReportDiagnostic> diagnostics;
  bool failed() const { return outcome != Outcome::Passed; }
};

struct Report {
  std::string command; // "check", "run", "cycles"
  std::vector<ReportRecord> records;
  std::string summary; // the command's closing line ("3 kernels: 2 ok, 1 refused")
  double seconds = 0;
};

/// Every diagnostic of the report once, with the record it belongs to: a file-level diagnostic
/// is attached to each kernel of its file, but it is one finding.
struct Finding {
  const ReportRecord* record;
  const ReportDiagnostic* diagnostic;
};
std::vector<Finding> distinct_findings(const Report& r);

/// `--format` of check, run and cycles. Text and Json are each command's own (human text,
/// the `--json` document); the others are written from a Report.
enum class ReportFormat { Text, Json, Junit, Sarif, Github };
inline constexpr std::string_view kReportFormats = "text|json|junit|sarif|github";
std::optional<ReportFormat> parse_report_format(std::string_view name);
bool is_ci_format(ReportFormat f);

/// JUnit XML: one <testsuite> per file, one <testcase> per record (junit_report.cpp).
void write_junit(const Report& r, std::ostream& out);
/// SARIF 2.1.0: one result per diagnostic, rules from docs/errors.md (sarif_report.cpp).
void write_sarif(const Report& r, std::ostream& out);
/// GitHub Actions workflow commands: `::error file=…,line=…,col=…::…` per diagnostic, plain
/// lines for the records and the summary (github_report.cpp).
void write_github(const Report& r, std::ostream& out);
/// One of the three above (Junit, Sarif, Github).
void write_report(ReportFormat f, const Report& r, std::ostream& out);

/// `s` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view s);

} // namespace tujit::report
