// The numerics of the Vector Engine ops (runtime/vector/ve_scalar.h, docs/vector-engine.md),
// against independent computations: the transcendental functions against a 332-bit evaluation
// (Boost.Multiprecision, no libm) rounded to binary32 here; Sqrt against the float64 square root
// rounded once (exact: float64 has more than 2·24 + 2 bits); the integer ops against values
// worked by hand from the reference's definitions (furiosa-opt-std engine/vector/op/
// semantics.rs).
#include "runtime/vector/ve_scalar.h"

#include <boost/math/special_functions/erf.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

using namespace tujit;
using runtime::vector::fp_unary;
using Wide = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<120>>;

namespace {

std::uint32_t b(float f) {
  return std::bit_cast<std::uint32_t>(f);
}
float f(std::uint32_t x) {
  return std::bit_cast<float>(x);
}

/// The binary32 nearest to v, ties to even, by scanning the float grid around v's float64 value.
float nearest(const Wide& v) {
  const double d = v.convert_to<double>();
  if (std::isinf(d) || std::fabs(d) > 3.5e38) return d > 0 ? INFINITY : -INFINITY;
  float best = static_cast<float>(d);
  Wide best_d = abs(v - Wide(best));
  float c = best;
  for (int k = 0; k < 2; ++k) c = std::nextafter(c, -INFINITY);
  for (int k = 0; k < 5; ++k, c = std::nextafter(c, INFINITY)) {
    if (!std::isfinite(c)) continue;
    const Wide dc = abs(v - Wide(c));
    if (dc < best_d || (dc == best_d && (b(c) & 1u) == 0)) {
      best = c;
      best_d = dc;
    }
  }
  return best;
}

Wide exact(ir::FpUnaryOp op, float x) {
  const Wide w(x);
  switch (op) {
  case ir::FpUnaryOp::Exp:
    return exp(w);
  case ir::FpUnaryOp::NegExp:
    return exp(-w);
  case ir::FpUnaryOp::Tanh:
    return tanh(w);
  case ir::FpUnaryOp::Erf:
    return boost::math::erf(w);
  case ir::FpUnaryOp::Log:
    return log(w);
  case ir::FpUnaryOp::Sin:
    return sin(w);
  case ir::FpUnaryOp::Cos:
    return cos(w);
  default:
    return w;
  }
}

} // namespace

TEST_CASE("VE transcendental ops are correctly rounded", "[vector][numerics]") {
  using ir::FpUnaryOp;
  std::mt19937 rng(20260401);
  struct Range {
    FpUnaryOp op;
    float lo, hi;
  };
  // Ranges where the results are finite and non-trivial (the tails are checked below).
  const Range ranges[] = {{FpUnaryOp::Exp, -100, 88},      {FpUnaryOp::NegExp, -88, 100},
                          {FpUnaryOp::Tanh, -12, 12},      {FpUnaryOp::Erf, -5, 5},
                          {FpUnaryOp::Log, 1e-30f, 1e30f}, {FpUnaryOp::Sin, -1e4f, 1e4f},
                          {FpUnaryOp::Cos, -1e4f, 1e4f}};
  for (const Range& r : ranges) {
    INFO(ir::to_string(r.op));
    std::uniform_real_distribution<float> dist(r.lo, r.hi);
    std::size_t wrong = 0;
    for (int i = 0; i < 200; ++i) {
      float x = dist(rng);
      if (r.op == FpUnaryOp::Log) x = std::exp(std::uniform_real_distribution<float>(-69, 69)(rng));
      const std::uint32_t got = fp_unary(r.op, b(x));
      const float want = nearest(exact(r.op, x));
      if (got != b(want)) {
        ++wrong;
        UNSCOPED_INFO("x = " << x << " (" << b(x) << "): got " << f(got) << ", want " << want);
      }
    }
    CHECK(wrong == 0);
  }
  // Special values (IEEE 754 recommended operations).
  CHECK(fp_unary(FpUnaryOp::Exp, b(0.0f)) == b(1.0f));
  CHECK(fp_unary(FpUnaryOp::Exp, b(-INFINITY)) == b(0.0f));
  CHECK(fp_unary(FpUnaryOp::Exp, b(INFINITY)) == b(INFINITY));
  CHECK(fp_unary(FpUnaryOp::Exp, b(100.0f)) == b(INFINITY)); // overflow
  CHECK(fp_unary(FpUnaryOp::Log, b(0.0f)) == b(-INFINITY));
  CHECK(fp_unary(FpUnaryOp::Log, b(-1.0f)) == runtime::vector::kCanonicalNaN);
  CHECK(fp_unary(FpUnaryOp::Tanh, b(-0.0f)) == b(-0.0f));
  CHECK(fp_unary(FpUnaryOp::Erf, b(INFINITY)) == b(1.0f));
  CHECK(fp_unary(FpUnaryOp::Sin, b(-0.0f)) == b(-0.0f));
  CHECK(fp_unary(FpUnaryOp::Cos, b(INFINITY)) == runtime::vector::kCanonicalNaN);
  // Any NaN input gives the canonical NaN.
  for (FpUnaryOp op : {FpUnaryOp::Exp, FpUnaryOp::Sqrt, FpUnaryOp::Sigmoid, FpUnaryOp::Cos})
    CHECK(fp_unary(op, 0xFFA00001u) == runtime::vector::kCanonicalNaN);
}

