#include "harness/report/report.h"

#include <ostream>
#include <set>
#include <tuple>

namespace tujit::report {

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    // Sequence length and the smallest code point of that length (overlong forms are invalid).
    std::size_t n = b < 0x80           ? 1
                    : (b >> 5) == 0x6  ? 2
                    : (b >> 4) == 0xE  ? 3
                    : (b >> 3) == 0x1E ? 4
                                       : 0;
    std::uint32_t cp = n == 1 ? b : n == 2 ? (b & 0x1Fu) : n == 3 ? (b & 0x0Fu) : (b & 0x07u);
    bool ok = n != 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      ok = (c >> 6) == 0x2;
      cp = (cp << 6) | (c & 0x3Fu);
    }
    static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= kMin[n] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD"; // U+FFFD
      ++i;
    }
  }
  return out;
}

std::string ReportDiagnostic::headline() const {
  return rendered.substr(0, rendered.find('\n'));
}

ReportDiagnostic report_diagnostic(const Diagnostic& d, const SourceBuffer* source, bool expected) {
  ReportDiagnostic r;
  r.severity = d.severity;
  r.code = d.code;
  r.stage = d.stage;
  r.message = valid_utf8(d.message);
  for (const auto& n : d.notes) r.notes.push_back(valid_utf8(n));
  r.rendered = valid_utf8(render(d, source));
  r.expected = expected;
  if (source && d.span) r.location = location_of(*source, *d.span);
  return r;
}

Location location_of(const SourceBuffer& source, SourceSpan span) {
  Location at;
  at.file = valid_utf8(source.name());
  std::tie(at.line, at.col) = source.line_col(span.offset);
  if (span.length > 0) std::tie(at.end_line, at.end_col) = source.line_col(span.end());
  return at;
}

std::vector<Finding> distinct_findings(const Report& r) {
  std::vector<Finding> out;
  std::set<std::tuple<std::string, std::string, std::uint32_t, std::uint32_t, std::string>> seen;
  for (const auto& rec : r.records)
    for (const auto& d : rec.diagnostics) {
      const Location at = d.location.value_or(Location{rec.file});
      if (seen.emplace(d.code, at.file, at.line, at.col, d.message).second)
        out.push_back({&rec, &d});
    }
  return out;
}

std::optional<ReportFormat> parse_report_format(std::string_view name) {
  if (name == "text") return ReportFormat::Text;
  if (name == "json") return ReportFormat::Json;
  if (name == "junit") return ReportFormat::Junit;
  if (name == "sarif") return ReportFormat::Sarif;
  if (name == "github") return ReportFormat::Github;
  return std::nullopt;
}

bool is_ci_format(ReportFormat f) {
  return f == ReportFormat::Junit || f == ReportFormat::Sarif || f == ReportFormat::Github;
}

void write_report(ReportFormat f, const Report& r, std::ostream& out) {
  switch (f) {
  case ReportFormat::Junit:
    return write_junit(r, out);
  case ReportFormat::Sarif:
    return write_sarif(r, out);
  case ReportFormat::Github:
    return write_github(r, out);
  case ReportFormat::Text:
  case ReportFormat::Json:
    break;
  }
}

} // namespace tujit::report
