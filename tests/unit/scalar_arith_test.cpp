// Integer wrap / zero point, fixed point and the widen / narrow of every encoding, each against an
// independent computation written here (modular arithmetic, double arithmetic) or the spec's
// test vectors.
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
#include <random>
#include <sstream>
#include <vector>

using namespace tujit;
using namespace tujit::runtime;
using ir::ScalarType;
using runtime::vector::f32_to_fxp;
using runtime::vector::fxp_to_f32;

namespace {

/// Two's complement truncation by modular arithmetic: v mod 2^k, then shifted into
/// [-2^(k-1), 2^(k-1)).
std::int64_t ref_wrap(std::int64_t v, unsigned k) {
  const std::int64_t m = std::int64_t{1} << k;
  std::int64_t r = ((v % m) + m) % m;
  return r >= m / 2 ? r - m : r;
}

std::vector<std::int32_t> interesting_i32() {
  std::vector<std::int32_t> vs = {0,
                                  1,
                                  -1,
                                  7,
                                  8,
                                  -8,
                                  -9,
                                  15,
                                  16,
                                  -16,
                                  -17,
                                  127,
                                  128,
                                  -128,
                                  -129,
                                  255,
                                  256,
                                  -256,
                                  -257,
                                  32767,
                                  32768,
                                  -32768,
                                  -32769,
                                  65535,
                                  65536,
                                  std::numeric_limits<std::int32_t>::max(),
                                  std::numeric_limits<std::int32_t>::min()};
  std::mt19937 rng(7u);
  for (int i = 0; i < 2000; ++i) vs.push_back(static_cast<std::int32_t>(rng()));
  return vs;
}

} // namespace

TEST_CASE("Wrap(k) equals modular two's-complement truncation", "[scalar]") {
  std::size_t mismatches = 0;
  for (std::int32_t v : interesting_i32())
    for (unsigned k = 1; k <= 32; ++k)
      if (wrap(v, k) != ref_wrap(v, k)) ++mismatches;
  CHECK(mismatches == 0);
  for (std::int32_t v : interesting_i32()) {
    INFO("v " << v);
    CHECK(narrow_i4(v) == ref_wrap(v, 4));
    CHECK(narrow_i5(v) == ref_wrap(v, 5));
    CHECK(narrow_i8(v) == ref_wrap(v, 8));
    CHECK(narrow_i9(v) == ref_wrap(v, 9));
    CHECK(narrow_i16(v) == ref_wrap(v, 16));
  }
  CHECK(narrow_i5(16) == -16); // §3.1 examples
  CHECK(narrow_i9(256) == -256);
}

TEST_CASE("zero-point subtraction over every in-range value and zero point", "[scalar]") {
  for (int v = -8; v <= 7; ++v)
    for (int zp = -8; zp <= 7; ++zp) {
      // in range: the residual fits i5 unchanged (§6)
      CHECK(zero_point_sub_i4_to_i5(static_cast<std::int8_t>(v), zp) == v - zp);
    }
  std::size_t mismatches = 0;
  for (int v = -128; v <= 127; ++v)
    for (int zp = -128; zp <= 127; ++zp)
      if (zero_point_sub_i8_to_i9(static_cast<std::int8_t>(v), zp) != v - zp) ++mismatches;
  CHECK(mismatches == 0);
  // Out of range (refused at verification) the arithmetic is still Wrap(5) / Wrap(9).
  CHECK(zero_point_sub_i4_to_i5(-8, 9) == ref_wrap(-17, 5));
  CHECK(zero_point_sub_i8_to_i9(-128, 200) == ref_wrap(-328, 9));
  // Even a zero point whose exact difference leaves i32 (found by UBSan: the subtraction used to
  // overflow): −1 − INT32_MIN = 2^31 − 1 keeps the low bits 0b11111 → −1; 0 − INT32_MIN = 2^31 → 0.
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  CHECK(zero_point_sub_i4_to_i5(-1, kMin) == -1);
  CHECK(zero_point_sub_i4_to_i5(0, kMin) == 0);
  CHECK(zero_point_sub_i8_to_i9(-1, kMin) == -1);
  CHECK(zero_point_sub_i8_to_i9(127, kMin) == 127); // 2^31 + 127 ≡ 127 (mod 512)
}

