// Every test vector of docs/scalars.md §8 (numbers in the comments), grouped by conversion.
// Expected values are copied from the spec's table, never from the code under test.
#include "ir/types/scalar_type.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/integer.h"
#include "runtime/scalar/widen.h"
#include "runtime/vector/ve_scalar.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

using namespace tujit;
using namespace tujit::runtime;
using ir::ScalarType;
using runtime::vector::f32_to_fxp;
using runtime::vector::fxp_to_f32;

namespace {
std::uint32_t bits(float f) {
  return f32_bits(f);
}
std::uint32_t pow2(int e) {
  return f32_bits(std::ldexp(1.0f, e));
}
} // namespace

TEST_CASE("docs/scalars.md §8 vectors 1-18: narrow_bf16", "[scalar]") {
  CHECK(narrow_bf16(0x3F800000u) == 0x3F80); // #1
  CHECK(narrow_bf16(0x3F808000u) == 0x3F80); // #2 tie -> even
  CHECK(narrow_bf16(0x3F818000u) == 0x3F82); // #3 tie -> even
  CHECK(narrow_bf16(0x3F80C000u) == 0x3F81); // #4
  CHECK(narrow_bf16(0x3F808001u) == 0x3F81); // #5 just above tie
  CHECK(narrow_bf16(0x7F7FFFFFu) == 0x7F80); // #6 f32 max -> +inf
  CHECK(narrow_bf16(0x7F7F7FFFu) == 0x7F7F); // #7 bf16 max
  CHECK(narrow_bf16(0xFF800000u) == 0xFF80); // #8 -inf
  CHECK(narrow_bf16(0x7FA00001u) == 0x7FC0); // #9 signalling NaN
  CHECK(narrow_bf16(0xFFC00000u) == 0x7FC0); // #10 -qNaN
  CHECK(narrow_bf16(0x00400000u) == 0x0000); // #11 subnormal flushes
  CHECK(narrow_bf16(0x80400000u) == 0x8000); // #12
  CHECK(narrow_bf16(0x007FFFFFu) == 0x0000); // #13 largest subnormal, no round-up
  CHECK(narrow_bf16(0x00800000u) == 0x0080); // #14 min normal
  CHECK(narrow_bf16(0x80000000u) == 0x8000); // #15 -0
  CHECK(narrow_bf16(0x406CCCCDu) == 0x406D); // #16 3.7
  CHECK(narrow_bf16(0x477FE000u) == 0x4780); // #17 65504
  CHECK(narrow_bf16(0x3DCCCCCDu) == 0x3DCD); // #18 0.1
}

TEST_CASE("docs/scalars.md §8 vectors 19-20: literal bf16", "[scalar]") {
  CHECK(bf16_literal_from_f32(0x00400000u) == 0x0040); // #19 subnormal kept
  CHECK(bf16_literal_from_f32(0x7FA00001u) == 0x7FE0); // #20 payload kept, quiet bit forced
}

TEST_CASE("docs/scalars.md §8 vectors 21-28: widen_bf16", "[scalar]") {
  CHECK(widen_bf16(0x0001) == 0x00000000u); // #21
  CHECK(widen_bf16(0x8001) == 0x80000000u); // #22
  CHECK(widen_bf16(0x007F) == 0x00000000u); // #23
  CHECK(widen_bf16(0x7F81) == 0x7FC00000u); // #24
  CHECK(widen_bf16(0xFFC0) == 0x7FC00000u); // #25
  CHECK(widen_bf16(0xFF80) == 0xFF800000u); // #26
  CHECK(widen_bf16(0xC020) == 0xC0200000u); // #27 -2.5
  CHECK(widen_bf16(0x0080) == 0x00800000u); // #28
}

