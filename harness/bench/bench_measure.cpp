// Measuring prepared kernels under Google Benchmark in this process: the JIT, the interpreter
// (capped slices), OpenBLAS sgemm on the same logical GEMM and the FMA peak probe, with
// repetitions; Google Benchmark's own JSON is kept for --json.
#include "harness/bench/prepared_kernel.h"

#include "harness/run/run_pipeline.h"
#include "runtime/exec/process_usage.h"
#include "runtime/interp/interpreter.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <algorithm>
#include <functional>
#include <sstream>

extern "C" void openblas_set_num_threads(int);

namespace tujit::bench {

namespace {

void set_rate(benchmark::State& state, std::uint64_t macs) {
  state.counters["MAC/s"] =
      benchmark::Counter(static_cast<double>(macs), benchmark::Counter::kIsIterationInvariantRate);
}

double stat_min(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}
double stat_max(const std::vector<double>& v) {
  return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

// Forwards everything to Google Benchmark's JSONReporter (into a string) and keeps each
// repetition's MAC/s per benchmark name.
class CollectingReporter : public benchmark::BenchmarkReporter {
public:
  CollectingReporter() {
    json_.SetOutputStream(&json_text_);
    json_.SetErrorStream(&errors_);
  }
  bool ReportContext(const Context& context) override { return json_.ReportContext(context); }
  void ReportRuns(const std::vector<Run>& runs) override {
    json_.ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.run_type != Run::RT_Iteration) continue;
      const std::string name = r.run_name.function_name;
      if (r.error_occurred) {
        errors_by_name[name] = r.error_message;
        continue;
      }
      if (auto it = r.counters.find("MAC/s"); it != r.counters.end())
        rates[name].push_back(it->second.value);
      rss[name] = runtime::peak_rss_mib();
      ++done;
      if (progress) progress(done, total, name);
    }
  }
  void Finalize() override { json_.Finalize(); }
  std::string json_text() const { return json_text_.str(); }

  std::map<std::string, std::vector<double>> rates;
  std::map<std::string, std::string> errors_by_name;
  std::map<std::string, double> rss; // process peak RSS (MiB) when the benchmark finished
  std::uint64_t done = 0, total = 0;
  std::function<void(std::uint64_t, std::uint64_t, const std::string&)> progress;

private:
  benchmark::JSONReporter json_;
  std::ostringstream json_text_, errors_;
};

void init_benchmark_library() {
  static bool done = false;
  if (done) return;
  done = true;
  // Google Benchmark reads its flags and the executable name here; tujit passes none.
  static char name[] = "tujit";
  static char* argv[] = {name, nullptr};
  int argc = 1;
  benchmark::Initialize(&argc, argv);
}

/// Times `run` once per iteration; a failed run ends the benchmark with `what` as its error.
template <typename Run>
void time_runs(benchmark::State& st, const char* what, std::uint64_t macs, Run run) {
  for (auto _ : st) {
    auto r = run();
    if (!r) {
      st.SkipWithError(what);
      break;
    }
    benchmark::DoNotOptimize(r);
  }
  set_rate(st, macs);
}

using Configure = std::function<void(benchmark::internal::Benchmark*)>;

/// Registers one kernel's benchmarks (the JIT, the end-to-end run, the interpreter, and sgemm
/// when asked); returns how many.
std::uint64_t register_kernel(PreparedKernel* k, const BenchOptions& options,
                              const Configure& configure) {
  const std::string& l = k->result.label;
  configure(benchmark::RegisterBenchmark((l + "/jit").c_str(), [k, &options](benchmark::State& st) {
    codegen::JitRunOptions ro;
    ro.threads = options.threads;
    time_runs(st, "the JIT run failed", k->result.simulated_macs, [&] {
      return k->program.is_move()
                 ? codegen::run_move_jit(*k->compiled, k->program, k->inputs.tensors, ro)
                 : codegen::run_contraction_jit(*k->compiled, k->program, k->inputs.tensors, ro);
    });
  }));
  configure(benchmark::RegisterBenchmark((l + "/run").c_str(), [k, &options](benchmark::State& st) {
    const run::RunRequest req = end_to_end_request(options);
    time_runs(st, "the end-to-end run failed", k->result.simulated_macs,
              [&] { return run::run_kernel(*k->file, k->checked(), k->ops, req); });
  }));
  configure(benchmark::RegisterBenchmark((l + "/interp").c_str(), [k](benchmark::State& st) {
    time_runs(st, "the interpreter run failed", k->result.interp_macs,
              [&] { return runtime::interpret(k->interp_program, k->inputs.tensors); });
  }));
  if (!options.sgemm || k->result.work != "MAC") return 3;
  configure(benchmark::RegisterBenchmark((l + "/sgemm").c_str(), [k](benchmark::State& st) {
    openblas_set_num_threads(1); // the simulation baselines are one core each
    const GemmShape& g = k->result.gemm;
    const int m = static_cast<int>(g.m), n = static_cast<int>(g.n), kk = static_cast<int>(g.k);
    for (auto _ : st) {
      for (std::uint64_t v = 0; v < g.batch; ++v)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, kk, 1.0f, k->a.data(), kk,
                    k->b.data(), n, 0.0f, k->c.data(), n);
      benchmark::DoNotOptimize(k->c.data());
    }
    set_rate(st, g.macs());
  }));
  return 4;
}

