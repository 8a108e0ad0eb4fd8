// LLVM IR emission of one FetchProgram for the tests' fetch JIT (fetch_jit.h;
// ir/seq/fetch_program.h: its header comment is the semantics reproduced here, fetch_exec.cpp the
// reference). The program becomes one function, kFetchSymbol:
//
//   i32 tujit_fetch(const u32* dm_bits, u32* out_bits, u64 slice_begin, u64 slice_end)
//
// over the whole images (dm [spatial][1][buffer], out [spatial][collected_time][flit_elements]):
// for every slice s in [slice_begin, slice_end) it runs the Fetch sequencer's nested loops and
// writes out_bits[s·|T|·F·E + (pos / |P|)·F·E + pos mod |P|] = adapt(dm_bits[s·buffer + addr]) for
// every stream position pos whose address lies inside the buffer. Cells the fetch does not write
// (Collect's fill, and padded positions that over-read past the buffer) are left untouched.
// Slices share nothing, so the host may call it on disjoint ranges from any threads at once.
// Returns kRunOk, or kRunBoundsViolation in checked mode when a slice range, a DM address or an
// output cell would leave its image (nothing is read or written out of bounds then).
// Every trip count, stride, type and the zero point are constants of the generated code.
#pragma once

#include "codegen/contraction_emit.h"
#include "ir/seq/fetch_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::testing {

inline constexpr const char* kFetchSymbol = "tujit_fetch";

/// Bump when the fetch code generator's output for a given program changes (object cache key).
inline constexpr std::uint32_t kFetchCodegenVersion = 3;

/// C type of the generated function (returns kRunOk / kRunBoundsViolation,
/// codegen/contraction_emit.h).
using FetchFn = std::int32_t (*)(const std::uint32_t* dm_bits, std::uint32_t* out_bits,
                                 std::uint64_t slice_begin, std::uint64_t slice_end);

/// The Fetch Adapter conversion a program applies after its table lookup (when it has one, a load
/// from a constant copy of the runtime's table), chosen exactly as the interpreter chooses it:
/// runtime::zero_point_sub_bits with a zero point, else runtime::fetch_cast_bits of the lookup's
/// output (runtime/scalar/fetch_adapter.h).
enum class FetchConversion : std::uint8_t {
  Identity,    // same type, or an integer widening (the container is already sign-extended)
  ZeroPointI5, // Wrap(5)(sext(v) − zp), docs/scalars.md §6
  ZeroPointI9, // Wrap(9)(sext(v) − zp)
  DecodeE4M3,  // f8e4m3 → f32, docs/scalars.md §3.3
  DecodeE5M2,  // f8e5m2 → f32, docs/scalars.md §3.4
  WidenBf16,   // bf16 → f32, docs/scalars.md §4.1 widen_bf16
  NarrowBf16,  // f32 → bf16, docs/scalars.md §4.1 narrow_bf16
};

FetchConversion fetch_conversion(const ir::seq::FetchProgram& program);

/// The unoptimised module (target triple / data layout are set by the caller). `checked`
/// bounds-checks the slice range and every load and store.
std::unique_ptr<llvm::Module> emit_fetch_module(const ir::seq::FetchProgram& program, bool checked,
                                                llvm::LLVMContext& context);

} // namespace tujit::testing
