// ContractionJit on ORC LLJIT: each program is emitted (contraction_emit.cpp), optimised and
// compiled to an object here (native_compiler.cpp), the object is cached on disk
// (object_cache.cpp) and linked into its own JITDylib, which the CompiledContraction removes when
// it dies. Compiling to an object ourselves (instead of LLJIT's IR layer) makes a cache hit the
// same path as a fresh compile: read bytes, link, look up one symbol.
#include "codegen/contraction_jit.h"

#include "codegen/contraction_emit.h"
#include "codegen/jit_compiled.h"
#include "codegen/native_compiler.h"
#include "codegen/object_cache.h"

#include <fmt/format.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <mutex>

namespace tujit::codegen {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

bool host_has_fma(const NativeTarget& t) {
  return t.features.find("+fma") != std::string::npos;
}

// IR → optimised module → object, for one program.
Result<std::string> compile_object(const ir::seq::ContractionProgram& program, bool checked,
                                   const NativeTarget& target) {
  llvm::LLVMContext context;
  EmitConfig config{checked, host_has_fma(target)};
  auto module = emit_contraction_module(program, config, context);
  if (auto ok = optimise_module(*module, target, program.kernel_name); !ok) return ok.diagnostics();
  return emit_native(*module, target, NativeOutput::Object, program.kernel_name);
}

// The LLJIT instance and what every compile shares; kept alive by every compiled program.
struct JitState {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  NativeTarget target;
  std::mutex mu;
  std::uint64_t dylibs = 0;
};

class LlvmContractionJit final : public ContractionJit {
public:
  LlvmContractionJit(JitOptions options, std::shared_ptr<JitState> state)
      : options_(std::move(options)), state_(std::move(state)) {
    if (options_.use_cache)
      if (auto dir = resolve_cache_dir(options_.cache_dir)) cache_.emplace(*dir);
  }

  Result<std::shared_ptr<const CompiledContraction>>
  compile(const ir::seq::ContractionProgram& program) override;

private:
  std::string cache_key(std::uint64_t fingerprint, bool ftz) const {
    const NativeTarget& t = state_->target;
    return fmt::format("tujit contraction object; codegen {}; program {:016x}; LLVM {}; {}; "
                       "cpu {}; features {}; checked {}; ftz_results {}",
                       kCodegenVersion, fingerprint, LLVM_VERSION_STRING, t.triple, t.cpu,
                       t.features, options_.checked ? 1 : 0, ftz ? 1 : 0);
  }

  JitOptions options_;
  std::shared_ptr<JitState> state_;
  std::optional<ObjectCache> cache_;
};

Result<std::shared_ptr<const CompiledContraction>>
LlvmContractionJit::compile(const ir::seq::ContractionProgram& program) {
  const auto t0 = Clock::now();
  const std::string& name = program.kernel_name;
  CompileStats stats;
  stats.fingerprint = ir::seq::fingerprint(program);
  // ftz_results is keyed explicitly: the program fingerprint may not cover it.
  const std::string key = cache_key(stats.fingerprint, program.ftz_results);

  std::optional<std::string> object;
  if (cache_) object = cache_->load(stats.fingerprint, key);
  stats.cache_hit = object.has_value();
  if (!object) {
    auto compiled = compile_object(program, options_.checked, state_->target);
    if (!compiled) return compiled.diagnostics();
    stats.codegen_ms = ms_since(t0);
    object = std::move(*compiled);
    if (cache_) cache_->store(stats.fingerprint, key, *object);
  }

  std::lock_guard<std::mutex> lock(state_->mu);
  llvm::orc::LLJIT& jit = *state_->jit;
  auto dylib = jit.createJITDylib(fmt::format("tujit.contraction.{}", state_->dylibs++));
  if (!dylib) return compile_failure(name, llvm::toString(dylib.takeError()));
  llvm::orc::JITDylib& jd = *dylib;
  // The object may call memset / memcpy: resolve them in this process.
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit.getDataLayout().getGlobalPrefix());
  if (!process) return compile_failure(name, llvm::toString(process.takeError()));
  jd.addGenerator(std::move(*process));
  auto release = [state = state_, &jd] {
    std::lock_guard<std::mutex> guard(state->mu);
    llvm::consumeError(state->jit->getExecutionSession().removeJITDylib(jd));
  };
  if (auto err = jit.addObjectFile(jd, llvm::MemoryBuffer::getMemBufferCopy(*object, name))) {
    const std::string msg = llvm::toString(std::move(err));
    llvm::consumeError(jit.getExecutionSession().removeJITDylib(jd));
    return compile_failure(name, msg);
  }
  auto symbol = jit.lookup(jd, kContractionSymbol);
  if (!symbol) {
    const std::string msg = llvm::toString(symbol.takeError());
    llvm::consumeError(jit.getExecutionSession().removeJITDylib(jd));
    return compile_failure(name, msg);
  }
  stats.native_ms = ms_since(t0);
  return std::shared_ptr<const CompiledContraction>(std::make_shared<JitCompiledContraction>(
      stats, symbol->toPtr<ContractionFn>(), options_.checked, program.ftz_results, name,
      std::move(release)));
}

Result<std::unique_ptr<llvm::Module>> optimised_module(const ir::seq::ContractionProgram& program,
                                                       bool checked, const NativeTarget& target,
                                                       llvm::LLVMContext& context) {
  auto module =
      emit_contraction_module(program, EmitConfig{checked, host_has_fma(target)}, context);
  if (auto ok = optimise_module(*module, target, program.kernel_name); !ok) return ok.diagnostics();
  return module;
}

} // namespace

Result<std::unique_ptr<ContractionJit>> ContractionJit::create(JitOptions options) {
  auto target = native_target();
  if (!target) return target.diagnostics();
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) {
    Diagnostic d = make_error("E-JIT-001",
                              "LLVM cannot target this host: " + llvm::toString(jtmb.takeError()));
    d.stage = "jit";
    return d;
  }
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) {
    Diagnostic d = make_error("E-JIT-001", "LLVM cannot create a JIT for this host: " +
                                               llvm::toString(jit.takeError()));
    d.stage = "jit";
    return d;
  }
  auto state = std::make_shared<JitState>();
  state->jit = std::move(*jit);
  state->target = std::move(*target);
  return std::unique_ptr<ContractionJit>(
      std::make_unique<LlvmContractionJit>(std::move(options), std::move(state)));
}

Result<std::string> emit_llvm_ir(const ir::seq::ContractionProgram& program, bool checked) {
  return emit_module([&](const NativeTarget& t,
                         llvm::LLVMContext& c) { return optimised_module(program, checked, t, c); },
                     false, program.kernel_name);
}

Result<std::string> emit_assembly(const ir::seq::ContractionProgram& program, bool checked) {
  return emit_module([&](const NativeTarget& t,
                         llvm::LLVMContext& c) { return optimised_module(program, checked, t, c); },
                     true, program.kernel_name);
}

} // namespace tujit::codegen
