// JUnit XML as GitLab, Jenkins and GitHub test reporters read it (docs/ci.md): <testsuites>, one
// <testsuite> per spec file, one <testcase> per kernel (classname = the file), a <failure> whose
// message is the first diagnostic's `file:line:col: error[CODE]: message` and whose text is every
// diagnostic as `tujit check` prints it; an internal error of tujit is an <error>.
#include "harness/report/report.h"

#include <fmt/format.h>

#include <ostream>

namespace tujit::report {

namespace {

/// Text or attribute content: the five markup characters escaped, characters XML 1.0 cannot
/// hold (C0 controls but tab, LF, CR; U+FFFE, U+FFFF) replaced by U+FFFD, line breaks in
/// attributes kept as character references.
std::string xml(std::string_view raw, bool attribute) {
  const std::string s = valid_utf8(raw);
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    switch (c) {
    case '&':
      out += "&amp;";
      continue;
    case '<':
      out += "&lt;";
      continue;
    case '>':
      out += "&gt;";
      continue;
    case '"':
      out += attribute ? "&quot;" : "\"";
      continue;
    case '\n':
      out += attribute ? "&#10;" : "\n";
      continue;
    case '\r':
      out += "&#13;";
      continue;
    case '\t':
      out += attribute ? "&#9;" : "\t";
      continue;
    default:
      break;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      out += "\xEF\xBF\xBD";
    } else if (s.compare(i, 3, "\xEF\xBF\xBE") == 0 || s.compare(i, 3, "\xEF\xBF\xBF") == 0) {
      out += "\xEF\xBF\xBD";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

std::string attr(std::string_view s) {
  return xml(s, true);
}

std::string seconds(double s) {
  return fmt::format("{:.3f}", s < 0 ? 0.0 : s);
}

struct Counts {
  std::size_t tests = 0, failures = 0, errors = 0;
  double time = 0;
  void add(const ReportRecord& r) {
    ++tests;
    failures += r.outcome == ReportRecord::Outcome::Failed;
    errors += r.outcome == ReportRecord::Outcome::InternalError;
    time += r.seconds;
  }
  std::string attributes() const {
    return fmt::format(R"(tests="{}" failures="{}" errors="{}")", tests, failures, errors);
  }
};

void write_case(const ReportRecord& r, std::ostream& out) {
  out << "    <testcase name=\"" << attr(r.name) << "\" classname=\"" << attr(r.file)
      << "\" file=\"" << attr(r.file) << "\"";
  if (r.location) out << " line=\"" << r.location->line << "\"";
  out << " time=\"" << seconds(r.seconds) << "\">\n";
  std::string failing, expected;
  const ReportDiagnostic* first = nullptr;
  for (const auto& d : r.diagnostics) {
    (d.expected ? expected : failing) += d.rendered;
    if (!first && !d.expected && d.severity == Severity::Error) first = &d;
  }
  if (r.failed()) {
    const char* tag = r.outcome == ReportRecord::Outcome::InternalError ? "error" : "failure";
    out << "      <" << tag << " message=\"" << attr(first ? first->headline() : r.summary)
        << "\" type=\"" << attr(first ? first->code : "tujit") << "\">" << xml(failing, false)
        << "</" << tag << ">\n";
  }
  std::string system_out = r.output;
  if (!expected.empty()) system_out += r.summary + ":\n" + expected;
  if (!r.failed() && !failing.empty()) system_out += failing; // warnings of a passing kernel
  if (!system_out.empty())
    out << "      <system-out>" << xml(system_out, false) << "</system-out>\n";
  out << "    </testcase>\n";
}

} // namespace

void write_junit(const Report& r, std::ostream& out) {
  Counts all;
  for (const auto& rec : r.records) all.add(rec);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"tujit " << attr(r.command) << "\" " << all.attributes() << " time=\""
      << seconds(r.seconds) << "\">\n";
  // Records of one file are adjacent (commands emit them file by file): one suite each.
  for (std::size_t begin = 0; begin < r.records.size();) {
    std::size_t end = begin;
    Counts suite;
    while (end < r.records.size() && r.records[end].file == r.records[begin].file)
      suite.add(r.records[end++]);
    out << "  <testsuite name=\"" << attr(r.records[begin].file) << "\" " << suite.attributes()
        << " skipped=\"0\" time=\"" << seconds(suite.time) << "\">\n";
    for (std::size_t i = begin; i < end; ++i) write_case(r.records[i], out);
    out << "  </testsuite>\n";
    begin = end;
  }
  out << "</testsuites>\n";
}

} // namespace tujit::report
