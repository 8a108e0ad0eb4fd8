// f32 → bf16 / f8e4m3 / f8e5m2 rounding against reference models written here from the text of
// docs/scalars.md §4 (exact double distances between candidate values, not bit tricks), on named
// boundary cases and on a deterministic sweep of ~500k f32 bit patterns.
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace tujit::runtime;

namespace {

double f32_value(std::uint32_t x) {
  return static_cast<double>(f32_from_bits(x));
}
bool is_nan(std::uint32_t x) {
  return std::isnan(f32_from_bits(x));
}
bool is_inf(std::uint32_t x) {
  return std::isinf(f32_from_bits(x));
}
bool is_f32_subnormal(std::uint32_t x) {
  return std::fpclassify(f32_from_bits(x)) == FP_SUBNORMAL;
}

/// Magnitude of a non-negative bf16 code; 0x7F80 stands for 2^128, the value the rounding would
/// produce with an unbounded exponent (IEEE overflow rule: rounding to it means inf).
double bf16_magnitude(unsigned code) {
  unsigned e = (code >> 7) & 0xFF, f = code & 0x7F;
  if (e == 0) return std::ldexp(static_cast<double>(f), -133);
  return std::ldexp(1.0 + f / 128.0, static_cast<int>(e) - 127);
}

/// The largest non-negative bf16 code whose value is <= a (0 <= a < 2^128, finite), found with
/// frexp/floor on the value rather than on the bits: in the binade [2^(k-1), 2^k) the codes are
/// spaced 2^(k-8); below 2^-126 they are spaced 2^-133 (subnormal encodings).
unsigned bf16_floor_code(double a) {
  if (a < std::ldexp(1.0, -126)) return static_cast<unsigned>(std::floor(std::ldexp(a, 133)));
  int k = 0;
  std::frexp(a, &k);                                     // a = f·2^k, f in [0.5, 1)
  const double steps = std::floor(std::ldexp(a, 8 - k)); // in [128, 256)
  return static_cast<unsigned>((k - 1 + 127) * 128) + static_cast<unsigned>(steps) - 128u;
}

/// Nearest non-negative bf16 code by exact distance, ties to the even code.
unsigned bf16_nearest_even(double a) {
  const unsigned lo = bf16_floor_code(a), hi = lo + 1; // hi may be 0x7F80 = 2^128
  const double d_lo = a - bf16_magnitude(lo), d_hi = bf16_magnitude(hi) - a;
  return d_lo < d_hi ? lo : d_hi < d_lo ? hi : ((lo % 2 == 0) ? lo : hi);
}

/// Hardware narrow_bf16 model (§4.1 + §3.6): NaN -> 0x7FC0, f32 subnormal -> signed zero,
/// otherwise nearest bf16 by exact distance, ties to the even code, overflow to inf.
std::uint16_t ref_narrow_bf16(std::uint32_t x) {
  if (is_nan(x)) return 0x7FC0;
  const unsigned sign = (x >> 31) ? 0x8000u : 0u;
  if (is_f32_subnormal(x) || (x & 0x7FFFFFFFu) == 0) return static_cast<std::uint16_t>(sign);
  if (is_inf(x)) return static_cast<std::uint16_t>(sign | 0x7F80u);
  return static_cast<std::uint16_t>(sign | bf16_nearest_even(std::fabs(f32_value(x))));
}

/// Non-negative f8e4m3 codes 0x00..0x7E with their values (§3.3).
const std::vector<double>& e4m3_magnitudes() {
  static const std::vector<double> v = [] {
    std::vector<double> out;
    for (unsigned c = 0; c <= 0x7E; ++c) {
      unsigned e = (c >> 3) & 0xF, m = c & 7;
      out.push_back(e == 0 ? std::ldexp(static_cast<double>(m), -9)
                           : std::ldexp(1.0 + m / 8.0, static_cast<int>(e) - 7));
    }
    return out;
  }();
  return v;
}

/// enc_e4m3 model (§4.2): NaN -> 0x7F; |x| >= 448 (incl. inf) -> ±448; otherwise nearest code by
/// exact distance, ties to the even code; the sign is kept (also on zero results).
std::uint8_t ref_enc_e4m3(std::uint32_t x) {
  if (is_nan(x)) return 0x7F;
  const unsigned sign = (x >> 31) ? 0x80u : 0u;
  const double a = std::fabs(f32_value(x));
  if (a >= 448.0) return static_cast<std::uint8_t>(sign | 0x7E);
  const auto& mags = e4m3_magnitudes(); // increasing in the code
  const auto lo =
      static_cast<unsigned>(std::upper_bound(mags.begin(), mags.end(), a) - mags.begin() - 1);
  unsigned best = lo;
  if (lo + 1 < mags.size()) {
    const double d_lo = a - mags[lo], d_hi = mags[lo + 1] - a;
    best = d_lo < d_hi ? lo : d_hi < d_lo ? lo + 1 : ((lo % 2 == 0) ? lo : lo + 1);
  }
  return static_cast<std::uint8_t>(sign | best);
}

/// Non-negative finite f8e5m2 magnitudes 0x00..0x7B, then 65536 for the code 0x7C (+inf): the
/// next step of an unbounded exponent, so that "rounds up past the max" means inf (§4.3).
double e5m2_magnitude(unsigned c) {
  if (c == 0x7C) return 65536.0;
  unsigned e = (c >> 2) & 0x1F, m = c & 3;
  return e == 0 ? std::ldexp(static_cast<double>(m), -16)
                : std::ldexp(1.0 + m / 4.0, static_cast<int>(e) - 15);
}

const std::vector<double>& e5m2_magnitudes() { // codes 0x00..0x7C, increasing
  static const std::vector<double> v = [] {
    std::vector<double> out;
    for (unsigned c = 0; c <= 0x7C; ++c) out.push_back(e5m2_magnitude(c));
    return out;
  }();
  return v;
}

/// enc_e5m2 model from the text of §4.3: NaN -> 0x7E; ±inf -> ±inf; below 2^-14 the units of
/// 2^-16 rounded half away from zero, clamped at 3; from 2^-14 up, the nearest of the two
/// bracketing codes with exact halves going up in magnitude (half away from zero), and a result
/// past 57344 is inf.
std::uint8_t ref_enc_e5m2(std::uint32_t x) {
  if (is_nan(x)) return 0x7E;
  const unsigned sign = (x >> 31) ? 0x80u : 0u;
  if (is_inf(x)) return static_cast<std::uint8_t>(sign | 0x7C);
  const double a = std::fabs(f32_value(x));
  if (a < std::ldexp(1.0, -14)) {
    const double t = a * 65536.0; // exact
    double k = std::floor(t);
    if (t - k >= 0.5) k += 1.0; // half away from zero on a magnitude
    return static_cast<std::uint8_t>(sign | static_cast<unsigned>(std::fmin(k, 3.0)));
  }
  if (a >= 65536.0) return static_cast<std::uint8_t>(sign | 0x7C);
  const auto& mags = e5m2_magnitudes();
  const auto lo = static_cast<unsigned>(std::upper_bound(mags.begin(), mags.end(), a) -
                                        mags.begin() - 1); // 0x04 <= lo <= 0x7B
  const unsigned hi = lo + 1;
  const double d_lo = a - mags[lo], d_hi = mags[hi] - a;
  return static_cast<std::uint8_t>(sign | (d_lo >= d_hi ? hi : lo));
}

/// Boundary and sweep inputs: all signs × all 256 exponents × mantissas at and around the
/// rounding points of every format (each k-bit prefix for k = 1..8, ±1), plus seeded random bits.
std::vector<std::uint32_t> sweep_inputs() {
  std::set<std::uint32_t> mantissas = {0u, 1u, 2u, 0x7FFFFEu, 0x7FFFFFu};
  for (unsigned b = 1; b <= 8; ++b) {
    for (std::uint32_t t = 0; t < (1u << b); ++t) {
      std::uint32_t base = t << (23 - b);
      mantissas.insert(base);
      if (base > 0) mantissas.insert(base - 1);
      if (base + 1 <= 0x7FFFFFu) mantissas.insert(base + 1);
    }
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t s = 0; s < 2; ++s)
    for (std::uint32_t e = 0; e < 256; ++e)
      for (std::uint32_t m : mantissas) out.push_back((s << 31) | (e << 23) | m);
  std::mt19937 rng(20261129u); // fixed seed: deterministic
  for (int i = 0; i < 100000; ++i) out.push_back(static_cast<std::uint32_t>(rng()));
  return out;
}

const std::vector<std::uint32_t>& inputs() {
  static const std::vector<std::uint32_t> v = sweep_inputs();
  return v;
}

/// Runs `got` and `want` on all inputs; reports the first mismatches and checks there are none.
template <class Got, class Want>
void compare_all(const std::vector<std::uint32_t>& xs, Got got, Want want) {
  std::size_t mismatches = 0;
  std::ostringstream first;
  for (std::uint32_t x : xs) {
    unsigned g = got(x), w = want(x);
    if (g != w) {
      if (mismatches < 10)
        first << std::hex << "x=0x" << x << " got 0x" << g << " want 0x" << w << "\n";
      ++mismatches;
    }
  }
  INFO(first.str());
  CHECK(mismatches == 0);
}

// Named boundary cases shared by the three encoders.
const std::vector<std::uint32_t> kBoundaries = {
    0x00000000u, 0x80000000u,                           // ±0
    0x00000001u, 0x80000001u, 0x007FFFFFu, 0x807FFFFFu, // f32 subnormals
    0x00800000u, 0x80800000u,                           // smallest f32 normals
    0x7F7FFFFFu, 0xFF7FFFFFu,                           // f32 max finite
    0x7F800000u, 0xFF800000u,                           // ±inf
    0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFA00001u, // NaNs of both signs
};

} // namespace

