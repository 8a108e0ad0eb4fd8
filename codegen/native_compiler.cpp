#include "codegen/native_compiler.h"

#include "codegen/host_target.h"
#include "codegen/vector_apply.h"

#include <fmt/format.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/BasicAliasAnalysis.h>
#include <llvm/Analysis/BlockFrequencyInfo.h>
#include <llvm/Analysis/BranchProbabilityInfo.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemorySSA.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ProfileSummaryInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScopedNoAliasAA.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/TypeBasedAliasAnalysis.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

#include <mutex>
#include <optional>

namespace tujit::codegen {
namespace {

bool initialise_llvm() {
  static bool ok = [] {
    return !llvm::InitializeNativeTarget() && !llvm::InitializeNativeTargetAsmPrinter();
  }();
  return ok;
}

Diagnostic no_host_target(const std::string& why) {
  Diagnostic d =
      make_error("E-JIT-001", fmt::format("LLVM cannot generate code for this host: {}", why));
  d.stage = "jit";
  return d;
}

} // namespace

Result<NativeTarget> native_target() {
  if (!initialise_llvm()) return no_host_target("the native target is not linked in");
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) return no_host_target(llvm::toString(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
  // Bit-exactness (docs/contraction.md §9.2): never fuse a multiply into an add on LLVM's own
  // initiative; the only FMAs are the explicit llvm.fma calls whose products are exact.
  jtmb->getOptions().AllowFPOpFusion = llvm::FPOpFusion::Strict;
  NativeTarget t;
  t.triple = jtmb->getTargetTriple().str();
  t.cpu = jtmb->getCPU();
  t.features = jtmb->getFeatures().getString();
  auto tm = jtmb->createTargetMachine();
  if (!tm) return no_host_target(llvm::toString(tm.takeError()));
  t.machine = std::shared_ptr<llvm::TargetMachine>(std::move(*tm));
  t.machine->setO0WantsFastISel(true); // the cold tier (CodegenTier)
  t.machine_mu = std::make_shared<std::mutex>();
  return t;
}

namespace {

/// Registers each analysis, default-constructed, with `manager`.
template <typename... Analyses, typename Manager>
void register_default(Manager& manager) {
  (manager.registerPass([] { return Analyses(); }), ...);
}

/// The analyses the pipeline of optimise_module asks for, as llvm::PassBuilder registers them,
/// with its default alias analysis pipeline but for GlobalsAA, which the AA manager only reads
/// when a module pass has computed it (none here). Not through PassBuilder itself: its object
/// names every pass LLVM has, which linked into `tujit` several hundred objects of passes never
/// run whose static initialisers every process paid for at start.
void register_analyses(llvm::TargetMachine& machine, llvm::LoopAnalysisManager& lam,
                       llvm::FunctionAnalysisManager& fam, llvm::ModuleAnalysisManager& mam) {
  register_default<llvm::PassInstrumentationAnalysis, llvm::ProfileSummaryAnalysis>(mam);
  mam.registerPass([&] { return llvm::FunctionAnalysisManagerModuleProxy(fam); });

  register_default<llvm::PassInstrumentationAnalysis>(fam);
  fam.registerPass([] {
    llvm::AAManager aa;
    aa.registerFunctionAnalysis<llvm::BasicAA>();
    aa.registerFunctionAnalysis<llvm::ScopedNoAliasAA>();
    aa.registerFunctionAnalysis<llvm::TypeBasedAA>();
    return aa;
  });
  register_default<llvm::BasicAA, llvm::ScopedNoAliasAA, llvm::TypeBasedAA,
                   llvm::AssumptionAnalysis, llvm::DominatorTreeAnalysis,
                   llvm::PostDominatorTreeAnalysis, llvm::LoopAnalysis,
                   llvm::ScalarEvolutionAnalysis, llvm::MemorySSAAnalysis,
                   llvm::BlockFrequencyAnalysis, llvm::BranchProbabilityAnalysis,
                   llvm::OptimizationRemarkEmitterAnalysis, llvm::TargetLibraryAnalysis>(fam);
  fam.registerPass([&] { return machine.getTargetIRAnalysis(); });
  fam.registerPass([&] { return llvm::ModuleAnalysisManagerFunctionProxy(mam); });
  fam.registerPass([&] { return llvm::LoopAnalysisManagerFunctionProxy(lam); });

  register_default<llvm::PassInstrumentationAnalysis>(lam);
  lam.registerPass([&] { return llvm::FunctionAnalysisManagerLoopProxy(fam); });
}

} // namespace

Status optimise_module(llvm::Module& module, const NativeTarget& target,
                       const std::string& kernel_name) {
  module.setTargetTriple(target.triple);
  module.setDataLayout(target.machine->createDataLayout());
  std::string err;
  llvm::raw_string_ostream es(err);
  if (llvm::verifyModule(module, &es))
    return compile_failure(kernel_name, "internal: the generated IR is invalid: " + es.str());

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::ModuleAnalysisManager mam;
  // A lean pipeline instead of O2: the emitted code is already vectorised, its packet unrolled
  // and its addresses affine, so it needs only CSE, instcombine and LICM (which keeps the reduced
  // slot's accumulator and loop-invariant TRF vectors in registers). O2 gives the same inner loops
  // at about 1.6× the compile time. Measured on every kernel of specs/: EarlyCSE over MemorySSA, a
  // SimplifyCFG, and a second instcombine / SimplifyCFG after LICM change no instruction of the
  // hot code's assembly and cost a third of the pipeline's time, so they are not run.
  register_analyses(*target.machine, lam, fam, mam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
  fpm.addPass(llvm::InstCombinePass());
  llvm::LoopPassManager lpm;
  lpm.addPass(llvm::LICMPass(llvm::LICMOptions()));
  fpm.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(lpm), /*UseMemorySSA=*/true));
  llvm::ModulePassManager mpm;
  mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  mpm.run(module, mam);
  return {};
}

namespace {
constexpr const char* kTierFlag = "tujit.codegen_tier";
} // namespace

void set_codegen_tier(llvm::Module& module, CodegenTier tier) {
  module.addModuleFlag(llvm::Module::Error, kTierFlag, tier == CodegenTier::Cold ? 1 : 0);
}

CodegenTier codegen_tier(const llvm::Module& module) {
  const auto* flag =
      llvm::mdconst::extract_or_null<llvm::ConstantInt>(module.getModuleFlag(kTierFlag));
  return flag != nullptr && flag->isOne() ? CodegenTier::Cold : CodegenTier::Hot;
}

Result<std::string> emit_native(llvm::Module& module, const NativeTarget& target,
                                NativeOutput output, const std::string& kernel_name) {
  // The machine's optimisation level is read while the passes are built and while they run; one
  // machine serves every tier, so that its subtarget (several milliseconds to build) is built once.
  std::lock_guard<std::mutex> lock(*target.machine_mu);
  llvm::TargetMachine& tm = *target.machine;
  const llvm::CodeGenOptLevel hot = tm.getOptLevel();
  struct Restore {
    llvm::TargetMachine& tm;
    llvm::CodeGenOptLevel level;
    ~Restore() { tm.setOptLevel(level); }
  } restore{tm, hot};
  if (codegen_tier(module) == CodegenTier::Cold) tm.setOptLevel(llvm::CodeGenOptLevel::None);
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream os(buffer);
  llvm::legacy::PassManager pm;
  const auto type = output == NativeOutput::Object ? llvm::CodeGenFileType::ObjectFile
                                                   : llvm::CodeGenFileType::AssemblyFile;
  if (tm.addPassesToEmitFile(pm, os, nullptr, type))
    return compile_failure(kernel_name, "the host target cannot emit this file type");
  pm.run(module);
  return std::string(buffer.begin(), buffer.end());
}

namespace {

/// The host's target machine, built once per process on the first compile; the JIT runs code it
/// compiled with the operand layout of native_host_dot(), so the two must agree.
Result<NativeTarget> shared_target() {
  static std::mutex mu;
  static std::optional<Result<NativeTarget>> target;
  std::lock_guard<std::mutex> lock(mu);
  if (!target) {
    target.emplace(native_target());
    if (*target && !(host_dot((*target)->features) == native_host_dot()))
      target.emplace(no_host_target(
          "the vector features LLVM detects differ from the processor's CPUID (host_cpu.h)"));
  }
  return *target;
}

} // namespace

Result<std::string> compile_object(const ModuleBuilder& build, const std::string& kernel_name) {
  auto target = shared_target();
  if (!target) return target.diagnostics();
  llvm::LLVMContext context;
  auto module = build(*target, context);
  if (!module) return module.diagnostics();
  return emit_native(**module, *target, NativeOutput::Object, kernel_name);
}

Result<std::shared_ptr<JitSession>> JitSession::create(const NativeTarget& target) {
  if (!initialise_llvm()) return no_host_target("the native target is not linked in");
  // The session only links objects: it gets the target's description instead of detecting the
  // host again, its data layout instead of a target machine built to ask for it, and an IR
  // compiler that would build its machine only if IR were ever added (it never is).
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(target.triple)};
  jtmb.setCPU(target.cpu);
  jtmb.getFeatures() = llvm::SubtargetFeatures(target.features);
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(jtmb))
                 .setDataLayout(target.machine->createDataLayout())
                 .setCompileFunctionCreator(
                     [](llvm::orc::JITTargetMachineBuilder builder)
                         -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                       return std::make_unique<llvm::orc::ConcurrentIRCompiler>(std::move(builder));
                     })
                 .create();
  if (!jit) return no_host_target(llvm::toString(jit.takeError()));
  std::shared_ptr<JitSession> session(new JitSession());
  session->jit_ = std::move(*jit);
  return session;
}

