#include "harness/run/run_pipeline.h"

#include "harness/run/run_inputs.h"
#include "harness/run/run_verify.h"
#include "ir/seq/run_program.h"
#include "runtime/engine/result_diff.h"
#include "runtime/exec/thread_pool.h"
#include "runtime/interp/interpreter.h"
#include "runtime/tensor/sha256.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <thread>

namespace tujit::run {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

unsigned thread_count(unsigned requested) {
  return requested != 0 ? requested : std::max(1u, std::thread::hardware_concurrency());
}

/// The output axes, and its digest unless the engine computed it as it wrote the output.
void finish_output(RunOutcome& out) {
  out.output_axes.clear();
  for (const auto& a : out.output.axes) out.output_axes.push_back(a.name);
  if (out.sha256.empty())
    out.sha256 = runtime::sha256_hex({out.output.data.data(), out.output.data.size()});
}

/// An engine ready to run a program: for the JIT, the object compiled or loaded from the cache.
struct PreparedEngine {
  Engine engine = Engine::Jit;
  std::unique_ptr<codegen::ContractionJit> jit;
  std::shared_ptr<const codegen::CompiledContraction> compiled;
};

using JitSession = Result<std::unique_ptr<codegen::ContractionJit>>;

/// Whether the JIT's code carries a poison shadow: --verify compares the JIT's own poisoned set
/// with the interpreter's (docs/cli.md §6).
bool poison_shadow(const RunRequest& req) {
  return req.jit.poison_shadow || req.verify;
}

/// The JIT the request asks for, before any program: its session needs no program.
JitSession create_jit(const RunRequest& req) {
  codegen::JitOptions jit_options = req.jit;
  jit_options.poison_shadow = poison_shadow(req);
  return codegen::ContractionJit::create(jit_options);
}

/// `engine` prepared for `program`; for the JIT, with the session `jit` (created here when null).
Result<PreparedEngine> prepare_engine(Engine engine, const ir::seq::RunProgram& program,
                                      const RunRequest& req, JitSession* jit = nullptr) {
  PreparedEngine e;
  e.engine = engine;
  if (engine == Engine::Interp) return e;
  JitSession created = jit == nullptr ? create_jit(req) : std::move(*jit);
  if (!created) return std::move(created).take_diagnostics();
  auto compiled = (*created)->compile(program);
  if (!compiled) return std::move(compiled).take_diagnostics();
  e.jit = std::move(*created);
  e.compiled = std::move(*compiled);
  return e;
}

Result<EngineRun> execute(const PreparedEngine& e, const ir::seq::RunProgram& program,
                          const runtime::RunInputs& inputs, const RunRequest& req,
                          const runtime::SeededContents* stream_contents = nullptr) {
  EngineRun run;
  run.engine = engine_name(e.engine);
  const auto t0 = Clock::now();
  Result<runtime::RunResult> r = runtime::RunResult{};
  if (e.engine == Engine::Interp) {
    r = runtime::interpret(program, inputs);
  } else {
    run.compile_ms = e.compiled->stats().native_ms;
    run.cache_hit = e.compiled->stats().cache_hit;
    run.threads = thread_count(req.threads);
    codegen::JitRunOptions options;
    options.threads = req.threads;
    options.stream_contents = stream_contents;
    options.digest_output = true;
    r = program.is_move() ? codegen::run_move_jit(*e.compiled, program, inputs, options)
                          : codegen::run_contraction_jit(*e.compiled, program, inputs, options);
  }
  if (!r) return std::move(r).take_diagnostics();
  run.run_ms = ms_since(t0);
  run.result = std::move(*r);
  return run;
}

/// The JIT's plan of a contraction run (codegen::plan_contraction_run): it reads the inputs'
/// shapes and types only, so it is made while they are filled. Its diagnostics are the run's.
void plan_run(const PreparedEngine& e, const ir::seq::RunProgram& program,
              const runtime::RunInputs& inputs, codegen::PreparedPlan prepared) {
  if (e.engine == Engine::Jit && !program.is_move())
    (void)codegen::plan_contraction_run(*e.compiled, program, inputs, std::move(prepared));
}

/// Lowering to the Sequencer IR (into out.program): it needs only the inputs' shapes.
Status lower(const ir::SpecFile& file, const ir::verify::CheckedKernel& kernel,
             const RunOperands& ops, const RunRequest& req, const ir::seq::InputShapes& shapes,
             RunOutcome& out) {
  const auto t0 = Clock::now();
  auto program = ir::seq::lower_run(file, kernel, ops, shapes, req.ftz_results);
  if (!program) return std::move(program).take_diagnostics();
  out.program = std::move(*program);
  out.fetches = out.program.fetches;
  out.lower_ms = ms_since(t0);
  return {};
}

/// What the run does before its inputs exist, on one thread: lowering, the caller's look at the
/// program and the engine's preparation.
Result<PreparedEngine> lower_and_prepare(const ir::SpecFile& file,
                                         const ir::verify::CheckedKernel& kernel,
                                         const RunOperands& ops, const RunRequest& req,
                                         const ir::seq::InputShapes& shapes, RunOutcome& out) {
  if (auto ok = lower(file, kernel, ops, req, shapes, out); !ok) return ok.diagnostics();
  if (req.on_lowered) req.on_lowered(out.program);
  return prepare_engine(req.engine, out.program, req);
}

/// lower_and_prepare on one thread, after the inputs are filled (out.inputs_ms: the fill).
Result<PreparedEngine> prepare_after_filling(const ir::SpecFile& file,
                                             const ir::verify::CheckedKernel& kernel,
                                             const RunOperands& ops, const RunRequest& req,
                                             const ir::seq::InputShapes& shapes,
                                             runtime::FillJob& fill, RunOutcome& out) {
  const auto t0 = Clock::now();
  fill.run(1);
  out.inputs_ms = ms_since(t0);
  return lower_and_prepare(file, kernel, ops, req, shapes, out);
}

/// Work that either of two tasks may do, done by whichever claims it first: the other waits for
/// it only once it is claimed, so neither waits for a task that has not started.
class Claim {
public:
  /// True for the one caller that is to do the work.
  bool take() { return !taken_.exchange(true); }
  void done() {
    done_ = true;
    done_.notify_all();
  }
  /// Returns once the taker is done; call only after take() returned false.
  void wait() const { done_.wait(false); }

private:
  std::atomic<bool> taken_{false}, done_{false};
};

/// lower_and_prepare with more than one thread: lowering, then the engine's preparation and the
/// JIT's run plan, run as task 0 of the run's thread pool while the other tasks fill the inputs
/// (`fill`), and then join the fill, so their times overlap (docs/cli.md §6). Task 1 creates the
/// JIT's session while task 0 lowers; once the program is lowered, it makes the part of the run's
/// plan that needs no code while task 0 loads or compiles the code, and then runs the caller's
/// look at the program (`on_lowered`). Either task does the session and the code-free plan when
/// the other has not begun them (a Claim). The JIT's run then leases the same pool, whose workers
/// are running. Sets out.inputs_ms to when the last input was filled.
Result<PreparedEngine> prepare_while_filling(unsigned threads, const ir::SpecFile& file,
                                             const ir::verify::CheckedKernel& kernel,
                                             const RunOperands& ops, const RunRequest& req,
                                             const ir::seq::InputShapes& shapes,
                                             const RunInputTensors& inputs, runtime::FillJob& fill,
                                             RunOutcome& out) {
  const auto t0 = Clock::now();
  runtime::exec::PoolLease pool(threads);
  std::vector<double> filled_ms(pool->size(), 0.0);
  enum : int { kPending, kDone, kFailed };
  std::atomic<int> lowering{kPending};
  const bool jit = req.engine == Engine::Jit;
  Claim session_claim;
  JitSession session = std::unique_ptr<codegen::ContractionJit>();
  // Code with a poison shadow takes its poisoned outputs from the shadow, so its plan waits for it.
  const bool plans_early = jit && !poison_shadow(req);
  Claim plan_claim;
  codegen::PreparedPlan plan;
  std::optional<Result<PreparedEngine>> prepared;
  pool->run(pool->size(), [&](std::uint64_t k, unsigned worker) {
    if (k == 1 && jit && session_claim.take()) {
      session = create_jit(req);
      session_claim.done();
    }
    if (k == 0) {
      Status ok = lower(file, kernel, ops, req, shapes, out);
      lowering = ok ? kDone : kFailed;
      lowering.notify_all();
      if (jit && session_claim.take())
        session = create_jit(req);
      else if (jit)
        session_claim.wait();
      prepared = ok ? prepare_engine(req.engine, out.program, req, jit ? &session : nullptr)
                    : Result<PreparedEngine>(ok.diagnostics());
      // Taken here, the plan is made whole by plan_run.
      if (plans_early && !plan_claim.take()) plan_claim.wait();
      if (*prepared) plan_run(**prepared, out.program, inputs.tensors, std::move(plan));
    }
    if (fill.work() > 0) filled_ms[worker] = ms_since(t0);
    if (k == 1 && (plans_early || req.on_lowered)) {
      lowering.wait(kPending);
      if (plans_early && plan_claim.take()) {
        if (lowering == kDone)
          plan = codegen::prepare_contraction_plan(out.program, inputs.tensors);
        plan_claim.done();
      }
      if (lowering == kDone && req.on_lowered) req.on_lowered(out.program);
    }
  });
  out.inputs_ms = *std::max_element(filled_ms.begin(), filled_ms.end());
  return std::move(*prepared);
}

/// The seeded input the JIT generates where its slices read it, left unfilled by the run: the
/// contraction's stream, when the run reads it nowhere else (no --verify, which gives it to the
/// other engine and the oracle too).
std::string generated_stream(const RunOperands& ops, const RunRequest& req) {
  if (req.engine != Engine::Jit || req.verify || ops.shape != ir::seq::RunShape::Contraction ||
      ops.stream == nullptr || !ops.stream->tensor || req.given.count(ops.stream->name) != 0 ||
      ops.pair_of(ops.stream) != nullptr ||
      (ops.trf != nullptr && ops.trf->name == ops.stream->name))
    return {};
  return ops.stream->name;
}

} // namespace