TEST_CASE("sweep covers every exponent and a few hundred thousand patterns", "[scalar]") {
  CHECK(inputs().size() >= 400000);
}

TEST_CASE("narrow_bf16 equals nearest-even with flush, NaN and overflow rules", "[scalar]") {
  // bf16-specific boundaries: ties, just below/above ties, max finite and the overflow edge.
  std::vector<std::uint32_t> xs = kBoundaries;
  for (std::uint32_t x :
       {0x3F808000u, 0x3F807FFFu, 0x3F808001u, 0x3F818000u, 0x3F817FFFu, 0x7F7F0000u, 0x7F7F7FFFu,
        0x7F7F8000u, 0x7F7F8001u, 0xFF7F8000u, 0x00808000u, 0x00818000u, 0x0080FFFFu, 0x7F7FFFFFu})
    xs.push_back(x);
  compare_all(xs, narrow_bf16, ref_narrow_bf16);
  CHECK(ref_narrow_bf16(0x7F7F8000u) == 0x7F80); // the model itself: tie above max -> inf
  CHECK(ref_narrow_bf16(0x7F7F7FFFu) == 0x7F7F);
  compare_all(inputs(), narrow_bf16, ref_narrow_bf16);
}

TEST_CASE("bf16 literal form equals IEEE nearest-even without flush", "[scalar]") {
  // Independent: the C++ conversion f32 -> double -> nearest bf16 by distance, subnormals kept.
  auto ref_literal = [](std::uint32_t x) -> std::uint16_t {
    if (is_nan(x)) return static_cast<std::uint16_t>((x >> 16) | 0x0040u);
    const unsigned sign = (x >> 31) ? 0x8000u : 0u;
    if (is_inf(x)) return static_cast<std::uint16_t>(sign | 0x7F80u);
    const unsigned code = bf16_nearest_even(std::fabs(f32_value(x)));
    return static_cast<std::uint16_t>(sign | code);
  };
  std::vector<std::uint32_t> xs = kBoundaries;
  for (std::uint32_t x : {0x00400000u, 0x00008000u, 0x00018000u, 0x00008001u, 0x0000FFFFu,
                          0x007F8000u, 0x007FFFFFu, 0x807F8000u})
    xs.push_back(x);
  compare_all(xs, bf16_literal_from_f32, ref_literal);
  compare_all(inputs(), bf16_literal_from_f32, ref_literal);
}