/// Each kernel's rates (min / median / max over the repetitions) and peak RSS, and Google
/// Benchmark's own JSON.
Measured collect(CollectingReporter& reporter, const std::vector<PreparedPtr>& kernels) {
  Measured m;
  m.gbench = nlohmann::json::parse(reporter.json_text(), nullptr, false);
  if (m.gbench.is_discarded()) m.gbench = nlohmann::json::object();
  m.fma_peak_macs_per_s = spread_of(reporter.rates["baseline/fma_peak"]).median;
  for (const auto& kp : kernels) {
    KernelResult r = kp->result;
    r.jit_macs_per_s = spread_of(reporter.rates[r.label + "/jit"]);
    r.run_macs_per_s = spread_of(reporter.rates[r.label + "/run"]);
    r.interp_macs_per_s = spread_of(reporter.rates[r.label + "/interp"]);
    r.sgemm_macs_per_s = spread_of(reporter.rates[r.label + "/sgemm"]);
    for (const char* engine : {"/jit", "/run", "/interp", "/sgemm"})
      r.peak_rss_mib = std::max(r.peak_rss_mib, reporter.rss[r.label + engine]);
    m.kernels.push_back(std::move(r));
  }
  return m;
}

} // namespace

Measured measure(std::vector<PreparedPtr>& kernels, const BenchOptions& options) {
  init_benchmark_library();
  benchmark::ClearRegisteredBenchmarks();
  const Configure configure = [&](benchmark::internal::Benchmark* b) {
    b->Repetitions(static_cast<int>(std::max(1u, options.repetitions)))
        ->MinTime(options.min_time_s)
        ->Unit(benchmark::kMillisecond)
        ->ComputeStatistics("min", &stat_min)
        ->ComputeStatistics("max", &stat_max);
    if (options.cpu_time)
      b->MeasureProcessCPUTime(); // the JIT's workers included
    else
      b->UseRealTime();
  };
  std::uint64_t benchmarks = 0;
  if (options.fma_peak) {
    configure(benchmark::RegisterBenchmark("baseline/fma_peak", [](benchmark::State& st) {
      constexpr std::uint64_t kRounds = 1 << 20;
      std::uint64_t macs = 0;
      for (auto _ : st) macs = fma_burst(kRounds);
      set_rate(st, macs);
    }));
    ++benchmarks;
  }
  for (auto& kp : kernels) benchmarks += register_kernel(kp.get(), options, configure);
  CollectingReporter reporter;
  reporter.total = benchmarks * std::max(1u, options.repetitions);
  reporter.progress = options.progress;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();
  return collect(reporter, kernels);
}

} // namespace tujit::bench
