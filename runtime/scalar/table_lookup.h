// The Fetch Adapter's four decode tables (spec/scalars.md §4.5; main context only).
// The 4-bit tables are PAIRED: the hardware indexes a 256-entry table with a whole byte and emits
// two 8-bit outputs, the low nibble's first. The 8-bit tables map one byte to one bf16.
#pragma once

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"

#include <array>
#include <cstdint>

namespace tujit::runtime {

/// e2m1 → e4m3: the hardware's fixed 16-entry table (a compile-time constant, no block scale).
inline constexpr std::array<std::uint8_t, 16> kE2M1ToE4M3 = {
    0x00, 0x30, 0x38, 0x3C, 0x40, 0x44, 0x48, 0x4C, 0x80, 0xB0, 0xB8, 0xBC, 0xC0, 0xC4, 0xC8, 0xCC};

constexpr std::uint8_t lookup_e2m1_to_e4m3(std::uint8_t code) {
  return kE2M1ToE4M3[e2m1_code(code)];
}

/// e2m1 → e5m2: enc_e5m2 of the exact value (every e2m1 value is exact in e5m2).
constexpr std::uint8_t lookup_e2m1_to_e5m2(std::uint8_t code) {
  return enc_e5m2(dec_e2m1(code));
}

/// e4m3 → bf16: the LITERAL bf16 of dec_e4m3 (exact; NaN → 0x7FC0).
constexpr std::uint16_t lookup_e4m3_to_bf16(std::uint8_t c) {
  return bf16_literal_from_f32(dec_e4m3(c));
}

/// e5m2 → bf16: the LITERAL bf16 of dec_e5m2 (exact; ±inf kept; NaN → 0x7FC0 / 0xFFC0 by sign).
constexpr std::uint16_t lookup_e5m2_to_bf16(std::uint8_t c) {
  return bf16_literal_from_f32(dec_e5m2(c));
}

/// One key of a paired table: the byte holding elements 2i (low nibble) and 2i+1 (high nibble).
struct PairedDecode {
  std::uint8_t low;  // decoded low nibble: output element 2i
  std::uint8_t high; // decoded high nibble: output element 2i+1
  friend bool operator==(const PairedDecode&, const PairedDecode&) = default;
};

constexpr PairedDecode paired_lookup_e2m1_to_e4m3(std::uint8_t key) {
  return {lookup_e2m1_to_e4m3(static_cast<std::uint8_t>(key & 0xFu)),
          lookup_e2m1_to_e4m3(static_cast<std::uint8_t>(key >> 4))};
}

constexpr PairedDecode paired_lookup_e2m1_to_e5m2(std::uint8_t key) {
  return {lookup_e2m1_to_e5m2(static_cast<std::uint8_t>(key & 0xFu)),
          lookup_e2m1_to_e5m2(static_cast<std::uint8_t>(key >> 4))};
}

/// The 256-entry paired tables as the hardware holds them: entry `key` is the little-endian
/// 16-bit word of the two outputs (low byte = element 2i), i.e. its memory image is the output
/// byte stream. Usable as a constant global by the code generator.
constexpr std::array<std::uint16_t, 256> make_paired_table(PairedDecode (*decode)(std::uint8_t)) {
  std::array<std::uint16_t, 256> table{};
  for (unsigned key = 0; key < 256; ++key) {
    PairedDecode d = decode(static_cast<std::uint8_t>(key));
    table[key] = static_cast<std::uint16_t>(d.low | (d.high << 8));
  }
  return table;
}

inline constexpr std::array<std::uint16_t, 256> kPairedE2M1ToE4M3 =
    make_paired_table(&paired_lookup_e2m1_to_e4m3);
inline constexpr std::array<std::uint16_t, 256> kPairedE2M1ToE5M2 =
    make_paired_table(&paired_lookup_e2m1_to_e5m2);

/// The non-paired 256-entry tables.
constexpr std::array<std::uint16_t, 256> make_byte_table(std::uint16_t (*decode)(std::uint8_t)) {
  std::array<std::uint16_t, 256> table{};
  for (unsigned key = 0; key < 256; ++key) table[key] = decode(static_cast<std::uint8_t>(key));
  return table;
}

inline constexpr std::array<std::uint16_t, 256> kE4M3ToBf16 = make_byte_table(&lookup_e4m3_to_bf16);
inline constexpr std::array<std::uint16_t, 256> kE5M2ToBf16 = make_byte_table(&lookup_e5m2_to_bf16);

} // namespace tujit::runtime
