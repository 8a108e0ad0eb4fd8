// Vector Engine fixed point ⇄ f32 (FxpToFp / FpToFxp, docs/scalars.md §4.7). An i32 `v` with
// `iw` integer bits (0 <= iw <= 31) means v·2^−(31−iw).
#pragma once

#include "runtime/scalar/float_bits.h"

#include <bit>
#include <cstdint>
#include <limits>

namespace tujit::runtime {

/// i32 fixed point → f32, RNE to the 24-bit significand.
constexpr std::uint32_t fxp_to_f32(std::int32_t v, std::uint32_t iw) {
  const std::uint32_t sign = v < 0 ? kF32SignMask : 0u;
  if (v == std::numeric_limits<std::int32_t>::min()) return sign | ((iw + 127u) << 23); // −2^iw
  if (v == 0) return 0u;
  const std::uint32_t a =
      v < 0 ? 0u - static_cast<std::uint32_t>(v) : static_cast<std::uint32_t>(v);
  const std::uint32_t lz = static_cast<std::uint32_t>(std::countl_zero(a)) - 1u; // within 31 bits
  const std::uint32_t t = (a << lz) & 0x7FFFFFFFu; // MSB now at bit 30
  // RNE dropping the low 7 bits: round bit 0x40, sticky 0x3F, kept LSB 0x80.
  std::uint32_t q = t >> 7;
  if ((t & 0x40u) != 0 && (t & 0xBFu) != 0) q += 1;
  std::uint32_t e = iw + 126u - lz;
  if ((q >> 24) != 0) e += 1; // rounded up to 2^24: the fraction below is then 0
  return sign | (e << 23) | (q & 0x7FFFFFu);
}

/// f32 → i32 fixed point: round half away from zero of x·2^(31−iw) (exact in double), clamped to
/// the i32 range; NaN gives INT32_MAX or INT32_MIN by its sign.
constexpr std::int32_t f32_to_fxp(std::uint32_t x, std::uint32_t iw) {
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  if (f32_is_nan(x)) return f32_sign(x) ? kMin : kMax;
  // Scale by 2^(31-iw) exactly: multiply by a power of two built from its bits.
  const double scale = std::bit_cast<double>(static_cast<std::uint64_t>(1023u + 31u - iw) << 52);
  const double d = static_cast<double>(f32_from_bits(x)) * scale;
  // Clamp first (this also catches ±inf): round(d) >= 2^31 exactly when d >= 2^31 - 0.5, and
  // every d <= -2^31 rounds to at most -2^31, i.e. clamps to INT32_MIN.
  if (d >= 2147483647.5) return kMax;
  if (d <= -2147483648.0) return kMin;
  const std::int64_t t = static_cast<std::int64_t>(d); // truncates toward zero, |t| < 2^31
  const double frac = d - static_cast<double>(t);      // exact
  std::int64_t r = t;
  if (frac >= 0.5) r += 1;
  if (frac <= -0.5) r -= 1;
  if (r > kMax) return kMax;
  if (r < kMin) return kMin;
  return static_cast<std::int32_t>(r);
}

} // namespace tujit::runtime
