#include "codegen/jit_core.h"

#include "codegen/build_identity.h"
#include "codegen/compile_backend.h"
#include "codegen/host_cpu.h"
#include "codegen/native_compiler.h"
#include "codegen/object_loader.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h> // LLVM_VERSION_STRING only: a macro, no code

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

Diagnostic compile_failure(const std::string& kernel_name, const std::string& what) {
  Diagnostic d = make_error(
      "E-JIT-002", fmt::format("LLVM failed to compile kernel `{}`: {}", kernel_name, what));
  d.stage = "jit";
  return d;
}

JitCore::JitCore(JitOptions options) : options_(std::move(options)) {
  // The compile backend's library is rebuilt without relinking `tujit`: its own build ID is part
  // of every key (compile_backend.h).
  if (options_.use_cache && !build_identity().empty())
    if (auto dir = resolve_cache_dir(options_.cache_dir)) {
      const std::string& backend = compile_backend_identity();
      cache_.emplace(*dir, backend.empty() ? build_identity()
                                           : build_identity() + " compiler " + backend);
    }
}

Result<JitCore> JitCore::create(JitOptions options) {
  return JitCore(std::move(options));
}

// Everything the object depends on besides the program: the code generator, the back end's
// pipeline, LLVM, the host CPU (the CPUID words its name and features come from), checked code or
// not.
std::string JitCore::cache_key(const JitProgramKind& kind, std::uint64_t fingerprint) const {
  return fmt::format("{} {}; program {:016x}; backend {}; LLVM {}; {}; checked {}",
                     kind.cache_label, kind.codegen_version, fingerprint, kBackendPipeline,
                     LLVM_VERSION_STRING, host_cpu_key(), options_.checked ? 1 : 0);
}

Result<JitObject> JitCore::compile(const JitProgramKind& kind, std::uint64_t fingerprint,
                                   const ObjectMaker& make, const std::string& kernel_name) {
  const auto t0 = Clock::now();
  CompileStats stats;
  stats.fingerprint = fingerprint;
  const std::string key = cache_key(kind, fingerprint);
  // A hit and a fresh compile take the same path from the object's bytes: the loader places
  // them and the kind's symbol is looked up.
  const auto place = [&](const std::string& object) -> std::optional<LinkedFunction> {
    auto loaded = load_object(object, runtime_symbols());
    return loaded.image ? loaded_function(std::move(loaded.image), kind.symbol) : std::nullopt;
  };
  if (cache_)
    if (auto object = cache_->load(fingerprint, key))
      if (auto fn = place(*object)) {
        stats.cache_hit = true;
        stats.native_ms = ms_since(t0);
        return JitObject{stats, std::move(*fn)};
      }
  auto object = make();
  if (!object) return object.diagnostics();
  stats.codegen_ms = ms_since(t0);
  auto loaded = load_object(*object, runtime_symbols());
  if (!loaded.image)
    return compile_failure(kernel_name,
                           "the object loader refused the compiled object: " + loaded.refusal);
  auto fn = loaded_function(std::move(loaded.image), kind.symbol);
  if (!fn)
    return compile_failure(kernel_name,
                           fmt::format("the compiled object defines no `{}`", kind.symbol));
  if (cache_) cache_->store(fingerprint, key, *object);
  stats.native_ms = ms_since(t0);
  return JitObject{stats, std::move(*fn)};
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
