// The LLVM ORC JIT back end of the data path from DM (ir/seq/fetch_program.h): a FetchProgram
// becomes one native function (codegen/fetch_emit.h) that runs the Fetch sequencer's loop nest,
// the Fetch Adapter and Collect's placement over a range of slices, bit-exactly like the
// interpreter (runtime/interp/fetch_exec.h). The machinery is the contraction JIT's: the options
// and statistics of contraction_jit.h, the lean pass pipeline and the linker of
// native_compiler.h, the on-disk object cache of object_cache.h (fetch objects have keys of their
// own, so they never collide with contraction objects), the slice-parallel thread pool.
#pragma once

#include "codegen/contraction_jit.h"
#include "ir/mapping/mapping.h"
#include "ir/seq/fetch_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tujit::codegen {

/// One compiled fetch program: owns its JIT code for as long as it lives.
class CompiledFetch {
public:
  virtual ~CompiledFetch() = default;
  virtual const CompileStats& stats() const = 0;
};

class FetchJit {
public:
  virtual ~FetchJit() = default;
  /// The host's LLJIT instance. E-JIT-001 when LLVM cannot target the host.
  static Result<std::unique_ptr<FetchJit>> create(JitOptions options = {});
  /// Compiles (or loads from the cache). E-JIT-002 with the kernel's name when LLVM fails.
  virtual Result<std::shared_ptr<const CompiledFetch>>
  compile(const ir::seq::FetchProgram& program) = 0;
};

/// The JIT counterpart of runtime::run_fetch: run_fetch(program, dm, table, /*values=*/false)
/// gives the cell states, the padding bits and its diagnostics (E-RUN-102 shape, E-RUN-111 a
/// `#{!}` read), then the native code fills every fetched value (run_fetch_values_jit). The image
/// is bit- and state-identical to run_fetch(program, dm, table) for any thread count. E-JIT-002
/// when `compiled` was not compiled from `program`.
Result<runtime::DeviceImage> run_fetch_jit(const CompiledFetch& compiled,
                                           const ir::seq::FetchProgram& program,
                                           const runtime::DeviceImage& dm,
                                           const ir::AxisTable& table, JitRunOptions options = {});

/// Values only: out_bits[cell of pos] = the Fetch Adapter of dm_bits[…] for every stream position
/// of every slice; the other cells of out_bits are not touched. dm_bits is [spatial][buffer] (a
/// DeviceImage's [spatial][outer][inner] with outer·inner = buffer), out_bits
/// [spatial][collected_time][flit_elements] (E-RUN-102 otherwise). Unchecked code runs only a
/// program whose loops stay inside its images (E-RUN-102 otherwise); checked code runs any program
/// and stops at the first out-of-range access (E-JIT-003).
Status run_fetch_values_jit(const CompiledFetch& compiled, const ir::seq::FetchProgram& program,
                            std::span<const std::uint32_t> dm_bits,
                            std::span<std::uint32_t> out_bits, JitRunOptions options = {});

/// `tujit compile --emit llvm` (optimised module text) and `--emit asm` of a fetch program.
Result<std::string> emit_llvm_ir(const ir::seq::FetchProgram& program, bool checked = false);
Result<std::string> emit_assembly(const ir::seq::FetchProgram& program, bool checked = false);

} // namespace tujit::codegen
