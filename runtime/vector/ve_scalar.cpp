#include "runtime/vector/ve_scalar.h"

#include "runtime/vector/ve_semantics.h"

#include <boost/math/special_functions/erf.hpp>
#include <boost/multiprecision/cpp_bin_float.hpp>

#include <bit>
#include <cmath>
#include <limits>

namespace tujit::runtime::vector {

namespace {

using ir::FpUnaryOp;

float as_float(std::uint32_t x) {
  return std::bit_cast<float>(x);
}

/// 332 bits (100 decimal digits): far beyond any binary32 rounding boundary, and enough for the
/// argument reduction of sin / cos at |x| < 2^128.
using Wide = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<100>>;

double eval_double(FpUnaryOp op, double x) {
  switch (op) {
  case FpUnaryOp::Exp:
    return std::exp(x);
  case FpUnaryOp::NegExp:
    return std::exp(-x);
  case FpUnaryOp::Tanh:
    return std::tanh(x);
  case FpUnaryOp::Erf:
    return std::erf(x);
  case FpUnaryOp::Log:
    return std::log(x);
  case FpUnaryOp::Sin:
    return std::sin(x);
  case FpUnaryOp::Cos:
    return std::cos(x);
  default:
    return std::numeric_limits<double>::quiet_NaN();
  }
}

Wide eval_wide(FpUnaryOp op, const Wide& x) {
  switch (op) {
  case FpUnaryOp::Exp:
    return exp(x);
  case FpUnaryOp::NegExp:
    return exp(-x);
  case FpUnaryOp::Tanh:
    return tanh(x);
  case FpUnaryOp::Erf:
    return boost::math::erf(x);
  case FpUnaryOp::Log:
    return log(x);
  case FpUnaryOp::Sin:
    return sin(x);
  case FpUnaryOp::Cos:
    return cos(x);
  default:
    return Wide(0);
  }
}

/// The binary32 nearest to `v` (ties to even), `v` finite: the candidates around the float64
/// approximation are compared with `v` exactly (every binary32 and every midpoint of two is a
/// Wide value).
float round_to_f32(const Wide& v) {
  const float guess = static_cast<float>(v.convert_to<double>());
  float best = guess;
  Wide best_dist = abs(v - Wide(guess));
  for (float c : {std::nextafter(guess, -std::numeric_limits<float>::infinity()),
                  std::nextafter(guess, std::numeric_limits<float>::infinity())}) {
    if (!std::isfinite(c)) continue;
    const Wide d = abs(v - Wide(c));
    const bool even = (std::bit_cast<std::uint32_t>(c) & 1u) == 0;
    if (d < best_dist || (d == best_dist && even)) {
      best = c;
      best_dist = d;
    }
  }
  // Past the largest finite binary32 by at least half an ulp: the overflow rounds to infinity.
  const Wide max_f = Wide(std::numeric_limits<float>::max());
  const Wide half_ulp = Wide(std::ldexp(1.0, 127 - 24));
  if (abs(v) >= max_f + half_ulp)
    return v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
  return best;
}

/// Correctly rounded f(x) for the transcendental ops. The float64 libm value `y` is within a few
/// ulp of the exact value (glibc documents ≤ 2 ulp for these functions; 16 are allowed here): when
/// every value within that bound rounds to the same binary32, so does the exact value.
float correctly_rounded(FpUnaryOp op, float x) {
  const double y = eval_double(op, static_cast<double>(x));
  if (std::isnan(y)) return std::numeric_limits<float>::quiet_NaN();
  if (std::isinf(y) || y == 0.0) {
    // An exact special value (exp(±inf), log(0), tanh(-0) …) or a float64 overflow / underflow
    // far beyond the binary32 range: its binary32 rounding is the same.
    return static_cast<float>(y);
  }
  const double bound = 16.0 * std::ldexp(1.0, std::ilogb(y) - 52); // 16 ulp of y
  const double lo = y - bound, hi = y + bound;
  const float flo = static_cast<float>(lo), fhi = static_cast<float>(hi);
  if (std::bit_cast<std::uint32_t>(flo) == std::bit_cast<std::uint32_t>(fhi)) return flo;
  return round_to_f32(eval_wide(op, Wide(x)));
}

std::int32_t s32(std::uint32_t x) {
  return std::bit_cast<std::int32_t>(x);
}

/// ve_semantics.h's backend on plain C++ scalars: each primitive is the C++ operation with the
/// LLVM instruction's meaning (wrapping u32 arithmetic, IEEE binary32 / binary64 under the
/// default rounding mode, -ffp-contract=off).
struct Scalar {
  using V = std::uint32_t;
  using W = std::int64_t;
  using F = float;
  using D = double;
  using Bool = bool;
  V k(std::uint32_t v) { return v; }
  W k64(std::int64_t v) { return v; }
  D kd(double v) { return v; }
  V add(V a, V b) { return a + b; }
  V sub(V a, V b) { return a - b; }
  V mul(V a, V b) { return a * b; }
  V band(V a, V b) { return a & b; }
  V bor(V a, V b) { return a | b; }
  V bxor(V a, V b) { return a ^ b; }
  V shl(V a, V n) { return a << n; }
  V lshr(V a, V n) { return a >> n; }
  V ashr(V a, V n) { return std::bit_cast<V>(s32(a) >> n); }
  Bool slt(V a, V b) { return s32(a) < s32(b); }
  Bool sgt(V a, V b) { return s32(a) > s32(b); }
  Bool eq(V a, V b) { return a == b; }
  Bool ult(V a, V b) { return a < b; }
  Bool ugt(V a, V b) { return a > b; }
  V select(Bool c, V a, V b) { return c ? a : b; }
  Bool bnot(Bool c) { return !c; }
  Bool band_b(Bool a, Bool b) { return a && b; }
  W sext(V a) { return s32(a); }
  V trunc(W w) { return static_cast<V>(w); }
  W add64(W a, W b) { return a + b; } // operands are sign-extended i32: no overflow
  W sub64(W a, W b) { return a - b; }
  W mul64(W a, W b) { return a * b; }
  W ashr64(W a, int n) { return a >> n; }
  Bool slt64(W a, W b) { return a < b; }
  Bool sgt64(W a, W b) { return a > b; }
  W select64(Bool c, W a, W b) { return c ? a : b; }
  F as_f(V v) { return std::bit_cast<F>(v); }
  V as_v(F f) { return std::bit_cast<V>(f); }
  F fadd(F a, F b) { return a + b; }
  F fsub(F a, F b) { return a - b; }
  F fmul(F a, F b) { return a * b; }
  F fdiv(F a, F b) { return a / b; }
  F fma(F a, F b, F c) { return std::fma(a, b, c); }
  F sqrt(F a) { return std::sqrt(a); }
  F fabs(F a) { return std::fabs(a); }
  Bool flt(F a, F b) { return a < b; }
  Bool fgt(F a, F b) { return a > b; }
  Bool feq(F a, F b) { return a == b; }
  Bool is_nan(F a) { return std::isnan(a); }
  F sitofp(V v) { return static_cast<F>(s32(v)); }
  D fpext(F f) { return f; }
  D dmul(D a, D b) { return a * b; }
  Bool doge(D a, D b) { return a >= b; }
  Bool dole(D a, D b) { return a <= b; }
  D select_d(Bool c, D a, D b) { return c ? a : b; }
  D dround(D d) { return std::round(d); }
  V fptosi(D d) { return std::bit_cast<V>(static_cast<std::int32_t>(d)); }
  V transcendental(FpUnaryOp op, V x) { return correctly_rounded_bits(op, x); }
};

} // namespace

std::uint32_t correctly_rounded_bits(FpUnaryOp op, std::uint32_t x) {
  return canonical(std::bit_cast<std::uint32_t>(correctly_rounded(op, as_float(x))));
}

std::uint32_t fp_unary(FpUnaryOp op, std::uint32_t x) {
  Scalar b;
  return semantics::fp_unary(b, op, x);
}

std::uint32_t fp_binary(ir::FpBinaryOp op, std::uint32_t a, std::uint32_t b) {
  Scalar s;
  return semantics::fp_binary(s, op, a, b);
}

std::uint32_t fxp_binary(ir::FxpBinaryOp op, std::uint32_t a, std::uint32_t b) {
  Scalar s;
  return semantics::fxp_binary(s, op, a, b);
}

std::uint32_t clip_binary(ir::ClipBinaryOp op, bool f32, std::uint32_t a, std::uint32_t b) {
  Scalar s;
  return semantics::clip_binary(s, op, f32, a, b);
}

std::uint32_t fxp_to_f32(std::int32_t v, std::uint32_t iw) {
  Scalar s;
  return semantics::fxp_to_fp(s, std::bit_cast<std::uint32_t>(v), iw);
}

std::int32_t f32_to_fxp(std::uint32_t x, std::uint32_t iw) {
  Scalar s;
  return std::bit_cast<std::int32_t>(semantics::fp_to_fxp(s, x, iw));
}

std::uint32_t apply_call(const ir::VectorCall& call, ir::ScalarType dtype, std::uint32_t v) {
  Scalar b;
  return semantics::apply_call(b, call, dtype == ir::ScalarType::F32, v, call.operand[0],
                               call.operand[1]);
}

std::uint32_t apply_pass(const ir::seq::VectorProgram& p, std::uint32_t v,
                         std::span<const std::uint32_t> vrf) {
  Scalar b;
  return semantics::apply_steps(b, p.steps, v, [&](std::size_t j) { return vrf[j]; });
}

} // namespace tujit::runtime::vector
