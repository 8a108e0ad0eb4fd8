// The two 8-bit float formats (docs/scalars.md §3.3, §3.4, §4.2–§4.4). Encoders are the exact
// reference algorithms: f8e4m3 saturating RNE, f8e5m2 half-away-from-zero with the subnormal
// clamp at 3 (NOT RNE, §4.3, §9.1). Decoders are exact; neither flushes.
#pragma once

#include "runtime/scalar/float_bits.h"

#include <cstdint>

namespace tujit::runtime {

inline constexpr std::uint8_t kE4M3NaN = 0x7F;       // S.1111.111; no infinity
inline constexpr std::uint8_t kE4M3MaxFinite = 0x7E; // 448
inline constexpr std::uint8_t kE5M2PosInf = 0x7C;
inline constexpr std::uint8_t kE5M2NaN = 0x7E; // what the encoder emits for any NaN

/// f32 → f8e4m3 (docs/scalars.md §4.2), the reference's branch structure verbatim.
constexpr std::uint8_t enc_e4m3(std::uint32_t x) {
  if (f32_is_nan(x)) return kE4M3NaN; // the NaN's sign is dropped
  const std::uint32_t s = x >> 31;
  const std::uint32_t e = (x >> 23) & 0xFFu;
  const std::uint32_t m = x & 0x7FFFFFu;
  std::uint32_t a = 0;
  if (e > 120) {                                      // |x| >= 2^-6: the normal range of e4m3
    std::uint32_t v = (x >> 20) & 0x7FFu;             // 8 exponent bits + top 3 fraction bits
    if ((x & 0xFFFFFu) + (v & 1u) > 0x80000u) v += 1; // RNE on the 20 dropped bits
    // >= 448 after rounding (also ±inf) saturates; (135 << 3 | 6) is 448 in these 11 bits.
    a = v >= ((135u << 3) | 6u) ? kE4M3MaxFinite : v - (120u << 3);
  } else if (e == 120) { // [2^-7, 2^-6): RNE into units of 2^-9, 8 = smallest normal
    a = m >= 0x700000u ? 8 : m > 0x500000u ? 7 : m >= 0x300000u ? 6 : m > 0x100000u ? 5 : 4;
  } else if (e == 119) {
    a = m >= 0x600000u ? 4 : m > 0x200000u ? 3 : 2;
  } else if (e == 118) {
    a = m >= 0x400000u ? 2 : 1;
  } else if (e == 117 && m != 0) {
    a = 1;
  } else {
    a = 0; // f32 subnormals, exact 2^-10 (a tie to the even 0) and below
  }
  return static_cast<std::uint8_t>((s << 7) | a);
}

/// f8e4m3 → f32 (docs/scalars.md §3.3): exact; both NaN codes give POSITIVE 0x7FC00000.
constexpr std::uint32_t dec_e4m3(std::uint8_t c) {
  const std::uint32_t s = static_cast<std::uint32_t>(c >> 7) << 31;
  const std::uint32_t e = (c >> 3) & 0xFu;
  const std::uint32_t m = c & 0x7u;
  if (e == 15 && m == 7) return kF32CanonicalNaN;
  if (e != 0) return s | ((e + 120u) << 23) | (m << 20); // rebias 7 → 127
  if (m == 0) return s;                                  // ±0
  // Subnormal m·2^-9, normalized so the leading 1 of m becomes the hidden bit.
  if (m >= 4) return s | (120u << 23) | ((m & 0x3u) << 21); // (m/4)·2^-7
  if (m >= 2) return s | (119u << 23) | ((m & 0x1u) << 22); // (m/2)·2^-8
  return s | (118u << 23);                                  // 2^-9
}

/// Units of 2^-16 of a (non-negative) f32 magnitude below 2^-14, rounded half away from zero,
/// computed exactly on the bits (the reference computes round(a * 65536) in f32, which is exact).
constexpr std::uint32_t e5m2_subnormal_units(std::uint32_t abs_bits) {
  const std::uint32_t e = abs_bits >> 23;
  if (e == 0) return 0; // an f32 subnormal is < 2^-126, far below half a unit
  const std::uint32_t significand = (abs_bits & 0x7FFFFFu) | 0x800000u;
  // value·2^16 = significand · 2^(e - 150 + 16); here e <= 112, so the shift is >= 22.
  const std::uint32_t shift = 134u - e;
  if (shift > 25) return 0;                            // significand + 2^(shift-1) < 2^shift
  return (significand + (1u << (shift - 1))) >> shift; // half away on a magnitude = half up
}

/// f32 → f8e5m2 (docs/scalars.md §4.3), reproducing the reference: round half up on the magnitude
/// (sticky bits ignored), subnormals clamped at code 3, overflow to ±inf, any NaN → 0x7E.
constexpr std::uint8_t enc_e5m2(std::uint32_t x) {
  if (f32_is_nan(x)) return kE5M2NaN;
  const std::uint32_t sgn = f32_sign(x) ? 0x80u : 0u;
  const std::uint32_t a = x & kF32AbsMask;
  if (a == kF32PosInf) return static_cast<std::uint8_t>(sgn | kE5M2PosInf);
  if (a == 0) return static_cast<std::uint8_t>(sgn);
  const std::int32_t biased = static_cast<std::int32_t>(a >> 23) - 127 + 15;
  const std::uint32_t m = a & 0x7FFFFFu;
  if (biased >= 31) return static_cast<std::uint8_t>(sgn | kE5M2PosInf);
  if (biased <= 0) {
    const std::uint32_t k = e5m2_subnormal_units(a);
    return static_cast<std::uint8_t>(sgn | (k < 3u ? k : 3u)); // never promotes to 0x04
  }
  std::uint32_t exp = static_cast<std::uint32_t>(biased);
  std::uint32_t q = m >> 21;
  if (((m >> 20) & 1u) != 0) {
    q += 1;
    if (q == 4) {
      q = 0;
      exp += 1;
      if (exp >= 31) return static_cast<std::uint8_t>(sgn | kE5M2PosInf);
    }
  }
  return static_cast<std::uint8_t>(sgn | (exp << 2) | q);
}

/// f8e5m2 → f32 (docs/scalars.md §4.4): exact; ±inf kept; NaN → 0x7FC00000 / 0xFFC00000 by sign.
constexpr std::uint32_t dec_e5m2(std::uint8_t c) {
  const std::uint32_t s = static_cast<std::uint32_t>(c >> 7) << 31;
  const std::uint32_t e = (c >> 2) & 0x1Fu;
  const std::uint32_t m = c & 0x3u;
  if (e == 31) return m == 0 ? (s | kF32PosInf) : (s | kF32CanonicalNaN);
  if (e != 0) return s | ((e + 112u) << 23) | (m << 21);
  if (m == 0) return s;
  // Subnormal m·2^-16: m = 1 → 2^-16, m = 2 → 2^-15, m = 3 → 1.5·2^-15.
  return m == 1 ? (s | (111u << 23)) : (s | (112u << 23) | ((m & 1u) << 22));
}

} // namespace tujit::runtime
