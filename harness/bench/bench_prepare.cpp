// Preparing one kernel for `tujit bench`: verified, sized (the limit of `tujit run`), lowered,
// inputs made as `tujit run` makes them, timed by both cycle models, compiled cold and from
// the object cache, run once on each engine (the engines must agree), sgemm operands made.
#include "harness/bench/prepared_kernel.h"

#include "codegen/contraction_jit.h"
#include "harness/cycles/cycle_report.h"
#include "harness/cycles/kernel_cycles.h"
#include "harness/run/run_footprint.h"
#include "harness/run/run_inputs.h"
#include "harness/run/run_pipeline.h"
#include "ir/seq/kernel_commands.h"
#include "ir/seq/run_program.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/exec/process_usage.h"
#include "runtime/interp/interpreter.h"
#include "runtime/tensor/logical_tensor.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>

namespace tujit::bench {

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
  for (auto& live : q.contraction().chain.spatial_live)
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

/// A kernel without a contraction whose run applies a Vector Engine pass to a collected stream:
/// the bench times the pass (its rates count output elements).
bool is_pass(const ir::seq::RunOperands& ops) {
  return ops.shape == ir::seq::RunShape::Collect && ops.vector_final.has_value();
}

/// What the run of a checked kernel reads (an invalid kernel is reported with the rule that
/// failed): a bench times a complete contraction chain.
Result<ir::seq::RunOperands> bench_operands(const ir::verify::CheckedKernel& checked) {
  const ir::Kernel& kernel = checked;
  for (const auto& d : checked.check().all_diagnostics())
    if (d.severity == Severity::Error) return d;
  auto commands = ir::seq::split_commands(checked);
  if (commands && *commands && (*commands)->size() > 1)
    return make_error("E-BENCH-005",
                      fmt::format("kernel `{}` cannot be benchmarked: its commands hand DM "
                                  "tensors to each other and run one after another "
                                  "(docs/kernels.md §3); `tujit bench` times one program, "
                                  "`tujit run --json` times the whole kernel (time_ms)",
                                  kernel.name),
                      kernel.name_span);
  auto ops = ir::seq::find_run_operands(kernel);
  if (!ops) {
    Diagnostics ds = std::move(ops).take_diagnostics();
    ds.front().code = "E-BENCH-005";
    ds.front().stage = "bench";
    ds.front().message =
        fmt::format("kernel `{}` cannot be benchmarked: {}", kernel.name, ds.front().message);
    return ds;
  }
  if (ops->shape != ir::seq::RunShape::Contraction && !is_pass(*ops))
    return make_error("E-BENCH-005",
                      fmt::format("kernel `{}` cannot be benchmarked: it has neither a "
                                  "contract_outer … contract_lane chain nor a Vector Engine pass",
                                  kernel.name),
                      kernel.name_span);
  return ops;
}

/// The same inputs as `tujit run` (seeded per parameter, over their tiles) and its program.
Status lower_with_inputs(const ir::SpecFile& file, const ir::seq::RunOperands& ops,
                         const BenchOptions& options, PreparedKernel& p) {
  const ir::Kernel& kernel = *p.kernel;
  run::RunRequest req;
  req.seed = options.seed;
  req.threads = options.threads;
  auto tiles = ir::seq::input_tiles(file, kernel, ops);
  if (!tiles) return std::move(tiles).take_diagnostics();
  auto inputs = run::make_inputs(file, ops, req, *tiles);
  if (!inputs) return std::move(inputs).take_diagnostics();
  p.inputs = std::move(*inputs);
  auto program = ir::seq::lower_run(file, p.checked(), ops, p.inputs.shapes, false);
  if (!program) return std::move(program).take_diagnostics();
  p.program = std::move(*program);
  return {};
}

/// The kernel compiled cold (kept for the runs) and from a fresh object cache.
Status compile_cold_and_warm(PreparedKernel& p) {
  KernelResult& r = p.result;
  codegen::JitOptions cold;
  cold.use_cache = false;
  auto jit = codegen::ContractionJit::create(cold);
  if (!jit) return std::move(jit).take_diagnostics();
  p.jit = std::move(*jit);
  auto compiled = p.jit->compile(p.program);
  if (!compiled) return std::move(compiled).take_diagnostics();
  p.compiled = std::move(*compiled);
  r.compile_cold_ms = p.compiled->stats().native_ms;
  auto warm = compile_warm_ms(p.program, &r.warm_cache_hit);
  if (!warm) return std::move(warm).take_diagnostics();
  r.compile_warm_ms = *warm;
  return {};
}

/// E-BENCH-007: the engines' outputs differ, so a rate would time a wrong simulation.
Diagnostic engines_disagree(const ir::Kernel& kernel) {
  return bench_error("E-BENCH-007",
                     fmt::format("kernel `{}`: the JIT and the interpreter disagree; the "
                                 "benchmark would time a wrong simulation",
                                 kernel.name),
                     {"this is a bug in tujit; `tujit run --verify` names the first difference"},
                     kernel.name_span);
}

/// A Vector Engine pass run once on each engine, the whole program on both: the elements it
/// writes, and the engines' agreement. Returns the JIT's run.
Result<runtime::RunResult> run_pass_both_engines(const ir::Kernel& kernel,
                                                 const BenchOptions& options, PreparedKernel& p) {
  KernelResult& r = p.result;
  codegen::JitRunOptions ro;
  ro.threads = options.threads;
  auto jr = codegen::run_move_jit(*p.compiled, p.program, p.inputs.tensors, ro);
  if (!jr) return jr;
  p.interp_program = p.program;
  auto in = runtime::interpret(p.interp_program, p.inputs.tensors);
  if (!in) return std::move(in).take_diagnostics();
  r.work = "element";
  r.simulated_macs = r.interp_macs = jr->output.elements();
  r.live_slices = r.interp_slices = r.slices = p.program.live_slices().size();
  r.gemm = {0, 0, 0, 0};
  r.engines_bit_exact = jr->output == in->output;
  if (!r.engines_bit_exact)
    return engines_disagree(kernel);
  return jr;
}

/// Both cycle models of the whole kernel (its commands scheduled, docs/cycle-model.md §14).
Status pass_cycles(PreparedKernel& p) {
  auto k = cycles::kernel_cycles(p.checked());
  if (!k) return std::move(k).take_diagnostics();
  p.result.cycles_analytic = k->analytic_total;
  p.result.cycles_trace = k->trace_total;
  return {};
}

/// One run of each engine: the products each does, and the engines' agreement. The interpreter
/// runs as many live slices as options.interp_mac_cap allows. Returns the JIT's run.
Result<runtime::RunResult> run_both_engines(const ir::Kernel& kernel, const BenchOptions& options,
                                            PreparedKernel& p) {
  KernelResult& r = p.result;
  codegen::JitRunOptions ro;
  ro.threads = options.threads;
  auto jr = codegen::run_contraction_jit(*p.compiled, p.program, p.inputs.tensors, ro);
  if (!jr) return jr;
  r.simulated_macs = jr->simulated_macs;
  r.slices = p.program.contraction().chain.spatial;
  r.live_slices = p.program.live_slices().size();
  const std::uint64_t per_slice =
      std::max<std::uint64_t>(1, r.simulated_macs / std::max<std::uint64_t>(1, r.live_slices));
  const std::uint64_t keep = std::clamp<std::uint64_t>(options.interp_mac_cap / per_slice, 1,
                                                       std::max<std::uint64_t>(1, r.live_slices));
  p.interp_program = capped(p.program, keep);
  auto ir_ = runtime::interpret(p.interp_program, p.inputs.tensors);
  if (!ir_) return std::move(ir_).take_diagnostics();
  r.interp_slices = p.interp_program.live_slices().size();
  r.interp_macs = ir_->simulated_macs;
  r.engines_bit_exact = same_on_slices(*jr, *ir_, p.interp_program);
  if (!r.engines_bit_exact)
    return engines_disagree(kernel);
  return jr;
}

/// Random sgemm operands of the kernel's logical GEMM: the OpenBLAS baseline's inputs.
void make_sgemm_operands(const BenchOptions& options, PreparedKernel& p) {
  const GemmShape& g = p.result.gemm;
  std::mt19937 rng(static_cast<std::uint32_t>(options.seed));
  std::uniform_real_distribution<float> u(-1, 1);
  p.a.resize(g.m * g.k);
  p.b.resize(g.k * g.n);
  p.c.resize(g.m * g.n);
  for (auto& x : p.a) x = u(rng);
  for (auto& x : p.b) x = u(rng);
}

} // namespace

