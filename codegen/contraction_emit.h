// LLVM IR emission of one ContractionProgram (ir/seq/contraction_program.h: its header comment is
// the semantics reproduced here). The program becomes one function, kContractionSymbol:
//
//   i32 tujit_contraction(const u32* stream, const u32* stream_present,
//                         const u32* trf, const u32* trf_present, u32* out, u32* acc_scratch)
//
// over ONE slice's staged operands (runtime/exec/operand_staging.h): it writes the slice's
// |T3|·|P3| output cells (drained, NaN canonical, padding 0). `acc_scratch` holds the slice's
// accumulator, [T2][P2][kLaneVector]. The host loops over the live slices (one call each, from
// any worker thread; calls share nothing but read-only operands).
// Returns kRunOk, or kRunBoundsViolation in checked mode when an address would leave its buffer
// (nothing is read or written out of bounds). Every trip count, stride, tree depth, column count,
// slot stride, type and liveness table is a constant of the generated code.
#pragma once

#include "ir/seq/contraction_program.h"

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

/// C type of the generated function.
using ContractionFn = std::int32_t (*)(const std::uint32_t* stream,
                                       const std::uint32_t* stream_present,
                                       const std::uint32_t* trf, const std::uint32_t* trf_present,
                                       std::uint32_t* out, std::uint32_t* acc_scratch);

struct EmitConfig {
  bool checked = false;  // bounds-check every load and store
  bool host_fma = false; // the host has FMA: fuse the first tree level where it is exact
};

/// Whether the generated code fuses the first tree level into FMAs (see the .cpp for the proof
/// obligations: f8 × f8 products are exact in f32, and no presence mask may replace a product).
bool uses_fma(const ir::seq::ContractionProgram& program, const EmitConfig& config);

/// The unoptimised module (target triple / data layout are set by the caller).
std::unique_ptr<llvm::Module> emit_contraction_module(const ir::seq::ContractionProgram& program,
                                                      const EmitConfig& config,
                                                      llvm::LLVMContext& context);

} // namespace tujit::codegen
