// The staged TRF as the HALF PACKETS of f32 contractions read it (contraction_emit.cpp): one
// 16-lane vector per element x holding element x's 8 lanes, then element x + half's, so that
// the two products a zmm multiply forms for cells j and j + half meet their TRF vectors in one
// aligned load. A copy on the slice function's stack, made once per slice call from the staged
// TRF (runtime/exec/operand_staging.h); it moves bits only.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

namespace tujit::codegen {

/// Largest copy made (bytes); a larger TRF is read as two 8-lane halves instead.
inline constexpr std::uint64_t kMaxTrfHalvesBytes = 64 * 1024;

/// Emits the copy at the builder's insert point, which must be in `f`'s entry block: row x of the
/// result is [trf[x] | trf[x + half]] (8 f32 each; zeros past the last of `elements`). Null when
/// the copy would exceed kMaxTrfHalvesBytes.
llvm::Value* emit_trf_halves(llvm::IRBuilder<>& b, llvm::Function* f, llvm::Value* trf,
                             std::uint64_t elements, std::uint64_t half);

} // namespace tujit::codegen
