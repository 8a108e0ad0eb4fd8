#include "harness/report/error_catalog.h"

#include <algorithm>
#include <vector>

namespace tujit::report {

namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

/// The cells of a table row `| a | b \| c | d |` → {"a", "b | c", "d"}.
std::vector<std::string> cells(std::string_view row) {
  std::vector<std::string> out;
  std::string cell;
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      out.push_back(trim(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  if (!trim(cell).empty()) out.push_back(trim(cell));
  if (!out.empty() && out.front().empty()) out.erase(out.begin()); // before the leading `|`
  return out;
}

} // namespace

std::map<std::string, ErrorEntry> parse_error_catalog(std::string_view markdown) {
  std::map<std::string, ErrorEntry> out;
  std::vector<std::string> header;
  std::string section;
  std::size_t pos = 0;
  while (pos < markdown.size()) {
    const auto eol = std::min(markdown.find('\n', pos), markdown.size());
    const std::string_view line = markdown.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.starts_with("#")) {
      section = trim(line.substr(line.find_first_not_of('#')));
    } else if (line.starts_with("| code |")) {
      header = cells(line);
    } else if (line.starts_with("| E-") && !header.empty()) {
      std::vector<std::string> row = cells(line);
      if (row.size() < 3) continue;
      auto column = [&header](std::string_view name) {
        for (std::size_t i = 0; i < header.size(); ++i)
          if (header[i].starts_with(name)) return i;
        return header.size();
      };
      ErrorEntry e;
      e.code = row[0];
      e.section = section;
      // The last two cells are the example and the fix; whatever a stray pipe added to the row
      // belongs to the meaning.
      e.fix = row.back();
      e.example = row[row.size() - 2];
      if (row.size() < header.size()) {
        // A short row lacks an optional column (rule, severity): its meaning is the cell before
        // the example.
        e.meaning = row[row.size() - 3];
      } else {
        const std::size_t meaning = std::min(column("meaning"), row.size() - 2);
        const std::size_t surplus = row.size() - header.size();
        for (std::size_t i = meaning; i < row.size() - 2 && i <= meaning + surplus; ++i)
          e.meaning += (e.meaning.empty() ? "" : " | ") + row[i];
        if (const std::size_t r = column("rule"); r < meaning) e.rule = row[r];
      }
      out.emplace(e.code, std::move(e));
    }
  }
  return out;
}

const std::map<std::string, ErrorEntry>& error_catalog() {
  static const std::map<std::string, ErrorEntry> catalog = parse_error_catalog(errors_markdown());
  return catalog;
}

} // namespace tujit::report
