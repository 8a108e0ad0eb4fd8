// The numerics of every Vector Engine op tujit simulates, on raw 32-bit patterns (an f32 is its
// bits, an i32 its two's-complement bits): runtime/vector/ve_semantics.h describes each op once;
// this is its instantiation on C++ scalars, which the interpreter runs (the JIT emits the same
// description as LLVM IR, codegen/vector_chain_emit.h). docs/vector-engine.md states each op's
// numerics; in short:
//
//   float ops      IEEE 754 binary32, round to nearest even, subnormals kept (not flushed); a NaN
//                  result is the canonical quiet NaN 0x7FC00000 (any NaN input gives it).
//   Sqrt, AddF, SubF, MulF, DivF, FmaF, Clip Add
//                  the correctly rounded IEEE operation (FmaF fused: one rounding).
//   Exp, NegExp, Tanh, Erf, Log, Sin, Cos
//                  correctly rounded: the binary32 nearest (ties to even) to the exact value of
//                  the function at the input (NegExp: at −x). A float64 evaluation decides it
//                  when its error bound cannot straddle a rounding boundary; otherwise a 332-bit
//                  evaluation (Boost.Multiprecision) does (correctly_rounded_bits).
//   Sigmoid        the reference's formula in binary32 steps: 1 / (1 + Exp(−x)), each step
//                  correctly rounded.
//   Min/Max (f32)  IEEE minNum / maxNum: a NaN operand yields the other; −0 < +0.
//   integer ops    as the reference (furiosa-opt-std engine/vector/op/semantics.rs): wrapping or
//                  saturating i32 arithmetic, shifts by the operand's low 5 bits, MulFxp the Q31
//                  product rounded half up, MIN·MIN saturating to MAX.
#pragma once

#include "ir/seq/vector_program.h"
#include "ir/types/scalar_type.h"
#include "ir/types/vector_op.h"
#include "runtime/vector/ve_semantics.h"

#include <cstdint>
#include <span>

namespace tujit::runtime::vector {

/// The canonical quiet NaN every float op returns instead of a NaN.
inline constexpr std::uint32_t kCanonicalNaN = semantics::kCanonicalNaN;

/// The correctly rounded binary32 of a transcendental op (Exp, NegExp, Tanh, Erf, Log, Sin, Cos)
/// at `x`; the canonical NaN for a NaN. Generated code calls it by its C name
/// (kTranscendentalSymbol).
std::uint32_t correctly_rounded_bits(ir::FpUnaryOp op, std::uint32_t x);

std::uint32_t fp_unary(ir::FpUnaryOp op, std::uint32_t x);
/// AddF, SubF, MulF, DivF on (a, b) in that order.
std::uint32_t fp_binary(ir::FpBinaryOp op, std::uint32_t a, std::uint32_t b);
std::uint32_t fxp_binary(ir::FxpBinaryOp op, std::uint32_t a, std::uint32_t b);
/// `f32` selects the ClipBinaryOpF32 semantics (else ClipBinaryOpI32).
std::uint32_t clip_binary(ir::ClipBinaryOp op, bool f32, std::uint32_t a, std::uint32_t b);
/// FxpToFp / FpToFxp (docs/scalars.md §4.7): the i32 `v` with `iw` integer bits means
/// v·2^−(31−iw).
std::uint32_t fxp_to_f32(std::int32_t v, std::uint32_t iw);
std::int32_t f32_to_fxp(std::uint32_t x, std::uint32_t iw);

/// `x` with a NaN replaced by kCanonicalNaN.
constexpr std::uint32_t canonical(std::uint32_t x) {
  return (x & 0x7FFFFFFFu) > 0x7F800000u ? kCanonicalNaN : x;
}

} // namespace tujit::runtime::vector

namespace tujit::runtime::vector {

/// One value call of a Vector Engine chain on one element `v` of a `dtype` stream (the call's
/// operands are constants of the same scalar). Layout calls and the entry / exit leave `v`.
std::uint32_t apply_call(const ir::VectorCall& call, ir::ScalarType dtype, std::uint32_t v);

/// The pass's value calls on one element, in order: what both engines compute for every live
/// element a Vector Engine pass moves. `vrf` holds the element's `&vrf` operands in call order.
std::uint32_t apply_pass(const ir::seq::VectorProgram& p, std::uint32_t v,
                         std::span<const std::uint32_t> vrf = {});

} // namespace tujit::runtime::vector