TEST_CASE("docs/scalars.md §8 vectors 29-48: enc_e4m3", "[scalar]") {
  CHECK(enc_e4m3(bits(1.0f)) == 0x38);    // #29
  CHECK(enc_e4m3(bits(-1.0f)) == 0xB8);   // #30
  CHECK(enc_e4m3(bits(448.0f)) == 0x7E);  // #31
  CHECK(enc_e4m3(0x43E80000u) == 0x7E);   // #32 464 saturates
  CHECK(enc_e4m3(bits(1000.0f)) == 0x7E); // #33
  CHECK(enc_e4m3(0x7F800000u) == 0x7E);   // #34 +inf
  CHECK(enc_e4m3(0xFF800000u) == 0xFE);   // #34 -inf
  CHECK(enc_e4m3(0x7FC00000u) == 0x7F);   // #35
  CHECK(enc_e4m3(0xFFC00000u) == 0x7F);   // #35 NaN sign dropped
  CHECK(enc_e4m3(0x3C800000u) == 0x08);   // #36 2^-6
  CHECK(enc_e4m3(0x3B000000u) == 0x01);   // #37 2^-9
  CHECK(enc_e4m3(0x3A800000u) == 0x00);   // #38 2^-10 tie -> even 0
  CHECK(enc_e4m3(0x3AC00000u) == 0x01);   // #39 1.5*2^-10
  CHECK(enc_e4m3(0x3B400000u) == 0x02);   // #40 3*2^-10 tie -> even 2
  CHECK(enc_e4m3(0x3C700000u) == 0x08);   // #41 7.5*2^-9 tie -> 8
  CHECK(enc_e4m3(0x3F880000u) == 0x38);   // #42 1.0625 tie -> even
  CHECK(enc_e4m3(0x3F980000u) == 0x3A);   // #43 1.1875 tie -> 1.25
  CHECK(enc_e4m3(0x80000000u) == 0x80);   // #44 -0
  CHECK(enc_e4m3(0x00000001u) == 0x00);   // #45 f32 subnormal
  CHECK(enc_e4m3(0x3DCCCCCDu) == 0x1D);   // #46 0.1
  CHECK(enc_e4m3(0xBE99999Au) == 0xAA);   // #47 -0.3
  CHECK(enc_e4m3(bits(240.0f)) == 0x77);  // #48
}

TEST_CASE("docs/scalars.md §8 vectors 49-52: dec_e4m3", "[scalar]") {
  CHECK(dec_e4m3(0x7F) == 0x7FC00000u); // #49
  CHECK(dec_e4m3(0xFF) == 0x7FC00000u); // #49 positive NaN for both
  CHECK(dec_e4m3(0x7E) == 0x43E00000u); // #50 448
  CHECK(dec_e4m3(0xFE) == 0xC3E00000u); // #50 -448
  CHECK(dec_e4m3(0x01) == 0x3B000000u); // #51
  CHECK(dec_e4m3(0x07) == 0x3C600000u); // #51
  CHECK(dec_e4m3(0x80) == 0x80000000u); // #52
}

TEST_CASE("docs/scalars.md §8 vectors 53-66: enc_e5m2", "[scalar]") {
  CHECK(enc_e5m2(bits(1.0f)) == 0x3C);                         // #53
  CHECK(enc_e5m2(bits(1.125f)) == 0x3D);                       // #54 tie -> half up
  CHECK(enc_e5m2(bits(1.375f)) == 0x3E);                       // #55 tie
  CHECK(enc_e5m2(bits(57344.0f)) == 0x7B);                     // #56
  CHECK(enc_e5m2(bits(60000.0f)) == 0x7B);                     // #56
  CHECK(enc_e5m2(bits(61440.0f)) == 0x7C);                     // #57 -> +inf
  CHECK(enc_e5m2(bits(65536.0f)) == 0x7C);                     // #57
  CHECK(enc_e5m2(0xFF800000u) == 0xFC);                        // #58 -inf
  CHECK(enc_e5m2(0x7FC00000u) == 0x7E);                        // #59 NaN
  CHECK(enc_e5m2(0xFFC00000u) == 0x7E);                        // #59 NaN, other sign
  CHECK(enc_e5m2(pow2(-14)) == 0x04);                          // #60
  CHECK(enc_e5m2(pow2(-16)) == 0x01);                          // #60
  CHECK(enc_e5m2(pow2(-17)) == 0x01);                          // #61 tie -> away
  CHECK(enc_e5m2(pow2(-18)) == 0x00);                          // #61
  CHECK(enc_e5m2(bits(1.5f * std::ldexp(1.0f, -16))) == 0x02); // #62 tie -> away
  CHECK(enc_e5m2(0x38600000u) == 0x03);                        // #63 clamped at 3
  CHECK(enc_e5m2(0x80000000u) == 0x80);                        // #64 -0
  CHECK(enc_e5m2(bits(0.1f)) == 0x2E);                         // #65
  CHECK(enc_e5m2(bits(-3.0f)) == 0xC2);                        // #66
}

TEST_CASE("docs/scalars.md §8 vectors 67-70: dec_e5m2", "[scalar]") {
  CHECK(dec_e5m2(0x7C) == 0x7F800000u); // #67
  CHECK(dec_e5m2(0x7D) == 0x7FC00000u); // #67
  CHECK(dec_e5m2(0xFE) == 0xFFC00000u); // #68 NaN sign kept
  CHECK(dec_e5m2(0x01) == 0x37800000u); // #69
  CHECK(dec_e5m2(0x83) == 0xB8400000u); // #69
  CHECK(dec_e5m2(0x7B) == 0x47600000u); // #70 57344
}

