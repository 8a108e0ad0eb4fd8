// GitHub Actions workflow commands (docs/ci.md): each diagnostic becomes
// `::error title=CODE,file=F,line=L,col=C::message`, which the runner turns into an annotation on
// the file's line in the pull request. Properties come in the order and with the escaping of the
// Actions toolkit (`@actions/core`: `%` `\r` `\n` in the message, also `:` `,` in properties);
// every other line is plain log text.
#include "harness/report/report.h"

#include <ostream>

namespace tujit::report {

namespace {

std::string escape_data(std::string_view s) {
  std::string out;
  for (const char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

std::string escape_property(std::string_view s) {
  std::string out;
  for (const char c : escape_data(s)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

std::string_view command(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "notice";
}

/// A plain log line must not be read as a command.
std::string plain(std::string_view s) {
  std::string out = valid_utf8(s);
  return out.starts_with("::") ? " " + out : out;
}

} // namespace

void write_github(const Report& r, std::ostream& out) {
  for (const auto& rec : r.records)
    out << plain(rec.file + ": " + rec.name + ": " + rec.summary) << "\n";
  for (const auto& [rec, d] : distinct_findings(r)) {
    if (d->expected) continue; // asked for by the spec: no annotation
    std::string props;
    // Appended piece by piece: `"," + std::string` trips g++ 12's false -Wrestrict at -O3.
    auto add = [&props](std::string_view key, const std::string& value) {
      if (!props.empty()) props += ',';
      props += key;
      props += '=';
      props += escape_property(value);
    };
    if (!d->code.empty()) add("title", d->code);
    const Location at = d->location.value_or(Location{rec->file});
    if (!at.file.empty()) add("file", valid_utf8(at.file));
    if (at.line != 0) add("line", std::to_string(at.line));
    if (at.col != 0) add("col", std::to_string(at.col));
    std::string text = d->message;
    for (const auto& n : d->notes) text += "\n" + n;
    out << "::" << command(d->severity) << (props.empty() ? "" : " ") << props
        << "::" << escape_data(valid_utf8(text)) << "\n";
  }
  if (!r.summary.empty()) out << plain(r.summary) << "\n";
}

} // namespace tujit::report
