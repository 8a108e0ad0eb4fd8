// FetchJit on ORC LLJIT, and its runner. Like the contraction JIT (contraction_jit.cpp), each
// program is emitted (fetch_emit.cpp), optimised and compiled to an object (native_compiler.cpp),
// the object is cached on disk (object_cache.cpp) and linked into its own JITDylib
// (JitSession), which the CompiledFetch removes when it dies. The runner partitions the slices
// over a thread pool; a slice's cells depend only on its own DM cells, so every partition writes
// the same bits.
#include "codegen/fetch_jit.h"

#include "codegen/fetch_emit.h"
#include "codegen/native_compiler.h"
#include "codegen/object_cache.h"
#include "runtime/exec/thread_pool.h"
#include "runtime/interp/fetch_exec.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <thread>

namespace tujit::codegen {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Tasks per worker: slices cost the same, a few tasks each keep the tail short.
constexpr std::uint64_t kTasksPerWorker = 4;

std::string module_name(const ir::seq::FetchProgram& p) {
  return fmt::format("{} (fetch of `{}`)", p.kernel_name, p.source);
}

Result<std::unique_ptr<llvm::Module>> optimised_module(const ir::seq::FetchProgram& program,
                                                       bool checked, const NativeTarget& target,
                                                       llvm::LLVMContext& context) {
  auto module = emit_fetch_module(program, checked, context);
  if (auto ok = optimise_module(*module, target, program.kernel_name); !ok) return ok.diagnostics();
  return module;
}

class JitCompiledFetch final : public CompiledFetch {
public:
  JitCompiledFetch(CompileStats stats, LinkedFunction fn, bool checked)
      : stats_(stats), fn_(std::move(fn)), checked_(checked) {}
  ~JitCompiledFetch() override {
    if (fn_.release) fn_.release();
  }
  JitCompiledFetch(const JitCompiledFetch&) = delete;
  JitCompiledFetch& operator=(const JitCompiledFetch&) = delete;

  const CompileStats& stats() const override { return stats_; }
  FetchFn function() const { return fn_.as<FetchFn>(); }
  bool checked() const { return checked_; }

private:
  CompileStats stats_;
  LinkedFunction fn_;
  bool checked_;
};

class LlvmFetchJit final : public FetchJit {
public:
  LlvmFetchJit(JitOptions options, NativeTarget target, std::shared_ptr<JitSession> session)
      : options_(std::move(options)), target_(std::move(target)), session_(std::move(session)) {
    if (options_.use_cache)
      if (auto dir = resolve_cache_dir(options_.cache_dir)) cache_.emplace(*dir);
  }

  Result<std::shared_ptr<const CompiledFetch>>
  compile(const ir::seq::FetchProgram& program) override;

private:
  // "fetch object" and the fetch code generator's own version keep fetch and contraction objects
  // apart even when two fingerprints coincide (ObjectCache compares the whole key).
  std::string cache_key(std::uint64_t fingerprint) const {
    return fmt::format("tujit fetch object; fetch codegen {}; program {:016x}; LLVM {}; {}; "
                       "cpu {}; features {}; checked {}",
                       kFetchCodegenVersion, fingerprint, LLVM_VERSION_STRING, target_.triple,
                       target_.cpu, target_.features, options_.checked ? 1 : 0);
  }

  JitOptions options_;
  NativeTarget target_;
  std::shared_ptr<JitSession> session_;
  std::optional<ObjectCache> cache_;
};

Result<std::shared_ptr<const CompiledFetch>>
LlvmFetchJit::compile(const ir::seq::FetchProgram& program) {
  const auto t0 = Clock::now();
  CompileStats stats;
  stats.fingerprint = ir::seq::fingerprint(program);
  const std::string key = cache_key(stats.fingerprint);

  std::optional<std::string> object;
  if (cache_) object = cache_->load(stats.fingerprint, key);
  stats.cache_hit = object.has_value();
  if (!object) {
    llvm::LLVMContext context;
    auto module = optimised_module(program, options_.checked, target_, context);
    if (!module) return module.diagnostics();
    auto compiled = emit_native(**module, target_, NativeOutput::Object, program.kernel_name);
    if (!compiled) return compiled.diagnostics();
    stats.codegen_ms = ms_since(t0);
    object = std::move(*compiled);
    if (cache_) cache_->store(stats.fingerprint, key, *object);
  }
  auto linked = session_->link(*object, kFetchSymbol, "tujit.fetch", module_name(program));
  if (!linked) return linked.diagnostics();
  stats.native_ms = ms_since(t0);
  return std::shared_ptr<const CompiledFetch>(
      std::make_shared<JitCompiledFetch>(stats, std::move(*linked), options_.checked));
}

// Why an unchecked run of `p` could leave its images, or empty: the loops enumerate |T|·|P|
// positions and each packet fits its F flits (lower_fetch guarantees both; a hand-made program
// may not). Addresses past the buffer are skipped by the generated code itself.
std::string unsafe_program(const ir::seq::FetchProgram& p) {
  const auto& seq = p.sequencer;
  if (seq.stream_size() != p.time * p.packet)
    return fmt::format("its sequencer enumerates {} positions, not |T|·|P| = {}·{}",
                       seq.stream_size(), p.time, p.packet);
  if (p.flits_per_packet * p.flit_elements < p.packet)
    return fmt::format("a packet of {} elements does not fit {} flits of {}", p.packet,
                       p.flits_per_packet, p.flit_elements);
  return {};
}

/// The JIT code of `compiled` when it was compiled from `program` (E-JIT-002 otherwise).
Result<const JitCompiledFetch*> compiled_for_program(const CompiledFetch& compiled,
                                                     const ir::seq::FetchProgram& program) {
  const auto* jc = dynamic_cast<const JitCompiledFetch*>(&compiled);
  if (jc == nullptr) return run_error("E-JIT-002", "internal: not a JIT-compiled fetch");
  if (jc->stats().fingerprint != ir::seq::fingerprint(program))
    return run_error("E-JIT-002",
                     fmt::format("internal: the fetch of `{}` in kernel `{}` was compiled from "
                                 "another program",
                                 program.source, program.kernel_name));
  return jc;
}

} // namespace

