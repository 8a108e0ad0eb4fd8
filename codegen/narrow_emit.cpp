// LLVM IR of the narrowing conversions (narrow_emit.h). Each function computes what its
// runtime/scalar/ counterpart computes, but where the counterpart branches on a range of the
// input, this code computes the candidate results and selects one, and where the counterpart
// rounds a range with a chain of thresholds, this code rounds one integer quotient; each such
// rewriting is proven equal next to it. Shifts by a variable amount are clamped below 32 (LLVM
// makes a larger one poison). Every sum is shown not to wrap for the inputs whose result it
// feeds.
#include "codegen/narrow_emit.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Value.h>

#include <cstdint>

namespace tujit::codegen {
namespace {

// f32 biased exponents: e4m3 is normal above 120 (|x| >= 2^-6), e5m2 above 112 (|x| >= 2^-14).
constexpr std::uint32_t kE4M3NormalAbove = 120;
constexpr std::uint32_t kE5M2NormalAbove = 112;
constexpr std::uint32_t kF32Hidden = 0x00800000u;

/// The IRBuilder and the value being narrowed: constants take the value's type (an i32, or its
/// splat over a vector of i32).
struct Bits {
  llvm::IRBuilder<>& b;
  llvm::Value* x;

  llvm::Value* k(std::uint32_t c) const { return llvm::ConstantInt::get(x->getType(), c); }
  llvm::Value* mask(llvm::Value* v, std::uint32_t m) const { return b.CreateAnd(v, k(m)); }
  llvm::Value* umin(llvm::Value* v, llvm::Value* cap) const {
    return b.CreateSelect(b.CreateICmpULT(v, cap), v, cap);
  }
  /// nan(x), docs/scalars.md §4: the magnitude above +inf's.
  llvm::Value* is_nan() const {
    return b.CreateICmpUGT(mask(x, runtime::kF32AbsMask), k(runtime::kF32PosInf), "nan");
  }
  /// The sign bit of x as bit 7 of an f8 code.
  llvm::Value* f8_sign() const { return b.CreateShl(b.CreateLShr(x, k(31)), k(7)); }
  /// The 24-bit significand with the hidden bit forced (for an f32 subnormal or zero it is then
  /// below 2^24 all the same, which is all the roundings below use).
  llvm::Value* significand() const {
    return b.CreateOr(mask(x, runtime::kF32FractionMask), k(kF32Hidden));
  }
  /// `value` >> `shift`, 1 <= shift <= 31, rounded to nearest even: adding half − 1 plus the
  /// kept quotient's lowest bit carries into the quotient exactly when the dropped bits exceed
  /// half, or equal it with that bit set. The caller bounds `value` so the sum stays below 2^32.
  llvm::Value* round_nearest_even(llvm::Value* value, llvm::Value* shift) const {
    llvm::Value* odd = mask(b.CreateLShr(value, shift), 1u);
    llvm::Value* half = b.CreateShl(k(1), b.CreateSub(shift, k(1)));
    llvm::Value* bias = b.CreateAdd(b.CreateSub(half, k(1)), odd);
    return b.CreateLShr(b.CreateAdd(value, bias), shift);
  }
  /// `value` >> `shift`, 1 <= shift <= 31, rounded half up (ties away from zero on a magnitude).
  llvm::Value* round_half_up(llvm::Value* value, llvm::Value* shift) const {
    llvm::Value* half = b.CreateShl(k(1), b.CreateSub(shift, k(1)));
    return b.CreateLShr(b.CreateAdd(value, half), shift);
  }
};

} // namespace

llvm::Value* emit_wrap(llvm::IRBuilder<>& b, llvm::Value* v, unsigned k) {
  const Bits bits{b, v};
  const unsigned shift = 32u - k;
  if (shift == 0) return v;
  return b.CreateAShr(b.CreateShl(v, bits.k(shift)), bits.k(shift), "wrap");
}

// docs/scalars.md §4.1 narrow_bf16, its three cases each computed and one selected:
// - rounding: (x + 0x7FFF + bit 16 of x) >> 16 carries into bit 16 exactly when the round bit
//   0x8000 is set and a lower bit or bit 16 is (bf16_round_nearest_even). A non-NaN x is at most
//   0xFF800000, so the sum does not wrap and the quotient is below 2^16 (a carry into the
//   exponent gives inf, as in the reference);
// - exponent field 0: the signed zero x >> 16 & 0x8000. For a subnormal this is the flush; for
//   ±0 it is what rounding gives too;
// - NaN: 0x7FC0.
llvm::Value* emit_narrow_bf16(llvm::IRBuilder<>& b, llvm::Value* v) {
  const Bits x{b, v};
  llvm::Value* odd = x.mask(b.CreateLShr(v, x.k(16)), 1u);
  llvm::Value* rounded = b.CreateLShr(b.CreateAdd(v, b.CreateAdd(odd, x.k(0x7FFFu))), x.k(16));
  llvm::Value* zero_exponent =
      b.CreateICmpEQ(x.mask(v, runtime::kF32ExponentMask), x.k(0), "bf16.flush");
  llvm::Value* signed_zero = b.CreateLShr(x.mask(v, runtime::kF32SignMask), x.k(16));
  llvm::Value* r = b.CreateSelect(zero_exponent, signed_zero, rounded);
  return b.CreateSelect(x.is_nan(), x.k(runtime::kBf16CanonicalNaN), r, "bf16.narrow");
}

// docs/scalars.md §5.3: the rule as written, a sign set on a non-NaN giving +0.
llvm::Value* emit_relu_narrow_bf16(llvm::IRBuilder<>& b, llvm::Value* v) {
  const Bits x{b, v};
  llvm::Value* negative = b.CreateICmpSLT(v, x.k(0));
  llvm::Value* to_zero = b.CreateAnd(negative, b.CreateNot(x.is_nan()));
  return b.CreateSelect(to_zero, x.k(runtime::kBf16PosZero), emit_narrow_bf16(b, v), "bf16.relu");
}

// docs/scalars.md §4.2 enc_e4m3, on the magnitude a with biased exponent e, as one rounded
// quotient q, then the sign:
// - e > 120: enc_e4m3 rounds v = a >> 20 to nearest even on the 20 dropped bits and returns
//   v − (120 << 3). Here q rounds (a − (120 << 23)) >> 20 instead: 120 << 23 has no bit below
//   bit 23, so the dropped bits and bit 20 are a's, and the quotient is v − (120 << 3) exactly.
//   Then v >= (135 << 3 | 6) is q >= 0x7E: saturation is min(q, 0x7E), ±inf included.
//   a <= 0x7F800000 keeps the rounding sum below 2^32.
// - e <= 120: the result counts units of 2^-9, |x|·2^9 = significand >> (141 − e), rounded to
//   nearest even. enc_e4m3's thresholds are that rounding: for e = 120 the quotient is 4 + m/2^21,
//   ties 4.5 → 4, 5.5 → 6, 6.5 → 6, 7.5 → 8; e = 119: 2 + m/2^22, 2.5 → 2, 3.5 → 4;
//   e = 118: 1 + m/2^23, 1.5 → 2; e = 117: 0.5 + m/2^24, the tie 0.5 → 0 and anything above → 1.
//   For e < 117 the shift is >= 25 (clamped to 31), above a significand below 2^24: 0, as in
//   enc_e4m3 (f32 subnormals and zeros included). The quotient is at most 8, under the cap.
// - NaN: 0x7F, the sign dropped.
llvm::Value* emit_enc_e4m3(llvm::IRBuilder<>& b, llvm::Value* v) {
  const Bits x{b, v};
  llvm::Value* a = x.mask(v, runtime::kF32AbsMask);
  llvm::Value* e = b.CreateLShr(a, x.k(23));
  llvm::Value* normal = b.CreateICmpUGT(e, x.k(kE4M3NormalAbove), "e4m3.normal");
  llvm::Value* value =
      b.CreateSelect(normal, b.CreateSub(a, x.k(kE4M3NormalAbove << 23)), x.significand());
  llvm::Value* sub_shift = x.umin(b.CreateSub(x.k(141), e), x.k(31));
  llvm::Value* shift = b.CreateSelect(normal, x.k(20), sub_shift);
  llvm::Value* q = x.umin(x.round_nearest_even(value, shift), x.k(runtime::kE4M3MaxFinite));
  llvm::Value* r = b.CreateOr(x.f8_sign(), q);
  return b.CreateSelect(x.is_nan(), x.k(runtime::kE4M3NaN), r, "e4m3");
}

// docs/scalars.md §4.3 enc_e5m2, on the magnitude a with biased exponent e, as one quotient q
// rounded half up, capped, then the sign:
// - e > 112: enc_e5m2 takes q = m >> 21 plus bit 20 of m, carrying into the exponent E = e − 112.
//   That is ((a − (112 << 23)) + 2^20) >> 21 = (E << 2 | m >> 21) + bit 20, the carry included;
//   E >= 31 before or after the carry is q >= 0x7C, so the overflow to inf (±inf included) is
//   min(q, 0x7C). a <= 0x7F800000 keeps the sum below 2^32.
// - e <= 112: e5m2_subnormal_units is (significand + 2^(s − 1)) >> s with s = 134 − e, and 0 for
//   s > 25 or e = 0; here s is clamped to 31, and for any s >= 26 a significand below 2^24 gives
//   0 as well (f32 subnormals and zeros included). The clamp at 3 is min(q, 3).
// - NaN: 0x7E, the sign dropped.
llvm::Value* emit_enc_e5m2(llvm::IRBuilder<>& b, llvm::Value* v) {
  const Bits x{b, v};
  llvm::Value* a = x.mask(v, runtime::kF32AbsMask);
  llvm::Value* e = b.CreateLShr(a, x.k(23));
  llvm::Value* normal = b.CreateICmpUGT(e, x.k(kE5M2NormalAbove), "e5m2.normal");
  llvm::Value* value =
      b.CreateSelect(normal, b.CreateSub(a, x.k(kE5M2NormalAbove << 23)), x.significand());
  llvm::Value* sub_shift = x.umin(b.CreateSub(x.k(134), e), x.k(31));
  llvm::Value* shift = b.CreateSelect(normal, x.k(21), sub_shift);
  llvm::Value* cap = b.CreateSelect(normal, x.k(runtime::kE5M2PosInf), x.k(3));
  llvm::Value* q = x.umin(x.round_half_up(value, shift), cap);
  llvm::Value* r = b.CreateOr(x.f8_sign(), q);
  return b.CreateSelect(x.is_nan(), x.k(runtime::kE5M2NaN), r, "e5m2");
}

// runtime::narrow_bits, case for case.
llvm::Value* emit_narrow_bits(llvm::IRBuilder<>& b, ir::ScalarType to, llvm::Value* v) {
  const Bits x{b, v};
  switch (ir::encoding(to)) {
  case ir::Encoding::TwosComplement:
    return emit_wrap(b, v, ir::info(to).value_bits);
  case ir::Encoding::Unsigned:
    return x.mask(v, 0xFFu);
  case ir::Encoding::F32:
    return v;
  case ir::Encoding::Bf16:
    return emit_narrow_bf16(b, v);
  case ir::Encoding::F8E4M3:
    return emit_enc_e4m3(b, v);
  case ir::Encoding::F8E5M2:
    return emit_enc_e5m2(b, v);
  case ir::Encoding::F4E2M1:
    return x.mask(v, 0xFu);
  }
  return v;
}

llvm::Value* emit_output_cast(llvm::IRBuilder<>& b, ir::ScalarType to, bool relu, llvm::Value* v) {
  return relu ? emit_relu_narrow_bf16(b, v) : emit_narrow_bits(b, to, v);
}

} // namespace tujit::codegen
