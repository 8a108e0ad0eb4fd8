#include "harness/cli/stage_report.h"

#include "harness/cli/derived_json.h"
#include "harness/cli/diagnostic_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ostream>

namespace tujit::cli {

namespace {

// Like the other commands' diagnostics, plus the rule as a field; located only when the
// diagnostic points into an option's text.
nlohmann::json stage_diagnostic_json(const Diagnostic& d, const SourceBuffer* src) {
  nlohmann::json j = diagnostic_fields(d);
  // rule_error (ir/support/diagnostic.h) puts "rule: NAME" first among the notes; scripts want it
  // as a field.
  constexpr std::string_view kRulePrefix = "rule: ";
  for (const auto& n : d.notes) {
    if (n.rfind(kRulePrefix, 0) == 0) {
      j["rule"] = n.substr(kRulePrefix.size());
      break;
    }
  }
  if (src && d.span) {
    auto [line, col] = src->line_col(d.span->offset);
    j["file"] = src->name();
    j["line"] = line;
    j["col"] = col;
  }
  return j;
}

} // namespace

int report_failure(const std::vector<Reported>& ds, std::string_view op, bool json, CommandIO& io) {
  for (const auto& r : ds) report(io, r.diagnostic, r.source ? &*r.source : nullptr);
  if (json) {
    nlohmann::json doc = {{"ok", false}, {"op", std::string(op)}};
    doc["diagnostics"] = nlohmann::json::array();
    for (const auto& r : ds)
      doc["diagnostics"].push_back(
          stage_diagnostic_json(r.diagnostic, r.source ? &*r.source : nullptr));
    io.out << doc.dump(2) << "\n";
  }
  return kExitUserError;
}

std::vector<Reported> with_source(const Diagnostics& ds, const std::string& source_name,
                                  const std::string& text) {
  std::vector<Reported> out;
  for (const auto& d : ds) out.push_back({d, SourceBuffer(source_name, text)});
  return out;
}

int report_derived(const StageOp& op, const ir::verify::DerivedTable& derived, bool json,
                   CommandIO& io) {
  if (json) {
    nlohmann::json doc = {
        {"ok", true}, {"op", std::string(op.name)}, {"derived", to_json(derived)}};
    io.out << doc.dump(2) << "\n";
    return kExitOk;
  }
  std::size_t width = 0;
  for (const auto& [key, value] : derived) width = std::max(width, key.size());
  io.out << "ok: " << op.name << "\n";
  for (const auto& [key, value] : derived)
    io.out << "  " << key << std::string(width - key.size() + 2, ' ') << to_text(value) << "\n";
  return kExitOk;
}

} // namespace tujit::cli