Result<std::unique_ptr<FetchJit>> FetchJit::create(JitOptions options) {
  auto target = native_target();
  if (!target) return target.diagnostics();
  auto session = JitSession::create();
  if (!session) return session.diagnostics();
  return std::unique_ptr<FetchJit>(
      std::make_unique<LlvmFetchJit>(std::move(options), std::move(*target), std::move(*session)));
}

Status run_fetch_values_jit(const CompiledFetch& compiled, const ir::seq::FetchProgram& program,
                            std::span<const std::uint32_t> dm_bits,
                            std::span<std::uint32_t> out_bits, JitRunOptions options) {
  auto compiled_for = compiled_for_program(compiled, program);
  if (!compiled_for) return compiled_for.diagnostics();
  const JitCompiledFetch* jc = *compiled_for;
  const std::uint64_t n = program.spatial;
  const std::uint64_t out_cells = program.collected_time() * program.flit_elements;
  if (dm_bits.size() != n * program.buffer || out_bits.size() != n * out_cells)
    return run_error("E-RUN-102",
                     fmt::format("the fetch of `{}` reads a DM image of {} cells and writes a "
                                 "stream of {} cells; the program needs {}·{} and {}·{}",
                                 program.source, dm_bits.size(), out_bits.size(), n, program.buffer,
                                 n, out_cells));
  if (!jc->checked())
    if (std::string why = unsafe_program(program); !why.empty())
      return run_error("E-RUN-102", fmt::format("internal: the fetch of `{}` in kernel `{}` is "
                                                "not run unchecked: {}",
                                                program.source, program.kernel_name, why));
  if (n == 0) return {};

  std::atomic<bool> violation{false};
  const std::uint64_t want =
      options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
  runtime::exec::ThreadPool pool(static_cast<unsigned>(std::clamp<std::uint64_t>(want, 1, n)));
  const std::uint64_t tasks = std::min<std::uint64_t>(n, pool.size() * kTasksPerWorker);
  const FetchFn fn = jc->function();
  pool.run(tasks, [&](std::uint64_t task, unsigned) {
    if (fn(dm_bits.data(), out_bits.data(), n * task / tasks, n * (task + 1) / tasks) != kRunOk)
      violation = true;
  });
  if (violation)
    return run_error("E-JIT-003",
                     fmt::format("kernel `{}`: the checked JIT code stopped an out-of-bounds "
                                 "access of the fetch of `{}` (its sequencer addresses cells "
                                 "outside the DM image or the collected stream)",
                                 program.kernel_name, program.source));
  return {};
}

Result<runtime::DeviceImage> run_fetch_jit(const CompiledFetch& compiled,
                                           const ir::seq::FetchProgram& program,
                                           const runtime::DeviceImage& dm,
                                           const ir::AxisTable& table, JitRunOptions options) {
  // The compiled code must be this program's before anything runs.
  if (auto c = compiled_for_program(compiled, program); !c) return c.diagnostics();
  auto out = runtime::run_fetch(program, dm, table, /*values=*/false);
  if (!out) return out;
  auto ok = run_fetch_values_jit(compiled, program, dm.bits, out->bits, options);
  if (!ok) return ok.diagnostics();
  return out;
}

Result<std::string> emit_llvm_ir(const ir::seq::FetchProgram& program, bool checked) {
  return emit_module([&](const NativeTarget& t,
                         llvm::LLVMContext& c) { return optimised_module(program, checked, t, c); },
                     false, program.kernel_name);
}

Result<std::string> emit_assembly(const ir::seq::FetchProgram& program, bool checked) {
  return emit_module([&](const NativeTarget& t,
                         llvm::LLVMContext& c) { return optimised_module(program, checked, t, c); },
                     true, program.kernel_name);
}

} // namespace tujit::codegen