TEST_CASE("enc_e4m3 equals saturating nearest-even", "[scalar]") {
  std::vector<std::uint32_t> xs = kBoundaries;
  const auto& mags = e4m3_magnitudes();
  // Every code value, every midpoint between neighbours, and the f32 neighbours of each.
  for (unsigned c = 0; c + 1 < mags.size(); ++c) {
    for (double v : {mags[c], (mags[c] + mags[c + 1]) / 2}) {
      std::uint32_t b = f32_bits(static_cast<float>(v));
      for (std::uint32_t x : {b, b - 1, b + 1, b | 0x80000000u, (b - 1) | 0x80000000u})
        xs.push_back(x);
    }
  }
  for (float v : {448.0f, 456.0f, 464.0f, 480.0f, 1e6f, 0.0009765625f /* 2^-10 */})
    for (std::uint32_t b = f32_bits(v) - 1; b <= f32_bits(v) + 1; ++b) xs.push_back(b);
  compare_all(xs, enc_e4m3, ref_enc_e4m3);
  compare_all(inputs(), enc_e4m3, ref_enc_e4m3);
}

TEST_CASE("enc_e5m2 equals the reference's half-away rule with the clamp at 3", "[scalar]") {
  std::vector<std::uint32_t> xs = kBoundaries;
  for (unsigned c = 0; c < 0x7C; ++c) {
    for (double v : {e5m2_magnitude(c), (e5m2_magnitude(c) + e5m2_magnitude(c + 1)) / 2}) {
      std::uint32_t b = f32_bits(static_cast<float>(v));
      for (std::uint32_t x : {b, b - 1, b + 1, b | 0x80000000u, (b + 1) | 0x80000000u})
        if (b > 0) xs.push_back(x);
    }
  }
  compare_all(xs, enc_e5m2, ref_enc_e5m2);
  // The model reproduces the §4.3 consequences, so the comparison tests the intended rule.
  CHECK(ref_enc_e5m2(f32_bits(1.125f)) == 0x3D);                        // tie goes away from zero
  CHECK(ref_enc_e5m2(f32_bits(3.75f * std::ldexp(1.0f, -16))) == 0x03); // [3.5, 4)·2^-16 -> 3
  CHECK(ref_enc_e5m2(f32_bits(61440.0f)) == 0x7C);
  CHECK(ref_enc_e5m2(f32_bits(std::nextafter(61440.0f, 0.0f))) == 0x7B);
  compare_all(inputs(), enc_e5m2, ref_enc_e5m2);
}
