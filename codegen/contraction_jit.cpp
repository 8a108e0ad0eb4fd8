// ContractionJit on the shared ORC session (native_compiler.h JitSession): each program is
// emitted (contraction_emit.cpp), optimised and compiled to an object (native_compiler.cpp), the
// object is cached on disk (object_cache.cpp) and linked into a JITDylib of its own, which the
// CompiledContraction removes when it dies. Compiling to an object ourselves makes a cache hit the
// same path as a fresh compile: read bytes, link, look up one symbol.
#include "codegen/contraction_jit.h"

#include "codegen/contraction_emit.h"
#include "codegen/jit_compiled.h"
#include "codegen/move_emit.h"
#include "codegen/native_compiler.h"
#include "codegen/object_cache.h"
#include "codegen/partial_emit.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <chrono>

namespace tujit::codegen {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool host_has_fma(const NativeTarget& t) {
  return t.features.find("+fma") != std::string::npos;
}

Result<std::unique_ptr<llvm::Module>> optimised_module(const ir::seq::RunProgram& program,
                                                       bool checked, const NativeTarget& target,
                                                       llvm::LLVMContext& context) {
  auto module =
      program.kind == ir::seq::RunKind::Move ? emit_move_module(program, checked, context)
      : is_partial(program)
          ? emit_partial_module(program, checked, context)
          : emit_contraction_module(program, EmitConfig{checked, host_has_fma(target)}, context);
  if (auto ok = optimise_module(*module, target, program.kernel_name); !ok) return ok.diagnostics();
  return module;
}

class LlvmContractionJit final : public ContractionJit {
public:
  LlvmContractionJit(JitOptions options, NativeTarget target, std::shared_ptr<JitSession> session)
      : options_(std::move(options)), target_(std::move(target)), session_(std::move(session)) {
    if (options_.use_cache)
      if (auto dir = resolve_cache_dir(options_.cache_dir)) cache_.emplace(*dir);
  }

  Result<std::shared_ptr<const CompiledContraction>>
  compile(const ir::seq::RunProgram& program) override;

private:
  std::string cache_key(std::uint64_t fingerprint) const {
    return fmt::format("tujit run object; codegen {}; program {:016x}; LLVM {}; {}; "
                       "cpu {}; features {}; checked {}",
                       kCodegenVersion, fingerprint, LLVM_VERSION_STRING, target_.triple,
                       target_.cpu, target_.features, options_.checked ? 1 : 0);
  }

  JitOptions options_;
  NativeTarget target_;
  std::shared_ptr<JitSession> session_;
  std::optional<ObjectCache> cache_;
};

Result<std::shared_ptr<const CompiledContraction>>
LlvmContractionJit::compile(const ir::seq::RunProgram& program) {
  const auto t0 = Clock::now();
  CompileStats stats;
  // The run program's fingerprint covers ftz_results and every address stream.
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
  const bool move = program.kind == ir::seq::RunKind::Move;
  auto linked = session_->link(*object, move ? kMoveSymbol : kContractionSymbol,
                               move ? "tujit.move" : "tujit.contraction", program.kernel_name);
  if (!linked) return linked.diagnostics();
  stats.native_ms = ms_since(t0);
  return std::shared_ptr<const CompiledContraction>(std::make_shared<JitCompiledContraction>(
      stats, std::move(*linked), options_.checked, program.kernel_name));
}

} // namespace

Result<std::unique_ptr<ContractionJit>> ContractionJit::create(JitOptions options) {
  auto target = native_target();
  if (!target) return target.diagnostics();
  auto session = JitSession::create();
  if (!session) return session.diagnostics();
  return std::unique_ptr<ContractionJit>(std::make_unique<LlvmContractionJit>(
      std::move(options), std::move(*target), std::move(*session)));
}

Result<std::string> emit_llvm_ir(const ir::seq::RunProgram& program, bool checked) {
  return emit_module([&](const NativeTarget& t,
                         llvm::LLVMContext& c) { return optimised_module(program, checked, t, c); },
                     false, program.kernel_name);
}

Result<std::string> emit_assembly(const ir::seq::RunProgram& program, bool checked) {
  return emit_module([&](const NativeTarget& t,
                         llvm::LLVMContext& c) { return optimised_module(program, checked, t, c); },
                     true, program.kernel_name);
}

} // namespace tujit::codegen
