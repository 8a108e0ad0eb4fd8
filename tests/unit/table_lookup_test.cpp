// The Fetch Adapter's four decode tables (runtime/scalar/table_lookup.h, docs/scalars.md §4.5):
// every entry against the value computed here from the formats' definitions (§3.3–§3.5) and
// encoded by hand into the target's fields, the test vectors 71–74 of §8, the paired decode's
// order, and the adapter's stages composed in their fixed order.
#include "runtime/scalar/fetch_adapter.h"
#include "runtime/scalar/table_lookup.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <optional>

using namespace tujit;
using ST = ir::ScalarType;

namespace {

/// The value of an f4e2m1 code by §3.5's fields S.EE.M, bias 1: E = 0 is the subnormal M·2^-1.
double e2m1_value(std::uint32_t code) {
  const double sign = (code & 0x8u) != 0 ? -1.0 : 1.0;
  const std::uint32_t e = (code >> 1) & 0x3u, m = code & 0x1u;
  const double magnitude = e == 0 ? m * 0.5 : (1.0 + m / 2.0) * std::ldexp(1.0, int(e) - 1);
  return sign * magnitude;
}

/// The value of an f8 code with `exp_bits` / `frac_bits` fields and `bias` (§3.3, §3.4), or
/// nullopt for a NaN / infinity code (checked separately).
std::optional<double> f8_value(std::uint32_t code, int exp_bits, int frac_bits, int bias) {
  const double sign = (code & 0x80u) != 0 ? -1.0 : 1.0;
  const std::uint32_t e = (code >> frac_bits) & ((1u << exp_bits) - 1);
  const std::uint32_t m = code & ((1u << frac_bits) - 1);
  const double scale = std::ldexp(1.0, -frac_bits);
  if (e == 0) return sign * m * scale * std::ldexp(1.0, 1 - bias);
  return sign * (1.0 + m * scale) * std::ldexp(1.0, int(e) - bias);
}

/// `v` (non-zero, exactly representable and normal in the target) encoded as sign, biased
/// exponent and fraction fields by hand; ±0 as the sign alone.
std::uint32_t encode_exact(double v, int exp_bits, int frac_bits, int bias) {
  const std::uint32_t sign = std::signbit(v) ? 1u : 0u;
  const std::uint32_t sign_field = sign << (exp_bits + frac_bits);
  if (v == 0.0) return sign_field;
  int e = 0;
  const double f = std::frexp(std::fabs(v), &e); // |v| = f·2^e, f in [0.5, 1)
  const int unbiased = e - 1;                    // |v| = (2f)·2^(e-1), 2f in [1, 2)
  const double fraction = (2.0 * f - 1.0) * std::ldexp(1.0, frac_bits);
  REQUIRE(fraction == std::floor(fraction)); // exact in the target
  REQUIRE(unbiased + bias >= 1);             // normal in the target
  REQUIRE(unbiased + bias < (1 << exp_bits) - 1);
  return sign_field | (std::uint32_t(unbiased + bias) << frac_bits) | std::uint32_t(fraction);
}

std::uint32_t to_e4m3(double v) {
  return encode_exact(v, 4, 3, 7);
}
std::uint32_t to_e5m2(double v) {
  return encode_exact(v, 5, 2, 15);
}
std::uint32_t to_bf16(double v) {
  return encode_exact(v, 8, 7, 127);
}

} // namespace

TEST_CASE("table lookup f4e2m1 → f8e4m3 / f8e5m2: each of the 16 codes is its exact value "
          "encoded in the target",
          "[scalar][table_lookup]") {
  for (std::uint32_t code = 0; code < 16; ++code) {
    CAPTURE(code);
    const double v = e2m1_value(code);
    CHECK(runtime::table_lookup_bits(ST::F4E2M1, ST::F8E4M3, code) == to_e4m3(v));
    CHECK(runtime::table_lookup_bits(ST::F4E2M1, ST::F8E5M2, code) == to_e5m2(v));
    // Only the low nibble is the key (the container's upper bits are not part of the code).
    CHECK(runtime::table_lookup_bits(ST::F4E2M1, ST::F8E4M3, code | 0xF0u) == to_e4m3(v));
  }
  // The value list of §3.5, written out.
  const double values[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};
  for (std::uint32_t code = 0; code < 16; ++code) {
    CHECK(e2m1_value(code) == values[code]);
    CHECK(std::signbit(e2m1_value(code)) == std::signbit(values[code]));
  }
}

TEST_CASE("table lookup f8e4m3 → bf16: every code's exact value in bf16, NaN the positive NaN",
          "[scalar][table_lookup]") {
  for (std::uint32_t code = 0; code < 256; ++code) {
    CAPTURE(code);
    const std::uint32_t got = runtime::table_lookup_bits(ST::F8E4M3, ST::BF16, code);
    if ((code & 0x7Fu) == 0x7Fu) { // S.1111.111, the only NaN codes (§3.3)
      CHECK(got == 0x7FC0u);
      continue;
    }
    CHECK(got == to_bf16(*f8_value(code, 4, 3, 7)));
  }
}

