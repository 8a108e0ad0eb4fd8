// The narrowing conversions of the Tensor Unit's output path (the Cast Engine, docs/scalars.md
// §5.2; the Commit Adapter, §5.3) as LLVM IR, for generated loops to run inline: the exact IR
// counterpart of runtime::narrow_bits (runtime/scalar/widen.h) and runtime::relu_narrow_bf16
// (runtime/scalar/bf16.h), which the interpreter calls. Each is integer bit manipulation and
// selects on the container bits, without a branch or a float instruction, so it is bit-exact by
// construction, no fast-math flag can touch it, and a loop of it vectorises.
//
// A value is an i32 container, or a vector of them (every constant is splat to the value's type):
// f32 as its bits, an integer sign-extended; a result is the container runtime::narrow_bits
// returns (an integer sign-extended, a bf16 / f8 code zero-extended in the low bits).
#pragma once

#include "ir/types/scalar_type.h"

#include <llvm/IR/IRBuilder.h>

namespace llvm {
class Value;
} // namespace llvm

namespace tujit::codegen {

/// runtime::narrow_bits(`to`, v): the i32 or f32 bits `v` narrowed to `to` the hardware way
/// (docs/scalars.md §4.1–§4.3, §4.6), for every type, switching on its encoding as narrow_bits
/// does.
llvm::Value* emit_narrow_bits(llvm::IRBuilder<>& b, ir::ScalarType to, llvm::Value* v);

/// runtime::wrap(v, k), 1 <= k <= 32: the low k bits of `v`, sign-extended (docs/scalars.md §3.1,
/// §4.6, §9.3).
llvm::Value* emit_wrap(llvm::IRBuilder<>& b, llvm::Value* v, unsigned k);

/// runtime::narrow_bf16: f32 bits → bf16 code, RNE with subnormals flushed to a signed zero and
/// every NaN made 0x7FC0 (docs/scalars.md §4.1).
llvm::Value* emit_narrow_bf16(llvm::IRBuilder<>& b, llvm::Value* v);

/// runtime::relu_narrow_bf16: the Commit Adapter's fused ReLU, a non-NaN with its sign bit set
/// giving +0, else narrow_bf16 (docs/scalars.md §5.3).
llvm::Value* emit_relu_narrow_bf16(llvm::IRBuilder<>& b, llvm::Value* v);

/// runtime::output_cast_bits(`to`, `relu`, v): the output path's cast of an element leaving the
/// engines (docs/output-path.md §1, §2.2): emit_relu_narrow_bf16 for the Commit Adapter's fused
/// ReLU, else emit_narrow_bits.
llvm::Value* emit_output_cast(llvm::IRBuilder<>& b, ir::ScalarType to, bool relu, llvm::Value* v);

/// runtime::enc_e4m3: f32 bits → f8e4m3 code, saturating RNE (docs/scalars.md §4.2).
llvm::Value* emit_enc_e4m3(llvm::IRBuilder<>& b, llvm::Value* v);

/// runtime::enc_e5m2: f32 bits → f8e5m2 code, the reference's half up on the magnitude with the
/// subnormal clamp at 3 (docs/scalars.md §4.3, §9.1).
llvm::Value* emit_enc_e5m2(llvm::IRBuilder<>& b, llvm::Value* v);

} // namespace tujit::codegen
