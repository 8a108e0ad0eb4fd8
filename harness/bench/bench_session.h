// One `tujit bench` run end to end, without the command line: the kernels of spec files, or the
// points of a sweep (one shard of them), verified, prepared and measured, into a BenchReport plus
// Google Benchmark's JSON.
#pragma once

#include "harness/bench/bench_runner.h"
#include "harness/bench/bench_types.h"
#include "harness/bench/sweep_file.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

#include <iosfwd>
#include <string>
#include <vector>

namespace tujit::bench {

struct Session {
  BenchReport report;
  nlohmann::json gbench;
};

/// Every kernel of every file (`kernel` picks one by name). A file or kernel that fails to verify
/// or lower stops the run with its diagnostics (rendered against the file by the caller via
/// `*failed_source`).
Result<Session> bench_files(const std::vector<std::string>& files,
                            const std::optional<std::string>& kernel, const BenchOptions& options,
                            std::string* failed_source);

/// The points of `spec` in `shard`: each is checked by the front end and the verifiers; refused
/// points become InvalidPoints (code + message), the others are measured and ranked.
Session bench_sweep(const SweepSpec& spec, const Shard& shard, const BenchOptions& options);

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