TEST_CASE("docs/scalars.md §8 vectors 75-80: integer narrowing and i32 arithmetic", "[scalar]") {
  CHECK(narrow_i4(8) == -8);                  // #75
  CHECK(narrow_i4(-9) == 7);                  // #75
  CHECK(narrow_i4(15) == -1);                 // #75
  CHECK(narrow_i8(200) == -56);               // #76
  CHECK(narrow_i8(2560000) == 0);             // #76
  CHECK(narrow_i16(40000) == -25536);         // #77
  CHECK(wrapping_mul_i32(65536, 65536) == 0); // #78
  const auto i4 =
      static_cast<std::int32_t>(widen_bits(ScalarType::I4, narrow_bits(ScalarType::I4, 8)));
  CHECK(wrapping_mul_i32(i4, i4) == 64); // #79: (−8)·(−8)
  std::int32_t sum = 0;
  for (int i = 0; i < 256; ++i) sum = wrapping_add_i32(sum, wrapping_mul_i32(100, 100));
  CHECK(sum == 2560000); // #80
}

TEST_CASE("docs/scalars.md §8 vectors 81-83: zero-point subtraction", "[scalar]") {
  CHECK(zero_point_sub_i4_to_i5(-8, 7) == -15);                                           // #81
  CHECK(zero_point_sub_i4_to_i5(7, -8) == 15);                                            // #81
  CHECK(zero_point_sub_i8_to_i9(-128, 127) == -255);                                      // #82
  CHECK(zero_point_sub_i8_to_i9(127, -128) == 255);                                       // #82
  CHECK_FALSE(ir::zero_point_in_range(ScalarType::I4, ScalarType::I5, 8));                // #83
  CHECK_FALSE(ir::explain_zero_point_refusal(ScalarType::I4, ScalarType::I5, 8).empty()); // #83
}

TEST_CASE("docs/scalars.md §8 vectors 89-92: relu_narrow", "[scalar]") {
  CHECK(relu_narrow_bf16(bits(-5.0f)) == 0x0000); // #89
  CHECK(relu_narrow_bf16(bits(-0.1f)) == 0x0000); // #89
  CHECK(relu_narrow_bf16(bits(0.0f)) == 0x0000);  // #89
  CHECK(relu_narrow_bf16(bits(3.7f)) == 0x406D);  // #90
  CHECK(relu_narrow_bf16(0x80000000u) == 0x0000); // #91 -0
  CHECK(relu_narrow_bf16(0xFF800000u) == 0x0000); // #91 -inf
  CHECK(relu_narrow_bf16(0x80000001u) == 0x0000); // #91 negative subnormal
  CHECK(relu_narrow_bf16(0xFFC00000u) == 0x7FC0); // #92 -NaN
  CHECK(relu_narrow_bf16(0x7F800000u) == 0x7F80); // #92 +inf
}

TEST_CASE("docs/scalars.md §8 vectors 93-99: fixed point", "[scalar]") {
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  CHECK(fxp_to_f32(0x40000000, 0) == 0x3F000000u); // #93
  CHECK(fxp_to_f32(kMin, 0) == 0xBF800000u);       // #94
  CHECK(fxp_to_f32(0x7FFFFFFF, 0) == 0x3F800000u); // #95 rounds to 1
  CHECK(fxp_to_f32(16777217, 31) == 0x4B800000u);  // #96
  CHECK(fxp_to_f32(16777219, 31) == 0x4B800002u);  // #96
  CHECK(f32_to_fxp(bits(0.5f), 0) == 0x40000000);  // #97
  CHECK(f32_to_fxp(bits(1.0f), 0) == 0x7FFFFFFF);  // #97
  CHECK(f32_to_fxp(bits(-1.0f), 0) == kMin);       // #97
  CHECK(f32_to_fxp(bits(2.5f), 31) == 3);          // #98
  CHECK(f32_to_fxp(bits(-2.5f), 31) == -3);        // #98
  CHECK(f32_to_fxp(0x7FC00000u, 0) == 0x7FFFFFFF); // #99
  CHECK(f32_to_fxp(0xFFC00000u, 0) == kMin);       // #99
}

TEST_CASE("docs/scalars.md §8 vectors 100-101: fetch cast and reinterpret", "[scalar]") {
  // #100: fetch cast i8 -> i32 is legal and sign-extends [0..7] to [0..7].
  REQUIRE(ir::is_fetch_cast(ScalarType::I8, ScalarType::I32));
  std::vector<std::uint32_t> out;
  for (std::uint32_t v = 0; v < 8; ++v)
    out.push_back(convert_bits(ScalarType::I8, ScalarType::I32, v));
  CHECK(out == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}); // #100
  CHECK(reinterpret_f32_as_i32(bits(1.0f)) == 0x3F800000);          // #101
}
