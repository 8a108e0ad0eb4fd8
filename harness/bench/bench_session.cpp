#include "harness/bench/bench_session.h"

#include "ir/lang/kernel.h"
#include "ir/lang/kernel_pick.h"
#include "runtime/io/interrupt.h"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <ostream>
#include <thread>

namespace tujit::bench {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The first error of `ds` (a point is reported with the rule that refused it).
const Diagnostic& first_error(const Diagnostics& ds) {
  for (const auto& d : ds)
    if (d.severity == Severity::Error) return d;
  return ds.front();
}

/// The measuring loop both modes share: the FMA peak once, then one kernel at a time.
class Streamer {
public:
  Streamer(const BenchOptions& options, const SessionSink& sink) : options_(options), sink_(sink) {
    report_.host = host_description();
    report_.load_average = load_average();
    report_.threads = options.threads;
    report_.repetitions = options.repetitions;
    report_.cpu_time = options.cpu_time;
    report_.interp_mac_cap = options.interp_mac_cap;
  }

  BenchReport& report() { return report_; }

  /// Whether the run goes on: no stop was requested and the sink takes more.
  bool going() {
    if (const int sig = runtime::io::stop_requested()) report_.interrupted_by = sig;
    return report_.interrupted_by == 0 && !sink_failed_;
  }

  /// The FMA peak probe, whose Google Benchmark context opens the document.
  void start() {
    if (!options_.fma_peak) return;
    BenchOptions o = options_;
    o.sgemm = false;
    o.progress = nullptr;
    std::vector<PreparedPtr> none;
    Measured m = measure(none, o);
    report_.fma_peak_macs_per_s = m.fma_peak_macs_per_s;
    emit(m.gbench);
  }

  /// Measures one prepared kernel, hands its runs to the sink, keeps its summary.
  void measure_one(PreparedPtr kernel) {
    BenchOptions o = options_;
    o.fma_peak = false;
    o.progress = nullptr;
    std::vector<PreparedPtr> one;
    one.push_back(std::move(kernel));
    Measured m = measure(one, o);
    for (auto& k : m.kernels) {
      k.fma_peak_macs_per_s = report_.fma_peak_macs_per_s;
      report_.kernels.push_back(std::move(k));
    }
    emit(m.gbench);
  }

  BenchReport finish() {
    rank_kernels(report_.kernels);
    return std::move(report_);
  }

private:
  void emit(const nlohmann::json& gbench) {
    if (!context_sent_) {
      context_sent_ = true;
      if (sink_.context && !sink_.context(gbench.value("context", nlohmann::json::object())))
        sink_failed_ = true;
    }
    const auto runs = gbench.value("benchmarks", nlohmann::json::array());
    if (sink_.runs && !runs.empty() && !sink_.runs(runs)) sink_failed_ = true;
  }

  const BenchOptions& options_;
  const SessionSink& sink_;
  BenchReport report_;
  bool context_sent_ = false;
  bool sink_failed_ = false;
};

} // namespace

std::string host_description() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return fmt::format("{} ({} hardware threads)", name, std::thread::hardware_concurrency());
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string a, b, c;
  if (!(in >> a >> b >> c)) return "unknown";
  return fmt::format("{} {} {}", a, b, c);
}

BenchReport bench_files(const std::vector<std::string>& files,
                        const std::optional<std::string>& kernel, const BenchOptions& options,
                        const SessionSink& sink, Diagnostics* errors, std::string* failed_source) {
  Streamer s(options, sink);
  s.start();
  std::map<std::string, int> seen;
  std::uint64_t done = 0;
  const auto stop = [&](Diagnostics ds, const std::string& source) {
    *errors = std::move(ds);
    *failed_source = source;
    return s.finish();
  };
  for (const auto& path : files) {
    if (!s.going()) break;
    auto file = ir::load_spec(path);
    if (!file) return stop(std::move(file).take_diagnostics(), path);
    bool any = false;
    const ir::Kernel* only = nullptr; // the kernel --kernel names (docs/cli.md §3)
    if (kernel)
      if (const ir::KernelPick pick = ir::pick_kernel(file->kernels, *kernel); pick.index)
        only = &file->kernels.at(pick.index.value());
    for (const auto& k : file->kernels) {
      if (kernel && &k != only) continue;
      any = true;
      if (!s.going()) break;
      KernelLabel label;
      label.source = path;
      label.label = k.name;
      if (const int n = ++seen[k.name]; n > 1) label.label += fmt::format("#{}", n);
      if (options.progress) options.progress(done++, 0, k.name);
      auto p = prepare_kernel(*file, k, label, options);
      if (!p) return stop(std::move(p).take_diagnostics(), path);
      s.measure_one(std::move(*p));
    }
    if (!any)
      return stop({make_error("E-BENCH-005",
                              kernel ? fmt::format("'{}' has no kernel named `{}`", path, *kernel)
                                     : fmt::format("'{}' holds no kernel", path))},
                  "");
  }
  return s.finish();
}

BenchReport bench_sweep(const SweepSpec& spec, const Shard& shard, const BenchOptions& options,
                        const SessionSink& sink) {
  Streamer s(options, sink);
  const std::uint64_t total = point_count(spec);
  s.report().sweep = SweepInfo{spec.name, spec.path, total, shard.index, shard.count};
  s.start();
  const std::uint64_t mine = total / shard.count + (shard.index < total % shard.count ? 1 : 0);
  std::uint64_t done = 0;
  for (std::uint64_t index = shard.index; index < total && s.going(); index += shard.count) {
    const SweepPoint pt = point_at(spec, index);
    if (options.progress) options.progress(done++, mine, pt.name);
    const auto invalid = [&](const Diagnostic& d) {
      s.report().invalid.push_back({pt.index, pt.name, pt.params, d.code, d.stage, d.message});
    };
    auto file = ir::analyze_spec(SourceBuffer(pt.name, pt.spec_text));
    if (!file) {
      invalid(first_error(file.diagnostics()));
      continue;
    }
    if (file->kernels.size() != 1) {
      Diagnostic d =
          make_error("E-BENCH-002", fmt::format("the template must hold exactly one kernel; this "
                                                "point holds {}",
                                                file->kernels.size()));
      d.stage = "bench";
      invalid(d);
      continue;
    }
    KernelLabel label{pt.name, spec.path, pt.index, pt.params};
    auto p = prepare_kernel(*file, file->kernels.front(), label, options);
    if (!p) {
      invalid(first_error(p.diagnostics()));
      continue;
    }
    s.measure_one(std::move(*p));
  }
  if (options.progress) options.progress(done, mine, "");
  return s.finish();
}

ProgressBar::ProgressBar(std::ostream& err, std::string what)
    : err_(err), what_(std::move(what)), tty_(::isatty(STDERR_FILENO) != 0), start_(now_s()) {}

ProgressBar::~ProgressBar() {
  if (drawn_) err_ << "\n" << std::flush;
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total, const std::string& item) {
  if (!tty_ || now_s() - start_ < 1.0) return;
  constexpr std::uint64_t kWidth = 30;
  std::string shown = item.size() > 40 ? item.substr(0, 37) + "..." : item;
  if (total == 0) {
    err_ << fmt::format("\r{} {} {:<40}", what_, done, shown) << std::flush;
  } else {
    const std::uint64_t filled = std::min(kWidth, done * kWidth / total);
    err_ << fmt::format("\r{} [{}{}] {}/{} {:<40}", what_, std::string(filled, '#'),
                        std::string(kWidth - filled, ' '), done, total, shown)
         << std::flush;
  }
  drawn_ = true;
}

} // namespace tujit::bench
