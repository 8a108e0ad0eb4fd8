// The --json document of `tujit bench`, written while the run goes (bench_session.h SessionSink):
// `{"context": …, "benchmarks": [` when Google Benchmark's context is known, each kernel's runs
// as they are measured, then the "tujit" section (ranked summaries, invalid points) and the
// closing brackets. Memory holds one kernel's runs at a time, and an interrupted run still ends
// in a complete document.
#pragma once

#include "harness/bench/bench_session.h"
#include "harness/bench/bench_types.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <string_view>

namespace tujit::bench {

class JsonReportStream {
public:
  /// Takes the document's text piece by piece; a diagnostic when it cannot (the run stops).
  using Writer = std::function<std::optional<Diagnostic>(std::string_view)>;
  explicit JsonReportStream(Writer write) : write_(std::move(write)) {}

  /// The sink to give bench_files / bench_sweep.
  SessionSink sink();
  /// The "tujit" section, the diagnostics of a run that failed (when any) and the end of the
  /// document.
  bool finish(const BenchReport& report, const nlohmann::json& diagnostics = nullptr);
  /// The first write that failed.
  const std::optional<Diagnostic>& error() const { return error_; }

private:
  bool put(std::string_view text);
  bool open(const nlohmann::json& context);
  bool runs(const nlohmann::json& runs);

  Writer write_;
  std::optional<Diagnostic> error_;
  bool opened_ = false;
  bool first_run_ = true;
};

} // namespace tujit::bench
