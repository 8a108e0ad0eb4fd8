// bf16 ⇄ f32 in its two distinct forms (docs/scalars.md §3.2, §4.1, §5.3):
// - the HARDWARE form (Fetch Adapter, Cast Engine, Commit Adapter, Multiplier widening):
//   narrow_bf16 / widen_bf16 flush subnormals to a signed zero and canonicalize every NaN;
// - the LITERAL form (constants, memset fills, host arithmetic, the f8 → bf16 lookup tables):
//   bf16_literal_from_f32 / bf16_literal_to_f32 are plain IEEE RNE, keep subnormals and keep the
//   NaN payload with the quiet bit forced.
// Never substitute one for the other: they differ on subnormals and NaNs.
#pragma once

#include "runtime/scalar/float_bits.h"

#include <cstdint>

namespace tujit::runtime {

inline constexpr std::uint16_t kBf16PosZero = 0x0000;
inline constexpr std::uint16_t kBf16NegZero = 0x8000;
inline constexpr std::uint16_t kBf16PosInf = 0x7F80;
inline constexpr std::uint16_t kBf16CanonicalNaN = 0x7FC0; // docs/scalars.md §3.2
inline constexpr std::uint16_t kBf16QuietBit = 0x0040;

/// RNE on the 16 dropped bits: round bit (0x8000) AND (any lower bit OR the kept LSB 0x10000).
/// A carry may ripple into the exponent: the largest finite values round to inf, never saturate.
constexpr std::uint16_t bf16_round_nearest_even(std::uint32_t x) {
  std::uint32_t r = x >> 16;
  if ((x & 0x8000u) != 0 && (x & 0x17FFFu) != 0) r += 1;
  return static_cast<std::uint16_t>(r & 0xFFFFu);
}

/// Hardware f32 → bf16 (docs/scalars.md §4.1 narrow_bf16).
constexpr std::uint16_t narrow_bf16(std::uint32_t x) {
  if (f32_is_nan(x)) return kBf16CanonicalNaN;
  if (f32_is_subnormal(x)) return f32_sign(x) ? kBf16NegZero : kBf16PosZero;
  return bf16_round_nearest_even(x);
}

/// Hardware bf16 → f32 (docs/scalars.md §4.1 widen_bf16): NaN → 0x7FC00000, subnormal → signed
/// zero.
constexpr std::uint32_t widen_bf16(std::uint16_t h) {
  if ((h & 0x7FFFu) > kBf16PosInf) return kF32CanonicalNaN;
  if ((h & 0x7F80u) == 0 && (h & 0x7Fu) != 0) return (h & 0x8000u) != 0 ? kF32SignMask : 0u;
  return static_cast<std::uint32_t>(h) << 16;
}

/// Commit Adapter f32 → bf16 with fused ReLU (docs/scalars.md §5.3): a non-NaN with the sign bit
/// set (−0, negative subnormals, −inf included) gives +0; NaN of either sign gives 0x7FC0.
constexpr std::uint16_t relu_narrow_bf16(std::uint32_t x) {
  if (!f32_is_nan(x) && f32_sign(x)) return kBf16PosZero;
  return narrow_bf16(x);
}

/// Literal f32 → bf16 (docs/scalars.md §4.1 "Literal form"): NaN keeps its top payload bits with
/// the quiet bit forced; everything else, subnormals included, is plain RNE.
constexpr std::uint16_t bf16_literal_from_f32(std::uint32_t x) {
  if (f32_is_nan(x)) return static_cast<std::uint16_t>((x >> 16) | kBf16QuietBit);
  return bf16_round_nearest_even(x);
}

/// Literal bf16 → f32: exact, subnormals kept; a NaN gets its quiet bit forced.
constexpr std::uint32_t bf16_literal_to_f32(std::uint16_t h) {
  if ((h & 0x7FFFu) > kBf16PosInf) return static_cast<std::uint32_t>(h | kBf16QuietBit) << 16;
  return static_cast<std::uint32_t>(h) << 16;
}

} // namespace tujit::runtime