TEST_CASE("table lookup f8e5m2 → bf16: every code's exact value in bf16, ±inf kept, a NaN's sign "
          "kept",
          "[scalar][table_lookup]") {
  for (std::uint32_t code = 0; code < 256; ++code) {
    CAPTURE(code);
    const std::uint32_t got = runtime::table_lookup_bits(ST::F8E5M2, ST::BF16, code);
    const std::uint32_t sign = (code & 0x80u) << 8;
    if ((code & 0x7Cu) == 0x7Cu) { // E = 31 (§3.4)
      CHECK(got == (sign | ((code & 0x3u) == 0 ? 0x7F80u : 0x7FC0u)));
      continue;
    }
    CHECK(got == to_bf16(*f8_value(code, 5, 2, 15)));
  }
}

TEST_CASE("table lookups: docs/scalars.md §8 vectors 71–74", "[scalar][table_lookup]") {
  using runtime::table_lookup_bits;
  // 71: e2m1 → e4m3, codes 1, 7, 8, F.
  CHECK(table_lookup_bits(ST::F4E2M1, ST::F8E4M3, 0x1) == 0x30u);
  CHECK(table_lookup_bits(ST::F4E2M1, ST::F8E4M3, 0x7) == 0x4Cu);
  CHECK(table_lookup_bits(ST::F4E2M1, ST::F8E4M3, 0x8) == 0x80u);
  CHECK(table_lookup_bits(ST::F4E2M1, ST::F8E4M3, 0xF) == 0xCCu);
  // 72: e2m1 → e5m2, codes 5, 9.
  CHECK(table_lookup_bits(ST::F4E2M1, ST::F8E5M2, 0x5) == 0x42u);
  CHECK(table_lookup_bits(ST::F4E2M1, ST::F8E5M2, 0x9) == 0xB8u);
  // 73: e4m3 → bf16, 7E / 7F.
  CHECK(table_lookup_bits(ST::F8E4M3, ST::BF16, 0x7E) == 0x43E0u);
  CHECK(table_lookup_bits(ST::F8E4M3, ST::BF16, 0x7F) == 0x7FC0u);
  // 74: e5m2 → bf16, FF / 01.
  CHECK(table_lookup_bits(ST::F8E5M2, ST::BF16, 0xFF) == 0xFFC0u);
  CHECK(table_lookup_bits(ST::F8E5M2, ST::BF16, 0x01) == 0x3780u);
}

TEST_CASE("the paired table gives a key byte's two values, the low nibble's first",
          "[scalar][table_lookup]") {
  // 0x71: low nibble 1 (0.5), high nibble 7 (6.0).
  const auto a = runtime::paired_table_lookup(ST::F8E4M3, 0x71);
  CHECK(a.first == to_e4m3(0.5));
  CHECK(a.second == to_e4m3(6.0));
  // 0x9E: low nibble E (−4), high nibble 9 (−0.5), to f8e5m2.
  const auto b = runtime::paired_table_lookup(ST::F8E5M2, 0x9E);
  CHECK(b.first == to_e5m2(-4.0));
  CHECK(b.second == to_e5m2(-0.5));
  // Every byte: the pair is the two nibbles' entries, in that order.
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    const auto p = runtime::paired_table_lookup(ST::F8E4M3, static_cast<std::uint8_t>(byte));
    CHECK(p.first == to_e4m3(e2m1_value(byte & 0xFu)));
    CHECK(p.second == to_e4m3(e2m1_value(byte >> 4)));
  }
}

TEST_CASE("the Fetch Adapter composes lookup then cast, each reading the type before it",
          "[scalar][table_lookup]") {
  // f4e2m1 code 0xB (−1.5) → f8e4m3 → f32: −1.5 exactly.
  CHECK(runtime::fetch_adapter_bits(ST::F4E2M1, ST::F8E4M3, ST::F32, std::nullopt, 0xB) ==
        0xBFC00000u);
  // code 0x8 (−0) keeps its sign through both stages.
  CHECK(runtime::fetch_adapter_bits(ST::F4E2M1, ST::F8E4M3, ST::F32, std::nullopt, 0x8) ==
        0x80000000u);
  // A lookup alone, and no stage at all.
  CHECK(runtime::fetch_adapter_bits(ST::F8E5M2, ST::BF16, std::nullopt, std::nullopt, 0x3C) ==
        0x3F80u);
  CHECK(runtime::fetch_adapter_bits(ST::I8, std::nullopt, std::nullopt, std::nullopt,
                                    0xFFFFFFFFu) == 0xFFFFFFFFu);
  // The cast and the zero point as before: i8 → i9 with zp 127 of −128 is −255.
  CHECK(runtime::fetch_adapter_bits(ST::I8, std::nullopt, std::nullopt, 127,
                                    static_cast<std::uint32_t>(-128)) ==
        static_cast<std::uint32_t>(-255));
}
