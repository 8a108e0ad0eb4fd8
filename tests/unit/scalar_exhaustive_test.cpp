// Exhaustive decode checks: every f8e4m3 / f8e5m2 / f4e2m1 code and every bf16 code, compared
// with decoders written here from the format definitions of docs/scalars.md §3 (std::ldexp on
// the fields), plus the round trips the spec promises.
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

using namespace tujit::runtime;

namespace {

// f32 bits of a double that is exactly representable in f32 (every value of these formats is).
std::uint32_t exact_f32(double v) {
  return f32_bits(static_cast<float>(v));
}

double signed_value(bool negative, double magnitude) {
  return negative ? -magnitude : magnitude;
}

/// A reference decode: either NaN, or the exact f32 bits of the value.
struct Decoded {
  bool nan;
  std::uint32_t bits;
};

/// f8e4m3 from §3.3: S.EEEE.MMM, bias 7; E=0 subnormal M·2^-9; E=15,M=7 NaN; no infinity.
Decoded ref_dec_e4m3(unsigned c) {
  bool s = (c >> 7) & 1;
  unsigned e = (c >> 3) & 0xF, m = c & 7;
  if (e == 15 && m == 7) return {true, 0};
  double mag = e == 0 ? std::ldexp(static_cast<double>(m), -9)
                      : std::ldexp(1.0 + m / 8.0, static_cast<int>(e) - 7);
  return {false, exact_f32(signed_value(s, mag))};
}

/// f8e5m2 from §3.4: S.EEEEE.MM, bias 15; E=0 M·2^-16; E=31 inf (M=0) or NaN.
Decoded ref_dec_e5m2(unsigned c) {
  bool s = (c >> 7) & 1;
  unsigned e = (c >> 2) & 0x1F, m = c & 3;
  if (e == 31 && m != 0) return {true, 0};
  double mag = e == 31  ? HUGE_VAL
               : e == 0 ? std::ldexp(static_cast<double>(m), -16)
                        : std::ldexp(1.0 + m / 4.0, static_cast<int>(e) - 15);
  return {false, exact_f32(signed_value(s, mag))};
}

/// bf16 fields (§3.2): 1-8-7, bias 127; exponent 0 with non-zero fraction is a subnormal
/// encoding, exponent 255 inf / NaN.
struct Bf16Fields {
  bool s;
  unsigned e, f;
};
Bf16Fields fields(unsigned h) {
  return {((h >> 15) & 1) != 0, (h >> 7) & 0xFF, h & 0x7F};
}

} // namespace

TEST_CASE("dec_e4m3: all 256 codes against the format definition", "[scalar]") {
  for (unsigned c = 0; c < 256; ++c) {
    INFO("code 0x" << std::hex << c);
    Decoded want = ref_dec_e4m3(c);
    std::uint32_t got = dec_e4m3(static_cast<std::uint8_t>(c));
    if (want.nan)
      CHECK(got == 0x7FC00000u); // both NaN codes decode to positive quiet NaN (§3.3)
    else
      CHECK(got == want.bits);
  }
  CHECK(ref_dec_e4m3(0x7E).bits == exact_f32(448.0)); // largest finite (§3.3)
  CHECK(ref_dec_e4m3(0x08).bits == exact_f32(std::ldexp(1.0, -6)));
}

TEST_CASE("dec_e5m2: all 256 codes against the format definition", "[scalar]") {
  for (unsigned c = 0; c < 256; ++c) {
    INFO("code 0x" << std::hex << c);
    Decoded want = ref_dec_e5m2(c);
    std::uint32_t got = dec_e5m2(static_cast<std::uint8_t>(c));
    if (want.nan)
      CHECK(got == ((c & 0x80) ? 0xFFC00000u : 0x7FC00000u)); // sign kept, payload dropped (§4.4)
    else
      CHECK(got == want.bits);
  }
  CHECK(ref_dec_e5m2(0x7B).bits == exact_f32(57344.0));
}

TEST_CASE("enc(dec(c)) == c for every non-NaN f8 code", "[scalar]") {
  int e4m3_checked = 0, e5m2_checked = 0;
  for (unsigned c = 0; c < 256; ++c) {
    INFO("code 0x" << std::hex << c);
    auto code = static_cast<std::uint8_t>(c);
    if (!ref_dec_e4m3(c).nan) {
      CHECK(enc_e4m3(dec_e4m3(code)) == code); // promised for all 254 non-NaN codes (§4.2)
      ++e4m3_checked;
    }
    // e5m2: every non-NaN value (±0, subnormals, normals, ±inf) is exact and the encoder returns
    // it unchanged (no rounding happens, ±inf has its own branch).
    if (!ref_dec_e5m2(c).nan) {
      CHECK(enc_e5m2(dec_e5m2(code)) == code);
      ++e5m2_checked;
    }
  }
  CHECK(e4m3_checked == 254);
  CHECK(e5m2_checked == 250); // 256 minus 3 NaN mantissas × 2 signs
}