JitSession::~JitSession() = default;

Result<LinkedFunction> JitSession::link(const std::string& object, const std::string& symbol,
                                        const std::string& dylib_prefix,
                                        const std::string& kernel_name) {
  std::lock_guard<std::mutex> lock(mu_);
  llvm::orc::LLJIT& jit = *jit_;
  auto dylib = jit.createJITDylib(fmt::format("{}.{}", dylib_prefix, dylibs_++));
  if (!dylib) return compile_failure(kernel_name, llvm::toString(dylib.takeError()));
  llvm::orc::JITDylib& jd = *dylib;
  const auto fail = [&](std::string msg) {
    llvm::consumeError(jit.getExecutionSession().removeJITDylib(jd));
    return compile_failure(kernel_name, msg);
  };
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      jit.getDataLayout().getGlobalPrefix());
  if (!process) return fail(llvm::toString(process.takeError()));
  jd.addGenerator(std::move(*process));
  // The host function generated code names (codegen/vector_apply.h).
  if (auto err = jd.define(llvm::orc::absoluteSymbols(
          {{jit.mangleAndIntern(kTranscendentalSymbol),
            {llvm::orc::ExecutorAddr::fromPtr(&tujit_ve_transcendental),
             llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable}}})))
    return fail(llvm::toString(std::move(err)));
  if (auto err = jit.addObjectFile(jd, llvm::MemoryBuffer::getMemBufferCopy(object, kernel_name)))
    return fail(llvm::toString(std::move(err)));
  auto address = jit.lookup(jd, symbol);
  if (!address) return fail(llvm::toString(address.takeError()));
  LinkedFunction f;
  f.address = static_cast<std::uintptr_t>(address->getValue());
  f.release = [self = shared_from_this(), &jd] {
    std::lock_guard<std::mutex> guard(self->mu_);
    llvm::consumeError(self->jit_->getExecutionSession().removeJITDylib(jd));
  };
  return f;
}

std::string module_text(const llvm::Module& module) {
  std::string s;
  llvm::raw_string_ostream os(s);
  module.print(os, nullptr);
  return os.str();
}

Result<std::string> emit_module(const ModuleBuilder& build, bool assembly,
                                const std::string& kernel_name) {
  auto target = native_target();
  if (!target) return target.diagnostics();
  llvm::LLVMContext context;
  auto module = build(*target, context);
  if (!module) return module.diagnostics();
  if (!assembly) return module_text(**module);
  return emit_native(**module, *target, NativeOutput::Assembly, kernel_name);
}

} // namespace tujit::codegen
