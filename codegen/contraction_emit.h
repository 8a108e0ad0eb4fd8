// LLVM IR emission of a contraction run program (ir/seq/run_program.h,
// ir/seq/contraction_program.h: their header comments are the semantics reproduced here). The
// program becomes one function, kContractionSymbol, `i32 tujit_contraction(const
// ContractionArgs*)`, that runs ONE slice: it reads the stream's logical tensor through the
// program's address streams (widening each element in the load), multiplies it with the slice's
// staged TRF (the host widens the TRF once per slice, [Element][kLaneVector]: the hardware's Lane
// Broadcast), reduces, accumulates and drains the slice's output cells straight into the logical
// output. The host calls it once per live slice, from any worker thread; calls share nothing but
// read-only operands and tables. Returns kRunOk, or kRunBoundsViolation in checked mode when an
// address would leave its buffer (nothing is read or written out of bounds). Every trip count,
// stride, tree depth, column count, slot stride, type, packet-cell offset and liveness is a
// constant of the generated code; the per-flit and per-output-cell offset tables are arguments
// (proportional to one dimension).
#pragma once

#include "codegen/host_target.h"
#include "codegen/vrf_operand_tables.h"
#include "ir/seq/run_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

inline constexpr const char* kContractionSymbol = "tujit_contraction";
inline constexpr std::int32_t kRunOk = 0;
inline constexpr std::int32_t kRunBoundsViolation = 1;
/// An output cell the slice does not write (an `out_offset` entry).
inline constexpr std::uint64_t kNoOutput = ~std::uint64_t{0};

/// The arguments of one slice (field order is the generated code's struct layout).
struct ContractionArgs {
  const std::uint8_t* stream;       // the stream's logical tensor at the slice's base element
  std::uint64_t stream_limit;       // elements from `stream` to the tensor's end
  const std::uint32_t* trf;         // staged TRF [|Element|][kLaneVector], accumulator bits
  const std::uint32_t* trf_present; // staged presence masks, or null when every TRF cell is live
  std::uint8_t* out;                // the logical output at the slice's base element
  std::uint64_t out_limit;          // elements from `out` to the output's end
  std::uint32_t* scratch;           // the accumulator, [T2][P2][kLaneVector]
  const std::uint64_t* flit_offset; // stream offset of each flit ([|Time|]), or of each cell
                                    // ([|Time|·|Packet|]) when the stream is not separable
  const std::uint8_t* flit_live;    // 1 = live, same shape; null when every flit is live
  const std::uint64_t* out_offset;  // [|T3|·|P3|] output element of each cell, or kNoOutput
  const VrfOperandArgs* vrf;        // the pass's `&vrf` operands (vrf_operand.h), or null
};

/// C type of the generated function.
using ContractionFn = std::int32_t (*)(const ContractionArgs* args);

struct EmitConfig {
  bool checked = false;  // bounds-check every load and store
  bool host_fma = false; // the host has FMA: fuse the first tree level where it is exact
  HostDot host_dot;      // integer dot products on i16 pairs (pair_madd.h)
};

/// Whether the generated code fuses the first tree level into FMAs (see the .cpp for the proof
/// obligations: f8 × f8 products are exact in f32, and no presence mask may replace a product).
bool uses_fma(const ir::seq::RunProgram& program, const EmitConfig& config);

/// The unoptimised module (target triple / data layout are set by the caller).
std::unique_ptr<llvm::Module> emit_contraction_module(const ir::seq::RunProgram& program,
                                                      const EmitConfig& config,
                                                      llvm::LLVMContext& context);

} // namespace tujit::codegen