TEST_CASE("widen_bf16: all 65536 codes against the format definition with flush and NaN rules",
          "[scalar]") {
  for (unsigned h = 0; h < 65536; ++h) {
    Bf16Fields x = fields(h);
    std::uint32_t want;
    if (x.e == 255 && x.f != 0)
      want = 0x7FC00000u; // any NaN -> canonical positive quiet NaN
    else if (x.e == 255)
      want = x.s ? 0xFF800000u : 0x7F800000u;
    else if (x.e == 0)
      want = x.s ? 0x80000000u : 0u; // zero, and subnormal encodings flushed to signed zero
    else
      want =
          exact_f32(signed_value(x.s, std::ldexp(1.0 + x.f / 128.0, static_cast<int>(x.e) - 127)));
    std::uint32_t got = widen_bf16(static_cast<std::uint16_t>(h));
    if (got != want)
      FAIL_CHECK("widen_bf16(0x" << std::hex << h << ") = 0x" << got << ", want 0x" << want);
  }
  SUCCEED("65536 codes compared");
}

TEST_CASE("bf16 literal decode: all 65536 codes, subnormals kept, NaN quiet bit forced",
          "[scalar]") {
  for (unsigned h = 0; h < 65536; ++h) {
    Bf16Fields x = fields(h);
    std::uint32_t want;
    if (x.e == 255 && x.f != 0)
      want = (h | 0x0040u) << 16;
    else if (x.e == 255)
      want = x.s ? 0xFF800000u : 0x7F800000u;
    else if (x.e == 0)
      want = exact_f32(signed_value(x.s, std::ldexp(static_cast<double>(x.f), -133)));
    else
      want =
          exact_f32(signed_value(x.s, std::ldexp(1.0 + x.f / 128.0, static_cast<int>(x.e) - 127)));
    std::uint32_t got = bf16_literal_to_f32(static_cast<std::uint16_t>(h));
    if (got != want)
      FAIL_CHECK("bf16_literal_to_f32(0x" << std::hex << h << ") = 0x" << got << ", want 0x"
                                          << want);
  }
  SUCCEED("65536 codes compared");
}

TEST_CASE("bf16 round trips through f32, hardware and literal forms", "[scalar]") {
  for (unsigned h = 0; h < 65536; ++h) {
    auto code = static_cast<std::uint16_t>(h);
    Bf16Fields x = fields(h);
    bool nan = x.e == 255 && x.f != 0;
    bool subnormal = x.e == 0 && x.f != 0;
    // Hardware: NaN -> 0x7FC0, subnormal encodings -> signed zero, everything else exact.
    std::uint16_t want_hw = nan         ? 0x7FC0
                            : subnormal ? static_cast<std::uint16_t>(h & 0x8000)
                                        : code;
    // Literal: exact for every non-NaN code; a NaN keeps its payload with the quiet bit set.
    std::uint16_t want_lit = nan ? static_cast<std::uint16_t>(h | 0x0040) : code;
    std::uint16_t got_hw = narrow_bf16(widen_bf16(code));
    std::uint16_t got_lit = bf16_literal_from_f32(bf16_literal_to_f32(code));
    if (got_hw != want_hw)
      FAIL_CHECK("hardware round trip of 0x" << std::hex << h << " gave 0x" << got_hw);
    if (got_lit != want_lit)
      FAIL_CHECK("literal round trip of 0x" << std::hex << h << " gave 0x" << got_lit);
  }
  SUCCEED("65536 codes compared");
}

TEST_CASE("f4e2m1: all 16 codes decode to the §3.5 value list", "[scalar]") {
  const double values[16] = {0, 0.5, 1, 1.5, 2, 3, 4, 6, -0.0, -0.5, -1, -1.5, -2, -3, -4, -6};
  for (unsigned c = 0; c < 16; ++c) {
    INFO("code " << c);
    CHECK(dec_e2m1(static_cast<std::uint8_t>(c)) == exact_f32(values[c]));
    // the high nibble is discarded
    CHECK(dec_e2m1(static_cast<std::uint8_t>(c | 0xA0)) == exact_f32(values[c]));
  }
}
