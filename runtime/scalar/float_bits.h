// Raw-bit helpers shared by every conversion of runtime/scalar/ (docs/scalars.md §4 notation).
// All conversions in this folder take and return raw encodings (an f32 is its u32 bit pattern),
// are pure and constexpr, and spell out their branch structure, so that the interpreter calls
// them directly and the LLVM code generator can emit the very same bit manipulations.
#pragma once

#include <bit>
#include <cstdint>

namespace tujit::runtime {

inline constexpr std::uint32_t kF32SignMask = 0x80000000u;
inline constexpr std::uint32_t kF32AbsMask = 0x7FFFFFFFu;
inline constexpr std::uint32_t kF32ExponentMask = 0x7F800000u;
inline constexpr std::uint32_t kF32FractionMask = 0x007FFFFFu;
inline constexpr std::uint32_t kF32PosInf = 0x7F800000u;
/// The one quiet NaN every hardware conversion produces (docs/scalars.md §3.6).
inline constexpr std::uint32_t kF32CanonicalNaN = 0x7FC00000u;

constexpr std::uint32_t f32_bits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}
constexpr float f32_from_bits(std::uint32_t x) {
  return std::bit_cast<float>(x);
}

/// nan(x) := (x & 0x7FFFFFFF) > 0x7F800000 (docs/scalars.md §4).
constexpr bool f32_is_nan(std::uint32_t x) {
  return (x & kF32AbsMask) > kF32PosInf;
}

/// sub(x) := exponent 0 and fraction non-zero (docs/scalars.md §4).
constexpr bool f32_is_subnormal(std::uint32_t x) {
  return (x & kF32ExponentMask) == 0 && (x & kF32FractionMask) != 0;
}

constexpr bool f32_sign(std::uint32_t x) {
  return (x & kF32SignMask) != 0;
}

/// Vector Engine reinterpret (docs/scalars.md §5.6): the same 32 bits read as the other VE scalar.
constexpr std::int32_t reinterpret_f32_as_i32(std::uint32_t f32_bits_value) {
  return std::bit_cast<std::int32_t>(f32_bits_value);
}
constexpr std::uint32_t reinterpret_i32_as_f32(std::int32_t v) {
  return std::bit_cast<std::uint32_t>(v);
}

} // namespace tujit::runtime
