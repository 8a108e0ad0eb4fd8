#include "harness/bench/bench_session.h"

#include "ir/lang/kernel.h"

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

Session finish(std::vector<PreparedPtr>& prepared, const BenchOptions& options,
               BenchReport report) {
  Measured m = measure(prepared, options);
  report.kernels = std::move(m.kernels);
  report.fma_peak_macs_per_s = m.fma_peak_macs_per_s;
  for (auto& k : report.kernels) k.fma_peak_macs_per_s = m.fma_peak_macs_per_s;
  report.threads = options.threads;
  report.repetitions = options.repetitions;
  report.cpu_time = options.cpu_time;
  report.interp_mac_cap = options.interp_mac_cap;
  rank_kernels(report.kernels);
  return {std::move(report), std::move(m.gbench)};
}

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

Result<Session> bench_files(const std::vector<std::string>& files,
                            const std::optional<std::string>& kernel, const BenchOptions& options,
                            std::string* failed_source) {
  BenchReport report;
  report.host = host_description();
  report.load_average = load_average();
  std::vector<PreparedPtr> prepared;
  std::vector<ir::SpecFile> specs; // kept alive while preparing
  std::map<std::string, int> seen;
  for (const auto& path : files) {
    auto file = ir::load_spec(path);
    *failed_source = path;
    if (!file) return std::move(file).take_diagnostics();
    bool any = false;
    for (const auto& k : file->kernels) {
      if (kernel && k.name != *kernel) continue;
      any = true;
      KernelLabel label;
      label.source = path;
      label.label = k.name;
      if (const int n = ++seen[k.name]; n > 1) label.label += fmt::format("#{}", n);
      auto p = prepare_kernel(*file, k, label, options);
      if (!p) return std::move(p).take_diagnostics();
      prepared.push_back(std::move(*p));
    }
    if (!any)
      return make_error("E-BENCH-005",
                        kernel ? fmt::format("'{}' has no kernel named `{}`", path, *kernel)
                               : fmt::format("'{}' holds no kernel", path));
  }
  failed_source->clear();
  return finish(prepared, options, std::move(report));
}

Session bench_sweep(const SweepSpec& spec, const Shard& shard, const BenchOptions& options) {
  BenchReport report;
  report.host = host_description();
  report.load_average = load_average();
  report.sweep = SweepInfo{spec.name, spec.path, point_count(spec), shard.index, shard.count};
  std::vector<PreparedPtr> prepared;
  const std::uint64_t total = point_count(spec);
  const std::uint64_t mine = total / shard.count + (shard.index < total % shard.count ? 1 : 0);
  std::uint64_t checked = 0;
  for (auto& pt : expand_points(spec)) {
    if (!in_shard(pt.index, shard)) continue;
    if (options.progress) options.progress(checked++, mine, "compile " + pt.name);
    const auto invalid = [&](const Diagnostic& d) {
      report.invalid.push_back({pt.index, pt.name, pt.params, d.code, d.stage, d.message});
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
    prepared.push_back(std::move(*p));
  }
  return finish(prepared, options, std::move(report));
}

ProgressBar::ProgressBar(std::ostream& err, std::string what)
    : err_(err), what_(std::move(what)), tty_(::isatty(STDERR_FILENO) != 0), start_(now_s()) {}

ProgressBar::~ProgressBar() {
  if (drawn_) err_ << "\n" << std::flush;
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total, const std::string& item) {
  if (!tty_ || total == 0 || now_s() - start_ < 1.0) return;
  constexpr std::uint64_t kWidth = 30;
  const std::uint64_t filled = std::min(kWidth, done * kWidth / total);
  std::string shown = item.size() > 40 ? item.substr(0, 37) + "..." : item;
  err_ << fmt::format("\r{} [{}{}] {}/{} {:<40}", what_, std::string(filled, '#'),
                      std::string(kWidth - filled, ' '), done, total, shown)
       << std::flush;
  drawn_ = true;
}

} // namespace tujit::bench