TEST_CASE("i32 contraction arithmetic wraps (docs/scalars.md §7)", "[scalar]") {
  for (std::int32_t a : interesting_i32())
    for (std::int32_t b : {0, 1, -1, 3, 65536, std::numeric_limits<std::int32_t>::min()}) {
      CHECK(wrapping_add_i32(a, b) == ref_wrap(std::int64_t{a} + b, 32));
      CHECK(wrapping_mul_i32(a, b) ==
            ref_wrap((std::int64_t{a} * b) % (std::int64_t{1} << 32), 32));
    }
}

TEST_CASE("fxp_to_f32 equals the RNE conversion of the exact value v·2^(iw-31)", "[scalar]") {
  std::size_t mismatches = 0, checked = 0;
  std::ostringstream first;
  std::vector<std::int32_t> vs = interesting_i32();
  for (std::int32_t base : {1 << 24, 1 << 25, 1 << 30})
    for (std::int32_t d = -130; d <= 130; ++d) vs.push_back(base + d); // rounding boundaries
  for (std::int32_t v : vs)
    for (std::uint32_t iw = 0; iw <= 31; ++iw) {
      // double holds v exactly; scaling by a power of two is exact; the double -> float
      // conversion is IEEE round-to-nearest-even.
      const double exact = std::ldexp(static_cast<double>(v), static_cast<int>(iw) - 31);
      const std::uint32_t want = f32_bits(static_cast<float>(exact));
      const std::uint32_t got = fxp_to_f32(v, iw);
      ++checked;
      if (got != want) {
        if (mismatches++ < 5) first << "v=" << v << " iw=" << iw << " got " << got << "\n";
      }
    }
  INFO(first.str());
  CHECK(mismatches == 0);
  CHECK(checked > 60000);
}

TEST_CASE("f32_to_fxp equals round-half-away of x·2^(31-iw), clamped", "[scalar]") {
  auto ref = [](std::uint32_t x, std::uint32_t iw) -> std::int64_t {
    const float f = f32_from_bits(x);
    if (std::isnan(f)) return std::signbit(f) ? INT32_MIN : INT32_MAX;
    const double r = std::round(std::ldexp(static_cast<double>(f), 31 - static_cast<int>(iw)));
    if (r >= 2147483647.0) return INT32_MAX;
    if (r <= -2147483648.0) return INT32_MIN;
    return static_cast<std::int64_t>(r);
  };
  std::vector<std::uint32_t> xs = {0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                                   0x7FC00000u, 0xFFC00000u, 0x00000001u, 0x3F800000u,
                                   0xBF800000u, 0x3F000000u, 0x4F000000u, 0xCF000000u,
                                   0x4EFFFFFFu, 0xCEFFFFFFu, 0x4F000001u, 0xCF000001u};
  std::mt19937 rng(11u);
  for (int i = 0; i < 20000; ++i) {
    // random values around the i32 scale for a random iw: exponent near 127 ± 40
    const auto r1 = static_cast<std::uint32_t>(rng()), r2 = static_cast<std::uint32_t>(rng());
    const std::uint32_t e = 87u + r1 % 80u;
    xs.push_back((r2 & 0x80000000u) | (e << 23) | (r2 & 0x7FFFFFu));
  }
  for (std::int32_t k = -40; k <= 40; ++k) // exact halves: (k + 0.5)·2^-(31-iw) at iw = 31
    xs.push_back(f32_bits(static_cast<float>(k) + 0.5f));
  std::size_t mismatches = 0;
  for (std::uint32_t x : xs)
    for (std::uint32_t iw = 0; iw <= 31; ++iw)
      if (f32_to_fxp(x, iw) != ref(x, iw)) ++mismatches;
  CHECK(mismatches == 0);
}

