#include "harness/cli/diagnostic_json.h"

#include <string>
#include <tuple>

namespace tujit::cli {

nlohmann::json diagnostic_fields(const Diagnostic& d) {
  nlohmann::json j = {{"severity", std::string(to_string(d.severity))},
                      {"code", d.code},
                      {"stage", d.stage},
                      {"message", d.message}};
  j["notes"] = d.notes;
  return j;
}

nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer& src) {
  std::uint32_t line = 0, col = 0;
  if (d.span) std::tie(line, col) = src.line_col(d.span->offset);
  nlohmann::json j = diagnostic_fields(d);
  j["file"] = src.name();
  j["line"] = line;
  j["col"] = col;
  return j;
}

} // namespace tujit::cli

namespace tujit::cli {

nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer* src) {
  if (src) return diagnostic_json(d, *src);
  nlohmann::json j = diagnostic_fields(d);
  j["file"] = "";
  j["line"] = 0;
  j["col"] = 0;
  return j;
}

nlohmann::ordered_json failure_document(std::string_view command, int status,
                                        const nlohmann::json& diagnostics) {
  return {{"command", std::string(command)},
          {"ok", false},
          {"exit_status", status},
          {"diagnostics", diagnostics}};
}

void report(CommandIO& io, const Diagnostic& d, const SourceBuffer* src) {
  io.err << render(d, src);
  io.reported.push_back(diagnostic_json(d, src).dump());
}

int report_all(CommandIO& io, const Diagnostics& ds, const SourceBuffer* src, int status) {
  for (const auto& d : ds) report(io, d, src);
  return status;
}

} // namespace tujit::cli
