#include "harness/bench/bench_runner.h"

#include "codegen/contraction_jit.h"
#include "harness/cycles/cycle_report.h"
#include "harness/run/run_inputs.h"
#include "harness/run/run_pipeline.h"
#include "ir/seq/run_program.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/interp/interpreter.h"
#include "runtime/tensor/logical_tensor.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <fmt/format.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

extern "C" void openblas_set_num_threads(int);

namespace tujit::bench {

struct PreparedKernel {
  KernelResult result;
  ir::seq::RunProgram program, interp_program; // interp_program: capped live slices
  run::RunInputTensors inputs;
  std::unique_ptr<codegen::ContractionJit> jit;
  std::shared_ptr<const codegen::CompiledContraction> compiled;
  std::vector<float> a, b, c; // sgemm operands (one batch each, reused over the batch)
};

void PreparedDeleter::operator()(PreparedKernel* p) const {
  delete p;
}

namespace {

namespace fs = std::filesystem;

Diagnostic bench_error(std::string code, std::string message, std::vector<std::string> notes = {},
                       std::optional<SourceSpan> span = std::nullopt) {
  Diagnostic d = make_error(std::move(code), std::move(message), span, std::move(notes));
  d.stage = "bench";
  return d;
}

double peak_rss_mib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

std::set<std::string> names_of(const std::vector<ir::Axis>& axes) {
  std::set<std::string> s;
  for (const auto& a : axes) s.insert(a.name);
  return s;
}

// The logical GEMM (bench_types.h GemmShape) from the axes of the stream, the TRF and the output.
GemmShape gemm_shape(const std::vector<ir::Axis>& stream, const std::vector<ir::Axis>& trf,
                     const std::vector<ir::Axis>& out) {
  const auto s = names_of(stream), t = names_of(trf), o = names_of(out);
  GemmShape g;
  std::map<std::string, std::uint64_t> size;
  for (const auto* v : {&stream, &trf, &out})
    for (const auto& a : *v) size[a.name] = a.size;
  for (const auto& [name, n] : size) {
    const bool in_s = s.count(name) > 0, in_t = t.count(name) > 0, in_o = o.count(name) > 0;
    if (in_s && in_t && in_o)
      g.batch *= n;
    else if (in_s && in_o)
      g.m *= n;
    else if (in_t && in_o)
      g.n *= n;
    else if (in_s && in_t)
      g.k *= n;
  }
  return g;
}

// The interpreter's program: the first `keep` live slices stay live.
ir::seq::RunProgram capped(const ir::seq::RunProgram& p, std::uint64_t keep) {
  ir::seq::RunProgram q = p;
  std::uint64_t kept = 0;
  for (auto& live : q.chain.spatial_live)
    if (live != 0 && kept++ >= keep) live = 0;
  return q;
}

// JIT ≡ interpreter on the slices the interpreter ran (docs/design.md: the engines agree bit for
// bit): every output cell those slices write.
bool same_on_slices(const runtime::RunResult& jit, const runtime::RunResult& in,
                    const ir::seq::RunProgram& q) {
  const auto& o = q.output.cells;
  for (std::uint64_t s : q.live_slices())
    for (std::uint64_t u = 0; u < o.outer_size; ++u)
      for (std::uint64_t j = 0; j < o.inner_size; ++j) {
        const ir::seq::CellAddress a = q.output.at(s, u, j);
        if (a.state == ir::CellState::Live && jit.output.get(a.offset) != in.output.get(a.offset))
          return false;
      }
  return true;
}

Result<double> compile_warm_ms(const ir::seq::RunProgram& program, bool* hit) {
  std::string tmpl = (fs::temp_directory_path() / "tujit-bench-cache-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr)
    return bench_error("E-BENCH-006", "cannot create a temporary object cache directory");
  codegen::JitOptions o;
  o.use_cache = true;
  o.cache_dir = tmpl;
  double ms = 0;
  Diagnostics failed;
  for (int pass = 0; pass < 2 && failed.empty(); ++pass) { // fill, then hit in a new instance
    auto jit = codegen::ContractionJit::create(o);
    if (!jit) {
      failed = jit.diagnostics();
      break;
    }
    auto c = (*jit)->compile(program);
    if (!c) {
      failed = c.diagnostics();
      break;
    }
    ms = (*c)->stats().native_ms;
    *hit = (*c)->stats().cache_hit;
  }
  std::error_code ec;
  fs::remove_all(tmpl, ec);
  if (!failed.empty()) return failed;
  return ms;
}

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
      rss[name] = peak_rss_mib();
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

} // namespace

Spread spread_of(std::vector<double> v) {
  Spread s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return s;
}

void rank_kernels(std::vector<KernelResult>& ks) {
  std::stable_sort(ks.begin(), ks.end(), [](const KernelResult& a, const KernelResult& b) {
    if (a.cycles_trace != b.cycles_trace) return a.cycles_trace < b.cycles_trace;
    if (a.cycles_analytic != b.cycles_analytic) return a.cycles_analytic < b.cycles_analytic;
    if (a.point != b.point) return a.point < b.point;
    return a.label < b.label;
  });
  for (std::size_t i = 0; i < ks.size(); ++i) ks[i].rank = i + 1;
}

Result<PreparedPtr> prepare_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const KernelLabel& label, const BenchOptions& options) {
  // The verifiers first: an invalid kernel is reported with the rule that failed.
  const auto check = ir::verify::check_kernel(file, kernel);
  for (const auto& d : check.all_diagnostics())
    if (d.severity == Severity::Error) return d;
  auto ops = ir::seq::find_run_operands(kernel);
  if (!ops) {
    Diagnostics ds = std::move(ops).take_diagnostics();
    ds.front().code = "E-BENCH-005";
    ds.front().stage = "bench";
    ds.front().message =
        fmt::format("kernel `{}` cannot be benchmarked: {}", kernel.name, ds.front().message);
    return ds;
  }
  if (ops->shape != ir::seq::RunShape::Contraction)
    return make_error("E-BENCH-005",
                      fmt::format("kernel `{}` cannot be benchmarked: it has no contract_outer … "
                                  "contract_lane chain",
                                  kernel.name),
                      kernel.name_span);
  PreparedPtr p(new PreparedKernel);
  KernelResult& r = p->result;
  r.label = label.label;
  r.kernel = kernel.name;
  r.source = label.source;
  r.point = label.point;
  r.params = label.params;

  // The same inputs as `tujit run` (seeded per parameter, over their tiles) and its program.
  run::RunRequest req;
  req.seed = options.seed;
  req.threads = options.threads;
  auto tiles = ir::seq::input_tiles(file, kernel, *ops);
  if (!tiles) return std::move(tiles).take_diagnostics();
  auto inputs = run::make_inputs(file, *ops, req, *tiles);
  if (!inputs) return std::move(inputs).take_diagnostics();
  p->inputs = std::move(*inputs);
  auto program = ir::seq::lower_run(file, kernel, *ops, p->inputs.shapes, false);
  if (!program) return std::move(program).take_diagnostics();
  p->program = std::move(*program);
  r.gemm = gemm_shape(p->inputs.shapes.at(ops->stream->name), p->inputs.shapes.at(ops->trf->name),
                      ir::seq::type_axes(ops->lane->output, file.axes));

  const auto cycles = cycles::cycle_report(p->program.chain, cycles::cycle_options_for(kernel));
  r.cycles_analytic = cycles.analytic.total;
  r.cycles_trace = cycles.trace.total;
  r.mac_utilization = cycles.analytic.mac_utilization;
  r.mac_utilization_overall = cycles.analytic.mac_utilization_overall;

  codegen::JitOptions cold;
  cold.use_cache = false;
  auto jit = codegen::ContractionJit::create(cold);
  if (!jit) return std::move(jit).take_diagnostics();
  p->jit = std::move(*jit);
  auto compiled = p->jit->compile(p->program);
  if (!compiled) return std::move(compiled).take_diagnostics();
  p->compiled = std::move(*compiled);
  r.compile_cold_ms = p->compiled->stats().native_ms;
  auto warm = compile_warm_ms(p->program, &r.warm_cache_hit);
  if (!warm) return std::move(warm).take_diagnostics();
  r.compile_warm_ms = *warm;

  // One run of each engine: the products each does, and the engines' agreement.
  codegen::JitRunOptions ro;
  ro.threads = options.threads;
  auto jr = codegen::run_contraction_jit(*p->compiled, p->program, p->inputs.tensors, ro);
  if (!jr) return std::move(jr).take_diagnostics();
  r.simulated_macs = jr->simulated_macs;
  r.slices = p->program.chain.spatial;
  r.live_slices = p->program.live_slices().size();
  const std::uint64_t per_slice =
      std::max<std::uint64_t>(1, r.simulated_macs / std::max<std::uint64_t>(1, r.live_slices));
  const std::uint64_t keep = std::clamp<std::uint64_t>(options.interp_mac_cap / per_slice, 1,
                                                       std::max<std::uint64_t>(1, r.live_slices));
  p->interp_program = capped(p->program, keep);
  auto ir_ = runtime::interpret(p->interp_program, p->inputs.tensors);
  if (!ir_) return std::move(ir_).take_diagnostics();
  r.interp_slices = p->interp_program.live_slices().size();
  r.interp_macs = ir_->simulated_macs;
  r.engines_bit_exact = same_on_slices(*jr, *ir_, p->interp_program);
  if (!r.engines_bit_exact)
    return bench_error("E-BENCH-007",
                       fmt::format("kernel `{}`: the JIT and the interpreter disagree; the "
                                   "benchmark would time a wrong simulation",
                                   kernel.name),
                       {"this is a bug in tujit; `tujit run --verify` names the first difference"},
                       kernel.name_span);

  if (options.sgemm) {
    const GemmShape& g = r.gemm;
    std::mt19937 rng(static_cast<std::uint32_t>(options.seed));
    std::uniform_real_distribution<float> u(-1, 1);
    p->a.resize(g.m * g.k);
    p->b.resize(g.k * g.n);
    p->c.resize(g.m * g.n);
    for (auto& x : p->a) x = u(rng);
    for (auto& x : p->b) x = u(rng);
  }
  r.peak_rss_mib = peak_rss_mib();
  return p;
}

Measured measure(std::vector<PreparedPtr>& kernels, const BenchOptions& options) {
  init_benchmark_library();
  benchmark::ClearRegisteredBenchmarks();
  const auto configure = [&](benchmark::internal::Benchmark* b) {
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
  for (auto& kp : kernels) {
    PreparedKernel* k = kp.get();
    const std::string& l = k->result.label;
    configure(
        benchmark::RegisterBenchmark((l + "/jit").c_str(), [k, &options](benchmark::State& st) {
          codegen::JitRunOptions ro;
          ro.threads = options.threads;
          for (auto _ : st) {
            auto r = codegen::run_contraction_jit(*k->compiled, k->program, k->inputs.tensors, ro);
            if (!r) {
              st.SkipWithError("the JIT run failed");
              break;
            }
            benchmark::DoNotOptimize(r);
          }
          set_rate(st, k->result.simulated_macs);
        }));
    configure(benchmark::RegisterBenchmark((l + "/interp").c_str(), [k](benchmark::State& st) {
      for (auto _ : st) {
        auto r = runtime::interpret(k->interp_program, k->inputs.tensors);
        if (!r) {
          st.SkipWithError("the interpreter run failed");
          break;
        }
        benchmark::DoNotOptimize(r);
      }
      set_rate(st, k->result.interp_macs);
    }));
    benchmarks += 2;
    if (options.sgemm) {
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
      ++benchmarks;
    }
  }
  CollectingReporter reporter;
  reporter.total = benchmarks * std::max(1u, options.repetitions);
  reporter.progress = options.progress;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::ClearRegisteredBenchmarks();

  Measured m;
  m.gbench = nlohmann::json::parse(reporter.json_text(), nullptr, false);
  if (m.gbench.is_discarded()) m.gbench = nlohmann::json::object();
  m.fma_peak_macs_per_s = spread_of(reporter.rates["baseline/fma_peak"]).median;
  for (auto& kp : kernels) {
    KernelResult r = kp->result;
    r.jit_macs_per_s = spread_of(reporter.rates[r.label + "/jit"]);
    r.interp_macs_per_s = spread_of(reporter.rates[r.label + "/interp"]);
    r.sgemm_macs_per_s = spread_of(reporter.rates[r.label + "/sgemm"]);
    for (const char* engine : {"/jit", "/interp", "/sgemm"})
      r.peak_rss_mib = std::max(r.peak_rss_mib, reporter.rss[r.label + engine]);
    m.kernels.push_back(std::move(r));
  }
  return m;
}

} // namespace tujit::bench
