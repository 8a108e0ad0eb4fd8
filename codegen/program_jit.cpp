#include "codegen/program_jit.h"

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
} // namespace

ProgramJit::ProgramJit(JitOptions options, NativeTarget target, std::shared_ptr<JitSession> session)
    : options_(std::move(options)), target_(std::move(target)), session_(std::move(session)) {
  if (options_.use_cache)
    if (auto dir = resolve_cache_dir(options_.cache_dir)) cache_.emplace(*dir);
}

Result<std::unique_ptr<ProgramJit>> ProgramJit::create(JitOptions options) {
  auto target = native_target();
  if (!target) return target.diagnostics();
  auto session = JitSession::create();
  if (!session) return session.diagnostics();
  return std::unique_ptr<ProgramJit>(
      new ProgramJit(std::move(options), std::move(*target), std::move(*session)));
}

std::string ProgramJit::target_text() const {
  return fmt::format("LLVM {}; {}; cpu {}; features {}; checked {}", LLVM_VERSION_STRING,
                     target_.triple, target_.cpu, target_.features, options_.checked ? 1 : 0);
}

Result<LinkedFunction> ProgramJit::compile(const ProgramEmitter& emit, std::uint64_t fingerprint,
                                           const std::string& key, const std::string& symbol,
                                           const std::string& kernel_name, CompileStats& stats) {
  const auto t0 = Clock::now();
  stats.fingerprint = fingerprint;
  std::optional<std::string> object;
  if (cache_) object = cache_->load(fingerprint, key);
  stats.cache_hit = object.has_value();
  if (!object) {
    llvm::LLVMContext context;
    auto module = emit(context);
    if (auto ok = optimise_module(*module, target_, kernel_name); !ok) return ok.diagnostics();
    auto compiled = emit_native(*module, target_, NativeOutput::Object, kernel_name);
    if (!compiled) return compiled.diagnostics();
    stats.codegen_ms = ms_since(t0);
    object = std::move(*compiled);
    if (cache_) cache_->store(fingerprint, key, *object);
  }
  auto linked = session_->link(*object, symbol, "tujit." + symbol, kernel_name);
  stats.native_ms = ms_since(t0);
  return linked;
}

Result<std::string> ProgramJit::emit_text(const ProgramEmitter& emit, bool assembly,
                                          const std::string& kernel_name) {
  return emit_module(
      [&](const NativeTarget& t, llvm::LLVMContext& c) -> Result<std::unique_ptr<llvm::Module>> {
        auto module = emit(c);
        if (auto ok = optimise_module(*module, t, kernel_name); !ok) return ok.diagnostics();
        return module;
      },
      assembly, kernel_name);
}

} // namespace tujit::codegen
