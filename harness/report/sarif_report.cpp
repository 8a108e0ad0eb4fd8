// SARIF 2.1.0 (OASIS), as GitHub code scanning uploads it (docs/ci.md): one run of the tool
// "tujit"; one rule per diagnostic code, with the meaning, failing example and fix of
// docs/errors.md (error_catalog.h); one result per diagnostic at its file:line:col. A refusal the
// spec expects (`// tujit: expect CODE`) is a result with an in-source suppression, which code
// scanning shows as dismissed.
#include "harness/report/error_catalog.h"
#include "harness/report/report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <ostream>

namespace tujit::report {

namespace {

using ojson = nlohmann::ordered_json;

std::string_view level(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}

/// A relative path stays a relative URI reference (code scanning resolves it against the
/// checkout); an absolute one becomes a file:// URI. Bytes outside the URI's unreserved set and
/// `/` are percent-encoded.
std::string artifact_uri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = path.starts_with('/') ? "file://" : "";
  for (const char c : path) {
    const auto b = static_cast<unsigned char>(c);
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += c;
    } else {
      out += '%';
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
    }
  }
  return out;
}

ojson rule_json(const std::string& code, Severity severity) {
  ojson rule = {{"id", code}};
  const auto& catalog = error_catalog();
  const auto it = catalog.find(code);
  if (it == catalog.end()) {
    rule["defaultConfiguration"] = {{"level", level(severity)}};
    return rule;
  }
  const ErrorEntry& e = it->second;
  if (!e.rule.empty() && e.rule != "—") rule["name"] = e.rule;
  rule["shortDescription"] = {{"text", valid_utf8(e.meaning)}};
  rule["fullDescription"] = {{"text", valid_utf8(e.section + ": " + e.meaning)}};
  rule["help"] = {{"text", valid_utf8("Failing example: " + e.example + "\nFix: " + e.fix)},
                  {"markdown", valid_utf8("**Failing example:** " + e.example + "\n\n**Fix:** " +
                                          e.fix + "\n\n(docs/errors.md, " + e.section + ")")}};
  rule["defaultConfiguration"] = {{"level", level(severity)}};
  return rule;
}

ojson location_json(const Location& at) {
  ojson region = {{"startLine", at.line}, {"startColumn", at.col}};
  if (at.end_line != 0) {
    region["endLine"] = at.end_line;
    region["endColumn"] = at.end_col;
  }
  return {{"physicalLocation",
           {{"artifactLocation", {{"uri", artifact_uri(at.file)}}}, {"region", region}}}};
}

ojson result_json(const ReportDiagnostic& d, const ReportRecord& rec, std::size_t rule_index) {
  std::string text = d.message;
  for (const auto& n : d.notes) text += "\n" + n;
  ojson r = {{"ruleId", d.code},
             {"ruleIndex", rule_index},
             {"level", level(d.severity)},
             {"message", {{"text", text}}}};
  if (d.location)
    r["locations"] = ojson::array({location_json(*d.location)});
  else if (!rec.file.empty())
    r["locations"] = ojson::array(
        {{{"physicalLocation", {{"artifactLocation", {{"uri", artifact_uri(rec.file)}}}}}}});
  if (d.expected)
    r["suppressions"] = ojson::array(
        {{{"kind", "inSource"},
          {"justification", "the spec expects this refusal (`// tujit: expect " + d.code + "`)"}}});
  r["properties"] = {{"kernel", rec.name}, {"stage", d.stage}};
  return r;
}

} // namespace

void write_sarif(const Report& report, std::ostream& out) {
  ojson rules = ojson::array();
  std::map<std::string, std::size_t> rule_index;
  ojson results = ojson::array();
  for (const auto& [rec, d] : distinct_findings(report)) {
    if (d->code.empty()) continue;
    auto [it, added] = rule_index.emplace(d->code, rules.size());
    if (added) rules.push_back(rule_json(d->code, d->severity));
    results.push_back(result_json(*d, *rec, it->second));
  }
  const bool internal_error =
      std::any_of(report.records.begin(), report.records.end(), [](const ReportRecord& r) {
        return r.outcome == ReportRecord::Outcome::InternalError;
      });
  ojson doc = {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       ojson::array(
           {{{"tool",
              {{"driver", {{"name", "tujit"}, {"version", TUJIT_VERSION}, {"rules", rules}}}}},
             {"invocations", ojson::array({{{"commandLine", "tujit " + report.command},
                                            {"executionSuccessful", !internal_error}}})},
             {"results", results}}})}};
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

} // namespace tujit::report
