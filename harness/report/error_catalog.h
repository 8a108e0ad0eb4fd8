// docs/errors.md as data: every diagnostic code with its rule name, meaning, failing example and
// fix, read from the tables of the document itself (compiled into tujit at build time,
// harness/report/embed_text.cmake), so the help SARIF attaches to a rule has one source.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace tujit::report {

struct ErrorEntry {
  std::string code;
  std::string rule; // the verifier's rule name where the table has a `rule` column
  std::string meaning;
  std::string example;
  std::string fix;
  std::string section; // the heading the table is under
};

/// Parses the Markdown tables of docs/errors.md: a header row starting `| code |` names the
/// columns (`severity`, `rule`, `meaning`, `minimal failing example …`, `fix`); each row starting
/// `| E-` is one entry. `\|` is a literal pipe inside a cell.
std::map<std::string, ErrorEntry> parse_error_catalog(std::string_view markdown);

/// docs/errors.md as built into this tujit.
std::string_view errors_markdown();
/// parse_error_catalog(errors_markdown()), parsed once.
const std::map<std::string, ErrorEntry>& error_catalog();

} // namespace tujit::report
