// The Fetch Adapter's four decode tables (docs/scalars.md §4.5): `fetch_table_lookup` of f4e2m1
// to f8e4m3 or f8e5m2 (paired: one key byte gives two values, the low nibble's first) and of
// f8e4m3 or f8e5m2 to bf16 (one byte, one value). Written once here; both engines (through
// runtime/scalar/fetch_adapter.h) and the --verify oracle read them.
#pragma once

#include "ir/types/scalar_type.h"
#include "runtime/scalar/f8.h"

#include <array>
#include <cstdint>

namespace tujit::runtime {

/// f4e2m1 code → f8e4m3 code: the hardware table as the book's reference bakes it (§4.5).
inline constexpr std::array<std::uint8_t, 16> kE2M1ToE4M3 = {
    0x00, 0x30, 0x38, 0x3C, 0x40, 0x44, 0x48, 0x4C, 0x80, 0xB0, 0xB8, 0xBC, 0xC0, 0xC4, 0xC8, 0xCC};

/// f4e2m1 code → f8e5m2 code: enc_e5m2 of each exact value (§4.5; every e2m1 value is exact).
inline constexpr std::array<std::uint8_t, 16> kE2M1ToE5M2 = {
    0x00, 0x38, 0x3C, 0x3E, 0x40, 0x42, 0x44, 0x46, 0x80, 0xB8, 0xBC, 0xBE, 0xC0, 0xC2, 0xC4, 0xC6};

namespace detail {

/// An 8-bit-key table to bf16: the literal top half of the exact f32 decode (§4.5). An f8 value
/// has at most 3 fraction bits, so the low 16 bits of its f32 are zero and nothing is rounded.
template <std::uint32_t (*Decode)(std::uint8_t)>
constexpr std::array<std::uint16_t, 256> f8_to_bf16_table() {
  std::array<std::uint16_t, 256> t{};
  for (std::uint32_t k = 0; k < 256; ++k)
    t[k] = static_cast<std::uint16_t>(Decode(static_cast<std::uint8_t>(k)) >> 16);
  return t;
}

} // namespace detail

/// f8e4m3 code → bf16 code (NaN 0x7F / 0xFF → 0x7FC0, as dec_e4m3 gives the positive NaN).
inline constexpr std::array<std::uint16_t, 256> kE4M3ToBf16 = detail::f8_to_bf16_table<&dec_e4m3>();
/// f8e5m2 code → bf16 code (±inf kept; a NaN keeps its sign: 0x7FC0 / 0xFFC0).
inline constexpr std::array<std::uint16_t, 256> kE5M2ToBf16 = detail::f8_to_bf16_table<&dec_e5m2>();

/// The decode of one element container (its code in the low bits) through the table of
/// `in` → `out`, an ir::is_table_lookup pair; any other pair keeps the bits (the verifier refuses
/// it first, E-FETCH-003).
constexpr std::uint32_t table_lookup_bits(ir::ScalarType in, ir::ScalarType out,
                                          std::uint32_t bits) {
  switch (ir::encoding(in)) {
  case ir::Encoding::F4E2M1:
    if (out == ir::ScalarType::F8E4M3) return kE2M1ToE4M3[bits & 0xFu];
    if (out == ir::ScalarType::F8E5M2) return kE2M1ToE5M2[bits & 0xFu];
    return bits;
  case ir::Encoding::F8E4M3:
    return out == ir::ScalarType::BF16 ? kE4M3ToBf16[bits & 0xFFu] : bits;
  case ir::Encoding::F8E5M2:
    return out == ir::ScalarType::BF16 ? kE5M2ToBf16[bits & 0xFFu] : bits;
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
  case ir::Encoding::Bf16:
  case ir::Encoding::F32:
    return bits;
  }
  return bits;
}

/// The two decoded values of one DM byte of f4e2m1 keys, as the paired table emits them: the low
/// nibble's (the even element's, docs/scalars.md §2) first. An engine holding the unpacked
/// nibbles gets the same values element by element from table_lookup_bits.
struct PairedDecode {
  std::uint8_t first = 0;  // the low nibble's value
  std::uint8_t second = 0; // the high nibble's value
};

constexpr PairedDecode paired_table_lookup(ir::ScalarType out, std::uint8_t key_byte) {
  return {
      static_cast<std::uint8_t>(table_lookup_bits(ir::ScalarType::F4E2M1, out, key_byte & 0xFu)),
      static_cast<std::uint8_t>(table_lookup_bits(ir::ScalarType::F4E2M1, out, key_byte >> 4))};
}

} // namespace tujit::runtime
