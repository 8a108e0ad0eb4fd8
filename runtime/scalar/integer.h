// Integer narrowing, widening, zero-point subtraction and the wrap-around arithmetic of the
// contraction fold (docs/scalars.md §3.1, §4.6, §6, §7). Two's complement everywhere; nothing
// saturates here (the Vector Engine's *Sat ops live with the Vector Engine).
#pragma once

#include <cstdint>

namespace tujit::runtime {

/// Wrap(k), 1 <= k <= 32: keep the low k bits and sign-extend (docs/scalars.md §3.1). The shifts
/// run on 32 bits; the right shift is arithmetic (guaranteed since C++20).
constexpr std::int32_t wrap(std::int32_t v, unsigned k) {
  const unsigned shift = 32u - k;
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v) << shift) >> shift;
}

/// Sign-extends the low k bits of a raw field (e.g. an i4 nibble, an i9 TRF cell).
constexpr std::int32_t sign_extend(std::uint32_t raw, unsigned k) {
  return wrap(static_cast<std::int32_t>(raw), k);
}

// Narrowings i32 → k bits: Cast Engine (i4, i8, i16) and host fold (i5, i9). §4.6.
constexpr std::int8_t narrow_i4(std::int32_t v) {
  return static_cast<std::int8_t>(wrap(v, 4));
}
constexpr std::int8_t narrow_i5(std::int32_t v) {
  return static_cast<std::int8_t>(wrap(v, 5));
}
constexpr std::int8_t narrow_i8(std::int32_t v) {
  return static_cast<std::int8_t>(wrap(v, 8));
}
constexpr std::int16_t narrow_i9(std::int32_t v) {
  return static_cast<std::int16_t>(wrap(v, 9));
}
constexpr std::int16_t narrow_i16(std::int32_t v) {
  return static_cast<std::int16_t>(wrap(v, 16));
}

/// Widening i4, i5, i8, i9, i16 → i32 is sign extension; the host containers already hold the
/// sign-extended value, so it is the C++ integral promotion.
constexpr std::int32_t widen_int(std::int32_t sign_extended_value) {
  return sign_extended_value;
}

/// sext(v) − zp modulo 2^32: the low bits Wrap(5) / Wrap(9) keep are those of the exact
/// difference, and the subtraction is defined for every zp (an out-of-range zero point only a
/// hand-made program can hold, e.g. INT32_MIN, would overflow a signed subtraction).
constexpr std::int32_t wrapping_sub_i32(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
}

/// Zero-point subtraction (docs/scalars.md §6): Wrap(5)(sext(v) − zp) for i4 → i5. With zp in the
/// i4 range (checked once at verification, ir::zero_point_in_range) the wrap never triggers.
constexpr std::int8_t zero_point_sub_i4_to_i5(std::int8_t v, std::int32_t zp) {
  return narrow_i5(wrapping_sub_i32(v, zp));
}

/// Wrap(9)(sext(v) − zp) for i8 → i9.
constexpr std::int16_t zero_point_sub_i8_to_i9(std::int8_t v, std::int32_t zp) {
  return narrow_i9(wrapping_sub_i32(v, zp));
}

/// i32 addition and multiplication of the integer contraction: two's-complement wrap-around
/// (docs/scalars.md §7, §9.9), computed on u32 so that overflow is defined.
constexpr std::int32_t wrapping_add_i32(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
constexpr std::int32_t wrapping_mul_i32(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) * static_cast<std::uint32_t>(b));
}

} // namespace tujit::runtime