TEST_CASE("widen_bits / narrow_bits per encoding (docs/scalars.md §4, §8)", "[scalar]") {
  // Integers: the container is the sign-extended value; narrowing is Wrap(k) (§8 #75-#77).
  CHECK(widen_bits(ScalarType::I9, static_cast<std::uint32_t>(-256)) ==
        static_cast<std::uint32_t>(-256));
  CHECK(narrow_bits(ScalarType::I4, 8) == static_cast<std::uint32_t>(-8));
  CHECK(narrow_bits(ScalarType::I4, static_cast<std::uint32_t>(-9)) == 7u);
  CHECK(narrow_bits(ScalarType::I8, 200) == static_cast<std::uint32_t>(-56));
  CHECK(narrow_bits(ScalarType::I8, 2560000) == 0u);
  CHECK(narrow_bits(ScalarType::I16, 40000) == static_cast<std::uint32_t>(-25536));
  CHECK(narrow_bits(ScalarType::I9, 256) == static_cast<std::uint32_t>(-256));
  // bf16: the hardware forms (§8 #6, #11, #21, #24).
  CHECK(widen_bits(ScalarType::BF16, 0x8001) == 0x80000000u);
  CHECK(widen_bits(ScalarType::BF16, 0x7F81) == 0x7FC00000u);
  CHECK(narrow_bits(ScalarType::BF16, 0x00400000u) == 0x0000u);
  CHECK(narrow_bits(ScalarType::BF16, 0x7F7FFFFFu) == 0x7F80u);
  // f8: exact decode (an e5m2 NaN keeps its sign), saturating / reference encoders (§8 #33,
  // #54, #68).
  CHECK(widen_bits(ScalarType::F8E4M3, 0x7E) == 0x43E00000u);
  CHECK(widen_bits(ScalarType::F8E5M2, 0xFE) == 0xFFC00000u);
  CHECK(narrow_bits(ScalarType::F8E4M3, f32_bits(1000.0f)) == 0x7Eu);
  CHECK(narrow_bits(ScalarType::F8E5M2, f32_bits(1.125f)) == 0x3Du);
  // f4e2m1 decodes exactly (§3.5); f32 passes through.
  CHECK(widen_bits(ScalarType::F4E2M1, 0xF) == f32_bits(-6.0f));
  CHECK(widen_bits(ScalarType::F32, 0x3F800000u) == 0x3F800000u);
  // The Multiplier's widening canonicalises every NaN, the e5m2 one included (docs/contraction.md
  // §2.1); a legal cast is the identity on equal types, else widen then narrow (§5.1, §8 #100).
  CHECK(widen_to_accumulator(ScalarType::F8E5M2, 0xFE) == 0x7FC00000u);
  CHECK(widen_to_accumulator(ScalarType::I8, static_cast<std::uint32_t>(-5)) ==
        static_cast<std::uint32_t>(-5));
  CHECK(convert_bits(ScalarType::BF16, ScalarType::BF16, 0x0001) == 0x0001u);
  CHECK(convert_bits(ScalarType::BF16, ScalarType::F32, 0xC020) == 0xC0200000u);
  CHECK(convert_bits(ScalarType::F32, ScalarType::BF16, 0x406CCCCDu) == 0x406Du);
  CHECK(convert_bits(ScalarType::F8E4M3, ScalarType::F32, 0x01) == 0x3B000000u);
  CHECK(convert_bits(ScalarType::I8, ScalarType::I32, static_cast<std::uint32_t>(-128)) ==
        static_cast<std::uint32_t>(-128));
  // vector reinterpret both ways keeps the bits (§5.6)
  CHECK(reinterpret_i32_as_f32(0x3F800000) == f32_bits(1.0f));
  CHECK(reinterpret_f32_as_i32(0xBF800000u) == static_cast<std::int32_t>(0xBF800000u));
}

TEST_CASE("conversions are constant expressions (usable in tables and static checks)", "[scalar]") {
  STATIC_REQUIRE(narrow_bf16(0x3F818000u) == 0x3F82); // §8 #3
  STATIC_REQUIRE(widen_bf16(0x7F81) == 0x7FC00000u);  // §8 #24
  STATIC_REQUIRE(enc_e4m3(0x3F980000u) == 0x3A);      // §8 #43
  STATIC_REQUIRE(dec_e4m3(0x07) == 0x3C600000u);      // §8 #51
  STATIC_REQUIRE(enc_e5m2(0x38600000u) == 0x03);      // §8 #63
  STATIC_REQUIRE(dec_e5m2(0x83) == 0xB8400000u);      // §8 #69
  STATIC_REQUIRE(wrap(40000, 16) == -25536);          // §8 #77
}
