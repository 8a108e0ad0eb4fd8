#include "codegen/jit_core.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace tujit::codegen {

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

} // namespace

JitCore::JitCore(JitOptions options, NativeTarget target, std::shared_ptr<JitSession> session)
    : options_(std::move(options)), target_(std::move(target)), session_(std::move(session)) {
  if (options_.use_cache)
    if (auto dir = resolve_cache_dir(options_.cache_dir)) cache_.emplace(*dir);
}

Result<JitCore> JitCore::create(JitOptions options) {
  auto target = native_target();
  if (!target) return target.diagnostics();
  auto session = JitSession::create(*target);
  if (!session) return session.diagnostics();
  return JitCore(std::move(options), std::move(*target), std::move(*session));
}

// Everything the object depends on besides the program: the code generator, the back end's
// pipeline, LLVM, the host CPU and its features, checked code or not.
std::string JitCore::cache_key(const JitProgramKind& kind, std::uint64_t fingerprint) const {
  return fmt::format(
      "{} {}; program {:016x}; backend {}; LLVM {}; {}; cpu {}; features {}; checked {}",
      kind.cache_label, kind.codegen_version, fingerprint, kBackendPipeline, LLVM_VERSION_STRING,
      target_.triple, target_.cpu, target_.features, options_.checked ? 1 : 0);
}

Result<JitObject> JitCore::compile(const JitProgramKind& kind, std::uint64_t fingerprint,
                                   const ModuleBuilder& build, const std::string& kernel_name,
                                   const std::string& module_name) {
  const auto t0 = Clock::now();
  CompileStats stats;
  stats.fingerprint = fingerprint;
  const std::string key = cache_key(kind, fingerprint);

  // Compiling to an object ourselves makes a cache hit the same path as a fresh compile: read
  // bytes, link, look up one symbol.
  std::optional<std::string> object;
  if (cache_) object = cache_->load(fingerprint, key);
  stats.cache_hit = object.has_value();
  if (!object) {
    llvm::LLVMContext context;
    auto module = build(target_, context);
    if (!module) return module.diagnostics();
    auto compiled = emit_native(**module, target_, NativeOutput::Object, kernel_name);
    if (!compiled) return compiled.diagnostics();
    stats.codegen_ms = ms_since(t0);
    object = std::move(*compiled);
    if (cache_) cache_->store(fingerprint, key, *object);
  }
  auto linked = session_->link(*object, std::string(kind.symbol), std::string(kind.dylib_prefix),
                               module_name);
  if (!linked) return linked.diagnostics();
  stats.native_ms = ms_since(t0);
  return JitObject{stats, std::move(*linked)};
}

unsigned pool_size(unsigned threads, std::uint64_t most) {
  const std::uint64_t want = threads == 0 ? std::thread::hardware_concurrency() : threads;
  return static_cast<unsigned>(
      std::clamp<std::uint64_t>(want, 1, std::max<std::uint64_t>(most, 1)));
}

void for_each_slice_range(
    runtime::exec::ThreadPool& pool, std::uint64_t n,
    const std::function<void(std::uint64_t begin, std::uint64_t end, unsigned worker)>& body) {
  if (n == 0) return;
  const std::uint64_t tasks = std::min<std::uint64_t>(n, pool.size() * kSliceTasksPerWorker);
  pool.run(tasks, [&](std::uint64_t task, unsigned worker) {
    body(n * task / tasks, n * (task + 1) / tasks, worker);
  });
}

} // namespace tujit::codegen
