// FetchJit on the JIT core (codegen/jit_core.h), and its runner. Like a run program, each fetch
// program is emitted (fetch_emit.cpp), optimised, compiled to an object, cached on disk and placed
// by the object loader in memory of its own, which the CompiledFetch frees when it dies; the
// runner partitions the slices over the thread pool the same way.
#include "tests/support/fetch_jit.h"

#include "codegen/jit_core.h"
#include "codegen/native_compiler.h"
#include "tests/support/fetch_emit.h"
#include "tests/support/fetch_exec.h"

#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <atomic>

namespace tujit::testing {

using codegen::JitCore;
using codegen::JitOptions;
using codegen::JitRunOptions;

namespace {

using codegen::JitProgramKind;
using codegen::ModuleBuilder;
using codegen::NativeTarget;

ModuleBuilder module_builder(const ir::seq::FetchProgram& program, bool checked) {
  return [&program, checked](const NativeTarget& target,
                             llvm::LLVMContext& context) -> Result<std::unique_ptr<llvm::Module>> {
    auto module = emit_fetch_module(program, checked, context);
    if (auto ok = codegen::optimise_module(*module, target, program.kernel_name); !ok)
      return ok.diagnostics();
    return module;
  };
}

// "fetch object" and the fetch code generator's own version keep fetch and run-program objects
// apart even when two fingerprints coincide.
constexpr JitProgramKind kFetchKind{"tujit fetch object; fetch codegen", kFetchCodegenVersion,
                                    kFetchSymbol};

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

/// E-JIT-002 unless `compiled` was compiled from `program`.
Status compiled_for_program(const CompiledFetch& compiled, const ir::seq::FetchProgram& program) {
  if (compiled.stats().fingerprint != ir::seq::fingerprint(program))
    return run_error("E-JIT-002",
                     fmt::format("internal: the fetch of `{}` in kernel `{}` was compiled from "
                                 "another program",
                                 program.source, program.kernel_name));
  return {};
}

} // namespace

CompiledFetch::CompiledFetch(codegen::CompileStats stats, codegen::LinkedFunction code,
                             bool checked)
    : stats_(stats), code_(std::move(code)), checked_(checked) {}

CompiledFetch::~CompiledFetch() {
  if (code_.release) code_.release();
}

Result<std::unique_ptr<FetchJit>> FetchJit::create(JitOptions options) {
  auto core = JitCore::create(std::move(options));
  if (!core) return core.diagnostics();
  return std::make_unique<FetchJit>(std::make_unique<JitCore>(std::move(*core)));
}

FetchJit::FetchJit(std::unique_ptr<JitCore> core) : core_(std::move(core)) {}

FetchJit::~FetchJit() = default;

Result<std::shared_ptr<const CompiledFetch>>
FetchJit::compile(const ir::seq::FetchProgram& program) {
  const bool checked = core_->checked();
  auto object = core_->compile(
      kFetchKind, ir::seq::fingerprint(program),
      [&] {
        return codegen::compile_object(module_builder(program, checked), program.kernel_name);
      },
      program.kernel_name);
  if (!object) return object.diagnostics();
  return std::shared_ptr<const CompiledFetch>(
      std::make_shared<CompiledFetch>(object->stats, std::move(object->fn), core_->checked()));
}

Status run_fetch_values_jit(const CompiledFetch& compiled, const ir::seq::FetchProgram& program,
                            std::span<const std::uint32_t> dm_bits,
                            std::span<std::uint32_t> out_bits, JitRunOptions options) {
  if (auto ok = compiled_for_program(compiled, program); !ok) return ok.diagnostics();
  if (program.switch_engine) // slices are not independent (tests/support/fetch_exec.cpp)
    return run_error("E-RUN-110", fmt::format("the fetch of `{}` goes through the Switch Engine, "
                                              "which the slice-by-slice executor does not run",
                                              program.source));
  const std::uint64_t n = program.spatial;
  const std::uint64_t out_cells = program.collected_time() * program.flit_elements;
  if (dm_bits.size() != n * program.buffer || out_bits.size() != n * out_cells)
    return run_error("E-RUN-102",
                     fmt::format("the fetch of `{}` reads a DM image of {} cells and writes a "
                                 "stream of {} cells; the program needs {}·{} and {}·{}",
                                 program.source, dm_bits.size(), out_bits.size(), n, program.buffer,
                                 n, out_cells));
  if (!compiled.checked())
    if (std::string why = unsafe_program(program); !why.empty())
      return run_error("E-RUN-102", fmt::format("internal: the fetch of `{}` in kernel `{}` is "
                                                "not run unchecked: {}",
                                                program.source, program.kernel_name, why));
  if (n == 0) return {};

  std::atomic<bool> violation{false};
  runtime::exec::PoolLease pool(codegen::pool_size(options.threads, n));
  const FetchFn fn = compiled.function();
  codegen::for_each_slice_range(*pool, n, [&](std::uint64_t begin, std::uint64_t end, unsigned) {
    if (fn(dm_bits.data(), out_bits.data(), begin, end) != codegen::kRunOk) violation = true;
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
  auto out = run_fetch(program, dm, table, /*values=*/false);
  if (!out) return out;
  auto ok = run_fetch_values_jit(compiled, program, dm.bits, out->bits, options);
  if (!ok) return ok.diagnostics();
  return out;
}

Result<std::string> emit_llvm_ir(const ir::seq::FetchProgram& program, bool checked) {
  return codegen::emit_module(module_builder(program, checked), false, program.kernel_name);
}

Result<std::string> emit_assembly(const ir::seq::FetchProgram& program, bool checked) {
  return codegen::emit_module(module_builder(program, checked), true, program.kernel_name);
}

} // namespace tujit::testing