run::RunRequest end_to_end_request(const BenchOptions& options) {
  run::RunRequest req;
  req.engine = run::Engine::Jit;
  req.seed = options.seed;
  req.threads = options.threads;
  req.jit.use_cache = true; // warm: the object comes from the cache, as for a repeated `tujit run`
  return req;
}

Result<PreparedPtr> prepare_kernel(const ir::SpecFile& file, const ir::Kernel& kernel,
                                   const KernelLabel& label, const BenchOptions& options) {
  PreparedPtr p(new PreparedKernel);
  p->file = &file;
  p->kernel = &kernel;
  p->check = ir::verify::check_kernel(file, kernel);
  auto ops = bench_operands(p->checked());
  if (!ops) return std::move(ops).take_diagnostics();
  // The limit of `tujit run`, from the types, before lowering or allocating anything.
  if (auto d = run::kernel_size_error(file, p->checked(), options.max_bytes)) return *d;
  KernelResult& r = p->result;
  r.label = label.label;
  r.kernel = kernel.name;
  r.source = label.source;
  r.point = label.point;
  r.params = label.params;
  if (auto s = lower_with_inputs(file, *ops, options, *p); !s)
    return std::move(s).take_diagnostics();
  const bool pass = is_pass(*ops);
  if (pass) {
    if (auto s = pass_cycles(*p); !s) return std::move(s).take_diagnostics();
  } else {
    r.gemm = gemm_shape(p->inputs.shapes.at(ops->stream->name), p->inputs.shapes.at(ops->trf->name),
                        ir::seq::type_axes(ops->lane->output, file.axes));
    const auto cycles = cycles::cycle_report(p->program.contraction().chain,
                                             cycles::cycle_options_for(p->checked()));
    r.cycles_analytic = cycles.analytic.total;
    r.cycles_trace = cycles.trace.total;
    r.mac_utilization = cycles.analytic.mac_utilization;
    r.mac_utilization_overall = cycles.analytic.mac_utilization_overall;
  }

  if (auto s = compile_cold_and_warm(*p); !s) return std::move(s).take_diagnostics();
  auto jr =
      pass ? run_pass_both_engines(kernel, options, *p) : run_both_engines(kernel, options, *p);
  if (!jr) return std::move(jr).take_diagnostics();

  // The end-to-end run once, which also fills the object cache its measurement loads from: the
  // pipeline of `tujit run` on the same seed must give the prepared run's bytes.
  p->ops = *ops;
  auto whole = run::run_kernel(file, p->checked(), p->ops, end_to_end_request(options));
  if (!whole) return std::move(whole).take_diagnostics();
  if (whole->output.data != jr->output.data)
    return bench_error("E-BENCH-007",
                       fmt::format("kernel `{}`: `tujit run` and the prepared JIT run disagree; "
                                   "the end-to-end rate would time a different simulation",
                                   kernel.name),
                       {"this is a bug in tujit"}, kernel.name_span);

  if (options.sgemm && !pass) make_sgemm_operands(options, *p);
  r.peak_rss_mib = runtime::peak_rss_mib();
  return p;
}

} // namespace tujit::bench