TEST_CASE("VE Sqrt is the correctly rounded IEEE square root", "[vector][numerics]") {
  std::mt19937 rng(17);
  std::size_t wrong = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::uint32_t x = rng() & 0x7FFFFFFFu; // non-negative, subnormals and inf included
    const float want = static_cast<float>(std::sqrt(static_cast<double>(f(x))));
    const std::uint32_t w = std::isnan(want) ? runtime::vector::kCanonicalNaN : b(want);
    wrong += runtime::vector::fp_unary(ir::FpUnaryOp::Sqrt, x) != w;
  }
  CHECK(wrong == 0);
  CHECK(fp_unary(ir::FpUnaryOp::Sqrt, b(-0.0f)) == b(-0.0f));
  CHECK(fp_unary(ir::FpUnaryOp::Sqrt, b(-4.0f)) == runtime::vector::kCanonicalNaN);
  CHECK(fp_unary(ir::FpUnaryOp::Sqrt, b(2.25f)) == b(1.5f));
}

TEST_CASE("VE Sigmoid is the reference's formula in binary32 steps", "[vector][numerics]") {
  using ir::FpUnaryOp;
  CHECK(fp_unary(FpUnaryOp::Sigmoid, b(0.0f)) == b(0.5f));
  CHECK(fp_unary(FpUnaryOp::Sigmoid, b(-100.0f)) == b(0.0f)); // 1 / (1 + inf)
  CHECK(fp_unary(FpUnaryOp::Sigmoid, b(100.0f)) == b(1.0f));  // 1 / (1 + 3.7e-44)
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-30, 30);
  for (int i = 0; i < 200; ++i) {
    const float x = dist(rng);
    const float e = f(fp_unary(FpUnaryOp::Exp, b(-x)));
    const float d = 1.0f + e;
    CHECK(fp_unary(FpUnaryOp::Sigmoid, b(x)) == b(1.0f / d));
  }
}

TEST_CASE("VE integer and clip ops follow the reference's definitions", "[vector][numerics]") {
  using runtime::vector::clip_binary;
  using runtime::vector::fxp_binary;
  using F = ir::FxpBinaryOp;
  auto u = [](std::int32_t v) { return static_cast<std::uint32_t>(v); };
  const std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  const std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  CHECK(fxp_binary(F::AddFxp, u(kMax), 1) == u(kMin));    // wraps
  CHECK(fxp_binary(F::AddFxpSat, u(kMax), 1) == u(kMax)); // saturates
  CHECK(fxp_binary(F::SubFxpSat, u(kMin), 1) == u(kMin));
  CHECK(fxp_binary(F::MulFxp, u(1 << 30), u(1 << 30)) == u(1 << 29)); // 0.5 · 0.5 in Q31
  CHECK(fxp_binary(F::MulFxp, u(kMin), u(kMin)) == u(kMax));          // the lone overflow
  CHECK(fxp_binary(F::MulFxp, 3, u(1 << 30)) == 2);                   // 1.5 rounds half up
  CHECK(fxp_binary(F::MulFxp, u(-3), u(1 << 30)) == u(-1));           // -1.5 → -1 (half up)
  CHECK(fxp_binary(F::LeftShiftSat, u(1 << 30), 1) == u(kMax));
  CHECK(fxp_binary(F::LeftShiftSat, u(-(1 << 30)), 1) == u(kMin));
  CHECK(fxp_binary(F::LeftShift, 1, 33) == 2); // amount mod 32
  CHECK(fxp_binary(F::ArithRightShift, u(-8), 1) == u(-4));
  CHECK(fxp_binary(F::LogicRightShift, u(-8), 28) == 0xFu);
  CHECK(fxp_binary(F::MulInt, u(65536), u(65536)) == 0u); // wraps
  using C = ir::ClipBinaryOp;
  CHECK(clip_binary(C::AbsMax, false, u(-5), 4) == u(-5));
  CHECK(clip_binary(C::AbsMin, false, u(kMin), 1) == u(kMin)); // |MIN| wraps to MIN < 1
  CHECK(clip_binary(C::Min, true, b(-0.0f), b(0.0f)) == b(-0.0f));
  CHECK(clip_binary(C::Max, true, b(-0.0f), b(0.0f)) == b(0.0f));
  CHECK(clip_binary(C::Max, true, 0x7FC00000u, b(2.0f)) == b(2.0f)); // maxNum
  CHECK(clip_binary(C::AbsMax, true, b(-3.0f), b(2.0f)) == b(-3.0f));
}
