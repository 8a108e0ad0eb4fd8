// Preparing one kernel for `tujit bench`: verified, sized (the limit of `tujit run`), lowered,
// inputs staged as `tujit run` stages them, timed by both cycle models, compiled cold and from
// the object cache, run once on each engine (the engines must agree), sgemm operands made.
#include "harness/bench/prepared_kernel.h"

#include "harness/cli/kernel_size.h"
#include "harness/cli/run_kernel.h"
#include "harness/cycles/cycle_report.h"
#include "ir/seq/lower_contraction.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/interp/interpreter.h"
#include "runtime/layout/layout.h"
#include "runtime/tensor/logical_tensor.h"

#include <fmt/format.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>

namespace tujit::bench {

void PreparedDeleter::operator()(PreparedKernel* p) const {
  delete p;
}

double peak_rss_mib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
}

namespace {

namespace fs = std::filesystem;

Diagnostic bench_error(std::string code, std::string message, std::vector<std::string> notes = {},
                       std::optional<SourceSpan> span = std::nullopt) {
  Diagnostic d = make_error(std::move(code), std::move(message), span, std::move(notes));
  d.stage = "bench";
  return d;
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
ir::seq::ContractionProgram capped(const ir::seq::ContractionProgram& p, std::uint64_t keep) {
  ir::seq::ContractionProgram q = p;
  if (q.spatial_live.empty()) q.spatial_live.assign(q.spatial, 1);
  std::uint64_t kept = 0;
  for (auto& live : q.spatial_live)
    if (live != 0 && kept++ >= keep) live = 0;
  return q;
}

std::uint64_t live_slices(const ir::seq::ContractionProgram& p) {
  if (p.spatial_live.empty()) return p.spatial;
  return static_cast<std::uint64_t>(std::count(p.spatial_live.begin(), p.spatial_live.end(), 1));
}

// JIT ≡ interpreter on the slices the interpreter ran (DESIGN.md: the engines agree bit for bit).
bool same_on_slices(const runtime::ContractionResult& jit, const runtime::ContractionResult& in,
                    const ir::seq::ContractionProgram& q) {
  const auto& a = jit.output;
  const auto& b = in.output;
  if (a.cells() != b.cells()) return false;
  const std::uint64_t per = a.outer * a.inner;
  for (std::uint64_t s = 0; s < q.spatial; ++s) {
    if (q.spatial_live.empty() || q.spatial_live[s] == 0) continue;
    for (std::uint64_t i = s * per; i < (s + 1) * per; ++i)
      if (a.bits[i] != b.bits[i] || a.state[i] != b.state[i]) return false;
  }
  return true;
}

Result<double> compile_warm_ms(const ir::seq::ContractionProgram& program, bool* hit) {
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

} // namespace

Result<PreparedPtr> prepare_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const KernelLabel& label, const BenchOptions& options) {
  // The verifiers first: an invalid kernel is reported with the rule that failed.
  const auto check = ir::verify::check_kernel(file, kernel);
  for (const auto& d : check.all_diagnostics())
    if (d.severity == Severity::Error) return d;
  auto ops = cli::find_run_operands(kernel);
  if (!ops) {
    Diagnostics ds = std::move(ops).take_diagnostics();
    ds.front().code = "E-BENCH-005";
    ds.front().stage = "bench";
    ds.front().message =
        fmt::format("kernel `{}` cannot be benchmarked: {}", kernel.name, ds.front().message);
    return ds;
  }
  if (ops->shape != cli::RunShape::Contraction)
    return make_error("E-BENCH-005",
                      fmt::format("kernel `{}` cannot be benchmarked: it has no contract_outer … "
                                  "contract_lane chain",
                                  kernel.name),
                      kernel.name_span);
  // The limit of `tujit run`, from the types, before lowering or staging anything.
  if (auto d = cli::kernel_size_error(file, kernel, options.max_bytes)) return *d;
  auto program = ir::seq::lower_contraction(kernel);
  if (!program) return std::move(program).take_diagnostics();

  PreparedPtr p(new PreparedKernel);
  KernelResult& r = p->result;
  r.label = label.label;
  r.kernel = kernel.name;
  r.source = label.source;
  r.point = label.point;
  r.params = label.params;
  p->program = std::move(*program);

  // The same inputs as `tujit run` (seeded per parameter), fetched from DM when the kernel does.
  cli::RunRequest req;
  req.seed = options.seed;
  auto images = cli::make_run_images(file, kernel, *ops, req, cli::Engine::Interp);
  if (!images) return std::move(images).take_diagnostics();
  const auto stream_axes = images->stream_input.axes, trf_axes = images->trf_input.axes;
  p->stream = std::move(images->stream);
  p->trf = std::move(images->trf);
  r.gemm = gemm_shape(stream_axes, trf_axes, runtime::tensor_axes(ops->lane->output, file.axes));

  const auto cycles = cycles::cycle_report(p->program, cycles::cycle_options_for(kernel));
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
  auto jr = codegen::run_contraction_jit(*p->compiled, p->program, p->stream, p->trf, ro);
  if (!jr) return std::move(jr).take_diagnostics();
  r.simulated_macs = jr->simulated_macs;
  r.slices = p->program.spatial;
  r.live_slices = live_slices(p->program);
  const std::uint64_t per_slice =
      std::max<std::uint64_t>(1, r.simulated_macs / std::max<std::uint64_t>(1, r.live_slices));
  const std::uint64_t keep = std::clamp<std::uint64_t>(options.interp_mac_cap / per_slice, 1,
                                                       std::max<std::uint64_t>(1, r.live_slices));
  p->interp_program = capped(p->program, keep);
  auto ir_ = runtime::run_contraction(p->interp_program, p->stream, p->trf);
  if (!ir_) return std::move(ir_).take_diagnostics();
  r.interp_slices = live_slices(p->interp_program);
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

} // namespace tujit::bench
