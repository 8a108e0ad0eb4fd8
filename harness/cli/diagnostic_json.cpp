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
