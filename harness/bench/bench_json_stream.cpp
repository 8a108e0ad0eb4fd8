#include "harness/bench/bench_json_stream.h"

#include "harness/bench/bench_report.h"

#include <string>

namespace tujit::bench {

namespace {

/// `j` as indented JSON, every line after the first indented by `by` more spaces, so it nests.
std::string nested(const nlohmann::ordered_json& j, std::size_t by) {
  std::string text = j.dump(2);
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(by, ' ');
  }
  return out;
}

} // namespace

SessionSink JsonReportStream::sink() {
  return {[this](const nlohmann::json& context) { return open(context); },
          [this](const nlohmann::json& r) { return runs(r); }};
}

bool JsonReportStream::put(std::string_view text) {
  if (error_) return false;
  error_ = write_(text);
  return !error_;
}

bool JsonReportStream::open(const nlohmann::json& context) {
  if (opened_) return !error_;
  opened_ = true;
  return put("{\n  \"context\": " + nested(nlohmann::ordered_json(context), 2) +
             ",\n  \"benchmarks\": [");
}

bool JsonReportStream::runs(const nlohmann::json& r) {
  if (!opened_ && !open(nlohmann::json::object())) return false;
  for (const auto& run : r) {
    if (!put((first_run_ ? "\n    " : ",\n    ") + nested(nlohmann::ordered_json(run), 4)))
      return false;
    first_run_ = false;
  }
  return true;
}

bool JsonReportStream::finish(const BenchReport& report, const nlohmann::json& diagnostics) {
  if (!opened_ && !open(nlohmann::json::object())) return false;
  std::string tail = std::string(first_run_ ? "]" : "\n  ]") +
                     ",\n  \"tujit\": " + nested(tujit_section(report), 2);
  if (!diagnostics.is_null())
    tail += ",\n  \"diagnostics\": " + nested(nlohmann::ordered_json(diagnostics), 2);
  return put(tail + "\n}\n");
}

} // namespace tujit::bench
