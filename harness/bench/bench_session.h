// One `tujit bench` run end to end, without the command line: the kernels of spec files, or the
// points of a sweep (one shard of them). Kernels stream: each is generated (a sweep point is
// made from its index alone), verified, prepared, measured and handed to the sink, then freed,
// so memory stays that of one kernel plus one small summary per kernel, whatever the number of
// points. Between two kernels a stop request (runtime/io/interrupt.h: SIGINT / SIGTERM / SIGHUP
// inside a GracefulStop) ends the run early with what was measured so far.
#pragma once

#include "harness/bench/bench_runner.h"
#include "harness/bench/bench_types.h"
#include "harness/bench/sweep_file.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace tujit::bench {

/// Where Google Benchmark's output goes as it is produced (the --json document's "context" and
/// "benchmarks"). Each callback returns false to stop the run (an output that cannot be
/// written any more).
struct SessionSink {
  std::function<bool(const nlohmann::json& context)> context; // once, before any kernel's runs
  std::function<bool(const nlohmann::json& runs)> runs;       // one kernel's runs (an array)
};

/// Every kernel of every file (`kernel` picks one by name). A file or kernel that fails to verify
/// or lower stops the run: `*errors` gets its diagnostics (rendered against the file
/// `*failed_source` by the caller) and the report holds the kernels measured before it.
BenchReport bench_files(const std::vector<std::string>& files,
                        const std::optional<std::string>& kernel, const BenchOptions& options,
                        const SessionSink& sink, Diagnostics* errors, std::string* failed_source);

/// The points of `spec` in `shard`: each is checked by the front end and the verifiers; refused
/// points become InvalidPoints (code + message), the others are measured and ranked.
BenchReport bench_sweep(const SweepSpec& spec, const Shard& shard, const BenchOptions& options,
                        const SessionSink& sink);

/// A one-line progress bar on `err`, drawn only when stderr is a terminal and the work has run
/// for more than a second.
class ProgressBar {
public:
  ProgressBar(std::ostream& err, std::string what);
  ~ProgressBar();
  void update(std::uint64_t done, std::uint64_t total, const std::string& item);

private:
  std::ostream& err_;
  std::string what_;
  bool tty_ = false;
  bool drawn_ = false;
  double start_ = 0;
};

/// "host (cores)" and /proc/loadavg's first three fields, for the report's context.
std::string host_description();
std::string load_average();

} // namespace tujit::bench
