// A JIT of the data path from DM (ir/seq/fetch_program.h), for the tests: a FetchProgram becomes
// one native function (fetch_emit.h) that runs the Fetch sequencer's loop nest, the Fetch Adapter
// and Collect's placement over a range of slices, bit-exactly like the fetch interpreter
// (fetch_exec.h). tujit itself runs a fetch as part of the run program that reads it (its address
// streams, ir/seq/operand_streams.h); this second engine checks the fetch semantics on the JIT's
// own machinery: the options and statistics of codegen/contraction_jit.h, the JIT core of
// codegen/jit_core.h (the lean pass pipeline, the linker, the on-disk object cache: fetch objects
// have keys of their own, so they never collide with run-program objects), the slice-parallel
// thread pool.
#pragma once

#include "codegen/contraction_jit.h"
#include "codegen/native_compiler.h"
#include "ir/mapping/mapping.h"
#include "ir/seq/fetch_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"
#include "tests/support/fetch_emit.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tujit::testing {

/// One compiled fetch program: owns its linked code and frees it when it dies.
class CompiledFetch {
public:
  CompiledFetch(codegen::CompileStats stats, codegen::LinkedFunction code, bool checked);
  ~CompiledFetch();
  CompiledFetch(const CompiledFetch&) = delete;
  CompiledFetch& operator=(const CompiledFetch&) = delete;

  const codegen::CompileStats& stats() const { return stats_; }
  /// Compiled with bounds checks (JitOptions::checked).
  bool checked() const { return checked_; }
  FetchFn function() const { return code_.as<FetchFn>(); }

private:
  codegen::CompileStats stats_;
  codegen::LinkedFunction code_;
  bool checked_;
};

class FetchJit {
public:
  /// The JIT and its object cache (E-JIT-001 on the first miss when LLVM cannot target the host).
  static Result<std::unique_ptr<FetchJit>> create(codegen::JitOptions options = {});
  explicit FetchJit(std::unique_ptr<codegen::JitCore> core);
  ~FetchJit();
  /// Compiles (or loads from the cache). E-JIT-002 with the kernel's name when LLVM fails.
  Result<std::shared_ptr<const CompiledFetch>> compile(const ir::seq::FetchProgram& program);

private:
  std::unique_ptr<codegen::JitCore> core_;
};

/// The JIT counterpart of run_fetch (fetch_exec.h): run_fetch(program, dm, table, /*values=*/false)
/// gives the cell states, the padding bits and its diagnostics (E-RUN-102 shape, E-RUN-111 a
/// `#{!}` read), then the native code fills every fetched value (run_fetch_values_jit). The image
/// is bit- and state-identical to run_fetch(program, dm, table) for any thread count. E-JIT-002
/// when `compiled` was not compiled from `program`.
Result<runtime::DeviceImage> run_fetch_jit(const CompiledFetch& compiled,
                                           const ir::seq::FetchProgram& program,
                                           const runtime::DeviceImage& dm,
                                           const ir::AxisTable& table,
                                           codegen::JitRunOptions options = {});

/// Values only: out_bits[cell of pos] = the Fetch Adapter of dm_bits[…] for every stream position
/// of every slice; the other cells of out_bits are not touched. dm_bits is [spatial][buffer] (a
/// DeviceImage's [spatial][outer][inner] with outer·inner = buffer), out_bits
/// [spatial][collected_time][flit_elements] (E-RUN-102 otherwise). Unchecked code runs only a
/// program whose loops stay inside its images (E-RUN-102 otherwise); checked code runs any program
/// and stops at the first out-of-range access (E-JIT-003).
Status run_fetch_values_jit(const CompiledFetch& compiled, const ir::seq::FetchProgram& program,
                            std::span<const std::uint32_t> dm_bits,
                            std::span<std::uint32_t> out_bits, codegen::JitRunOptions options = {});

/// The optimised module text and the host assembly of a fetch program's code.
Result<std::string> emit_llvm_ir(const ir::seq::FetchProgram& program, bool checked = false);
Result<std::string> emit_assembly(const ir::seq::FetchProgram& program, bool checked = false);

} // namespace tujit::testing
