// VectorJit on ProgramJit (program_jit.h): the program is emitted by vector_emit.cpp, compiled or
// loaded from the object cache, and linked; the runner partitions the slices over a thread pool
// (slices are independent, so every partition writes the same bits).
#include "codegen/vector_jit.h"

#include "codegen/program_jit.h"
#include "codegen/vector_emit.h"
#include "runtime/exec/thread_pool.h"
#include "runtime/interp/vector_exec.h"
#include "runtime/vector/ve_scalar.h"

#include <fmt/format.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace tujit::codegen {
namespace {

constexpr std::uint64_t kTasksPerWorker = 4;

/// The callback the generated code calls for a value call it does not inline.
std::uint32_t apply_callback(const ir::VectorCall* call, std::uint32_t dtype, std::uint32_t v) {
  return runtime::vector::apply_call(*call, static_cast<ir::ScalarType>(dtype), v);
}

ProgramEmitter emitter(const ir::seq::VectorProgram& program, bool checked) {
  return
      [&program, checked](llvm::LLVMContext& c) { return emit_vector_module(program, checked, c); };
}

class JitCompiledVector final : public CompiledVector {
public:
  JitCompiledVector(CompileStats stats, LinkedFunction fn) : stats_(stats), fn_(std::move(fn)) {}
  ~JitCompiledVector() override {
    if (fn_.release) fn_.release();
  }
  JitCompiledVector(const JitCompiledVector&) = delete;
  JitCompiledVector& operator=(const JitCompiledVector&) = delete;
  const CompileStats& stats() const override { return stats_; }
  VectorFn function() const { return fn_.as<VectorFn>(); }

private:
  CompileStats stats_;
  LinkedFunction fn_;
};

class LlvmVectorJit final : public VectorJit {
public:
  explicit LlvmVectorJit(std::unique_ptr<ProgramJit> jit) : jit_(std::move(jit)) {}

  Result<std::shared_ptr<const CompiledVector>>
  compile(const ir::seq::VectorProgram& program) override {
    CompileStats stats;
    const std::uint64_t fp = ir::seq::fingerprint(program);
    const std::string key =
        fmt::format("tujit vector object; vector codegen {}; program {:016x}; {}",
                    kVectorCodegenVersion, fp, jit_->target_text());
    auto linked = jit_->compile(emitter(program, jit_->options().checked), fp, key, kVectorSymbol,
                                program.kernel_name, stats);
    if (!linked) return linked.diagnostics();
    return std::shared_ptr<const CompiledVector>(
        std::make_shared<JitCompiledVector>(stats, std::move(*linked)));
  }

private:
  std::unique_ptr<ProgramJit> jit_;
};

} // namespace

Result<std::unique_ptr<VectorJit>> VectorJit::create(JitOptions options) {
  auto jit = ProgramJit::create(std::move(options));
  if (!jit) return jit.diagnostics();
  return std::unique_ptr<VectorJit>(std::make_unique<LlvmVectorJit>(std::move(*jit)));
}

Result<runtime::DeviceImage> run_vector_jit(const CompiledVector& compiled,
                                            const ir::seq::VectorProgram& program,
                                            const runtime::DeviceImage& in, JitRunOptions options) {
  const auto* jc = dynamic_cast<const JitCompiledVector*>(&compiled);
  if (jc == nullptr || jc->stats().fingerprint != ir::seq::fingerprint(program))
    return make_run_error("E-JIT-002",
                          fmt::format("internal: the vector pass of kernel `{}` was compiled from "
                                      "another program",
                                      program.kernel_name));
  auto out = runtime::run_vector(program, in, /*values=*/false);
  if (!out) return out;
  const std::uint64_t n = program.spatial;
  if (n == 0) return out;
  std::vector<ir::VectorCall> calls;
  for (const auto& st : program.steps) calls.push_back(st.call);
  std::atomic<bool> violation{false};
  const std::uint64_t want =
      options.threads == 0 ? std::thread::hardware_concurrency() : options.threads;
  runtime::exec::ThreadPool pool(static_cast<unsigned>(std::clamp<std::uint64_t>(want, 1, n)));
  const std::uint64_t tasks = std::min<std::uint64_t>(n, pool.size() * kTasksPerWorker);
  const VectorFn fn = jc->function();
  pool.run(tasks, [&](std::uint64_t task, unsigned) {
    if (fn(in.bits.data(), out->bits.data(), n * task / tasks, n * (task + 1) / tasks,
           &apply_callback, calls.data()) != kRunOk)
      violation = true;
  });
  if (violation)
    return make_run_error("E-JIT-003",
                          fmt::format("kernel `{}`: the checked JIT code of the vector "
                                      "pass stopped an out-of-range slice range",
                                      program.kernel_name));
  return out;
}

Result<std::string> emit_llvm_ir(const ir::seq::VectorProgram& program, bool checked) {
  return ProgramJit::emit_text(emitter(program, checked), false, program.kernel_name);
}

Result<std::string> emit_assembly(const ir::seq::VectorProgram& program, bool checked) {
  return ProgramJit::emit_text(emitter(program, checked), true, program.kernel_name);
}

} // namespace tujit::codegen
