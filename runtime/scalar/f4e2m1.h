// f4e2m1 (docs/scalars.md §3.5): a 4-bit code, decoded only by the Fetch Adapter's table lookup
// on hardware (not simulated); tujit reads it as a host value (npy inputs and outputs).
#pragma once

#include <array>
#include <cstdint>

namespace tujit::runtime {

/// f32 bits of each code 0…15: 0, 0.5, 1, 1.5, 2, 3, 4, 6, −0, −0.5, −1, −1.5, −2, −3, −4, −6.
inline constexpr std::array<std::uint32_t, 16> kE2M1ToF32 = {
    0x00000000u, 0x3F000000u, 0x3F800000u, 0x3FC00000u, 0x40000000u, 0x40400000u,
    0x40800000u, 0x40C00000u, 0x80000000u, 0xBF000000u, 0xBF800000u, 0xBFC00000u,
    0xC0000000u, 0xC0400000u, 0xC0800000u, 0xC0C00000u};

/// Only the low nibble is the code (the high nibble is discarded on construction, §1).
constexpr std::uint8_t e2m1_code(std::uint8_t byte) {
  return static_cast<std::uint8_t>(byte & 0xFu);
}

/// f4e2m1 → f32, exact.
constexpr std::uint32_t dec_e2m1(std::uint8_t code) {
  return kE2M1ToF32[e2m1_code(code)];
}

} // namespace tujit::runtime
