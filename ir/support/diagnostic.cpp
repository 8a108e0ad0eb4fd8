#include "ir/support/diagnostic.h"

#include <algorithm>

namespace tujit {

std::string_view to_string(Severity s) {
  switch (s) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

SourceBuffer::SourceBuffer(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

std::pair<std::uint32_t, std::uint32_t> SourceBuffer::line_col(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  auto line = static_cast<std::uint32_t>(it - line_starts_.begin()); // 1-based
  return {line, offset - line_starts_[line - 1] + 1};
}

std::string_view SourceBuffer::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  std::uint32_t begin = line_starts_[line - 1];
  std::uint32_t end = line < line_starts_.size() ? line_starts_[line] - 1
                                                 : static_cast<std::uint32_t>(text_.size());
  if (end > begin && text_[end - 1] == '\r') --end;
  return std::string_view(text_).substr(begin, end - begin);
}

namespace {
// Long lines (a 10 MB line is legal input) are shown as a window around the caret.
constexpr std::size_t kMaxShownLine = 160;
} // namespace

std::string render(const Diagnostic& d, const SourceBuffer* source) {
  std::string out;
  std::string head = std::string(to_string(d.severity));
  if (!d.code.empty()) head += "[" + d.code + "]";
  if (source && d.span) {
    auto [line, col] = source->line_col(d.span->offset);
    out += source->name() + ":" + std::to_string(line) + ":" + std::to_string(col) + ": ";
    out += head + ": " + d.message + "\n";
    std::string_view text = source->line_text(line);
    std::size_t caret = col - 1;
    std::size_t window_begin = 0;
    if (text.size() > kMaxShownLine) {
      window_begin = caret > kMaxShownLine / 2 ? caret - kMaxShownLine / 2 : 0;
      text = text.substr(window_begin, kMaxShownLine);
    }
    std::string shown;
    for (char c : text) shown += (c == '\t') ? ' ' : c;
    out += "  " + shown + "\n";
    std::size_t width = std::max<std::size_t>(1, d.span->length);
    std::size_t rel = caret - window_begin;
    width = std::min(width, shown.size() > rel ? shown.size() - rel : std::size_t{1});
    out += "  " + std::string(rel, ' ') + std::string(std::max<std::size_t>(width, 1), '^') + "\n";
  } else {
    out += head + ": " + d.message + "\n";
  }
  for (const auto& n : d.notes) out += "  note: " + n + "\n";
  return out;
}

bool has_errors(const Diagnostics& ds) {
  return std::any_of(ds.begin(), ds.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

Diagnostic make_error(std::string code, std::string message, std::optional<SourceSpan> span,
                      std::vector<std::string> notes) {
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.span = span;
  d.notes = std::move(notes);
  return d;
}

Diagnostic run_error(std::string code, std::string message, std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
  d.stage = "run";
  return d;
}

Diagnostic rule_error(std::string code, std::string stage, std::string rule_name,
                      std::string message, std::vector<std::string> notes) {
  Diagnostic d = make_error(std::move(code), std::move(message), std::nullopt, std::move(notes));
  d.stage = std::move(stage);
  d.notes.insert(d.notes.begin(), "rule: " + rule_name);
  return d;
}

} // namespace tujit