std::string_view engine_name(Engine e) {
  return e == Engine::Jit ? "jit" : "interp";
}

Result<EngineRun> run_engine(Engine engine, const ir::seq::RunProgram& program,
                             const runtime::RunInputs& inputs, const RunRequest& req) {
  auto prepared = prepare_engine(engine, program, req);
  if (!prepared) return std::move(prepared).take_diagnostics();
  return execute(*prepared, program, inputs, req);
}

Result<RunOutcome> run_kernel(const ir::SpecFile& file, const ir::verify::CheckedKernel& kernel,
                              const RunOperands& ops, const RunRequest& req) {
  RunOutcome out;
  out.shape = ops.shape;
  const auto t0 = Clock::now();
  ir::seq::InputShapes tiles;
  if (req.tiles) {
    tiles = *req.tiles;
  } else {
    auto found = ir::seq::input_tiles(file, kernel, ops);
    if (!found) return std::move(found).take_diagnostics();
    tiles = std::move(*found);
  }
  const ir::seq::InputShapes shapes = input_shapes(ops, req, tiles);
  const double tiles_ms = ms_since(t0);
  const auto t1 = Clock::now();
  runtime::FillJob fill;
  std::string unfilled = generated_stream(ops, req);
  auto inputs = allocate_inputs(file, ops, req, tiles, fill, unfilled);
  if (!inputs) return std::move(inputs).take_diagnostics();
  const double allocated_ms = ms_since(t1);
  const unsigned threads = thread_count(req.threads);
  Result<PreparedEngine> prepared =
      threads > 1
          ? prepare_while_filling(threads, file, kernel, ops, req, shapes, *inputs, fill, out)
          : prepare_after_filling(file, kernel, ops, req, shapes, fill, out);
  out.inputs_ms += tiles_ms + allocated_ms;
  if (!prepared) return std::move(prepared).take_diagnostics();
  interleave_inputs(ops, *inputs); // the sides are filled
  if (!unfilled.empty() && out.program.input().streams.tensor != unfilled) {
    // The program's stream is not that parameter (a chain fetches it): filled like the others.
    const runtime::SeededContents& c = inputs->seeded.at(unfilled);
    runtime::fill_random(inputs->generated.at(unfilled), c.seed, c.index, threads);
    unfilled.clear();
  }
  auto run = execute(*prepared, out.program, inputs->tensors, req,
                     unfilled.empty() ? nullptr : &inputs->seeded.at(unfilled));
  if (!run) return std::move(run).take_diagnostics();
  out.engine = run->engine;
  out.threads = run->threads;
  out.compile_ms = run->compile_ms;
  out.cache_hit = run->cache_hit;
  out.run_ms = run->run_ms;
  out.poisoned_outputs = run->result.poison.poisoned_outputs;
  out.simulated_macs = run->result.simulated_macs;
  out.output = std::move(run->result.output);
  out.sha256 = std::move(run->result.sha256);
  finish_output(out);
  if (!req.verify) return out;

  const auto t2 = Clock::now();
  RunVerification v;
  // The other engine from the same inputs: the two must agree bit for bit (docs/design.md).
  const Engine other = req.engine == Engine::Jit ? Engine::Interp : Engine::Jit;
  auto second = run_engine(other, out.program, inputs->tensors, req);
  if (!second) return std::move(second).take_diagnostics();
  v.other_engine = second->engine;
  runtime::RunResult first;
  first.output = out.output;
  first.poison = run->result.poison;
  first.simulated_macs = out.simulated_macs;
  const std::optional<std::string> diff = runtime::first_difference(first, second->result);
  v.engines_bit_exact = !diff.has_value();
  if (diff) v.engine_difference = *diff;
  if (auto ok = oracle_verdict(file, kernel, ops, out.program, *inputs, tiles, out.output, v); !ok)
    return std::move(ok).take_diagnostics();
  out.verify = std::move(v);
  out.verify_ms = ms_since(t2);
  return out;
}

} // namespace tujit::run
