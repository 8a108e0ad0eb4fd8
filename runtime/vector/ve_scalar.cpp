#include "runtime/vector/ve_scalar.h"

#include "runtime/scalar/fixed_point.h"

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
std::uint32_t bits(float f) {
  return canonical(std::bit_cast<std::uint32_t>(f));
}
bool is_nan(std::uint32_t x) {
  return (x & 0x7FFFFFFFu) > 0x7F800000u;
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
std::uint32_t u32(std::int32_t x) {
  return std::bit_cast<std::uint32_t>(x);
}
std::uint32_t u32(std::int64_t x) {
  return static_cast<std::uint32_t>(x);
} // wraps mod 2^32

std::int32_t saturate(std::int64_t v) {
  constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
  return static_cast<std::int32_t>(v < lo ? lo : v > hi ? hi : v);
}

std::uint32_t shift(std::uint32_t b) {
  return b & 31u;
} // Rust release `<<`: amount mod 32

/// i32 `abs` as the reference computes it (wrapping: |MIN| stays MIN).
std::int32_t wrapping_abs(std::int32_t a) {
  return a < 0 ? s32(0u - static_cast<std::uint32_t>(a)) : a;
}

/// IEEE minNum / maxNum with −0 < +0.
std::uint32_t min_max(bool max, std::uint32_t a, std::uint32_t b) {
  if (is_nan(a) && is_nan(b)) return kCanonicalNaN;
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  const float fa = as_float(a), fb = as_float(b);
  if (fa == fb) { // equal values; only the sign of a zero can differ
    const bool a_neg = (a >> 31) != 0;
    return (a_neg != max) ? a : b;
  }
  return (fa < fb) != max ? a : b;
}

} // namespace

std::uint32_t fp_unary(FpUnaryOp op, std::uint32_t x) {
  if (is_nan(x)) return kCanonicalNaN;
  const float f = as_float(x);
  switch (op) {
  case FpUnaryOp::Sqrt:
    return bits(std::sqrt(f));
  case FpUnaryOp::Sigmoid: {
    // The reference's 1.0 / (1.0 + (-x).exp()) in binary32.
    const float e = correctly_rounded(FpUnaryOp::Exp, -f);
    const float d = 1.0f + e;
    return bits(1.0f / d);
  }
  default:
    return bits(correctly_rounded(op, f));
  }
}

std::uint32_t fp_binary(ir::FpBinaryOp op, std::uint32_t a, std::uint32_t b) {
  const float x = as_float(a), y = as_float(b);
  switch (op) {
  case ir::FpBinaryOp::AddF:
    return bits(x + y);
  case ir::FpBinaryOp::SubF:
    return bits(x - y);
  case ir::FpBinaryOp::MulF:
    return bits(x * y);
  case ir::FpBinaryOp::DivF:
    return bits(x / y);
  }
  return kCanonicalNaN;
}

std::uint32_t fp_fma(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  return bits(std::fma(as_float(a), as_float(b), as_float(c)));
}

std::uint32_t fxp_binary(ir::FxpBinaryOp op, std::uint32_t ua, std::uint32_t ub) {
  const std::int64_t a = s32(ua), b = s32(ub);
  switch (op) {
  case ir::FxpBinaryOp::AddFxp:
    return u32(a + b);
  case ir::FxpBinaryOp::AddFxpSat:
    return u32(saturate(a + b));
  case ir::FxpBinaryOp::SubFxp:
    return u32(a - b);
  case ir::FxpBinaryOp::SubFxpSat:
    return u32(saturate(a - b));
  case ir::FxpBinaryOp::LeftShift:
    return ua << shift(ub);
  case ir::FxpBinaryOp::LeftShiftSat:
    // a.saturating_mul(1 << b): 1 << 31 wraps to i32::MIN, as the reference's release build.
    return u32(saturate(a * s32(1u << shift(ub))));
  case ir::FxpBinaryOp::MulFxp:
    // Q31 product rounded half up: ((a·b >> 30) + 1) >> 1; MIN·MIN saturates to MAX.
    if (ua == 0x80000000u && ub == 0x80000000u) return 0x7FFFFFFFu;
    return u32((((a * b) >> 30) + 1) >> 1);
  case ir::FxpBinaryOp::MulInt:
    return u32(a * b);
  case ir::FxpBinaryOp::LogicRightShift:
    return ua >> shift(ub);
  case ir::FxpBinaryOp::ArithRightShift:
    return u32(static_cast<std::int32_t>(a) >> shift(ub));
  case ir::FxpBinaryOp::ArithRightShiftRound:
    break; // refused by the front end: the reference leaves it undefined
  }
  return 0;
}

std::uint32_t logic_binary(ir::LogicBinaryOp op, std::uint32_t a, std::uint32_t b) {
  switch (op) {
  case ir::LogicBinaryOp::BitAnd:
    return a & b;
  case ir::LogicBinaryOp::BitOr:
    return a | b;
  case ir::LogicBinaryOp::BitXor:
    return a ^ b;
  case ir::LogicBinaryOp::LeftShift:
    return a << shift(b);
  case ir::LogicBinaryOp::LogicRightShift:
    return a >> shift(b);
  case ir::LogicBinaryOp::ArithRightShift:
    return u32(s32(a) >> shift(b));
  }
  return 0;
}

std::uint32_t clip_binary(ir::ClipBinaryOp op, bool f32, std::uint32_t a, std::uint32_t b) {
  if (f32) {
    switch (op) {
    case ir::ClipBinaryOp::Add:
      return bits(as_float(a) + as_float(b));
    case ir::ClipBinaryOp::Min:
      return min_max(false, a, b);
    case ir::ClipBinaryOp::Max:
      return min_max(true, a, b);
    case ir::ClipBinaryOp::AbsMin: // if |a| < |b| { a } else { b } (a NaN compares false)
      return canonical(std::fabs(as_float(a)) < std::fabs(as_float(b)) ? a : b);
    case ir::ClipBinaryOp::AbsMax:
      return canonical(std::fabs(as_float(a)) > std::fabs(as_float(b)) ? a : b);
    default:
      return kCanonicalNaN; // i32-only ops: refused by the front end on f32 streams
    }
  }
  const std::int64_t x = s32(a), y = s32(b);
  switch (op) {
  case ir::ClipBinaryOp::AddFxp:
    return u32(x + y);
  case ir::ClipBinaryOp::AddFxpSat:
    return u32(saturate(x + y));
  case ir::ClipBinaryOp::Min:
    return x < y ? a : b;
  case ir::ClipBinaryOp::Max:
    return x > y ? a : b;
  case ir::ClipBinaryOp::AbsMin:
    return wrapping_abs(s32(a)) < wrapping_abs(s32(b)) ? a : b;
  case ir::ClipBinaryOp::AbsMax:
    return wrapping_abs(s32(a)) > wrapping_abs(s32(b)) ? a : b;
  case ir::ClipBinaryOp::Add:
    break;
  }
  return 0;
}

std::uint32_t apply_call(const ir::VectorCall& call, ir::ScalarType dtype, std::uint32_t v) {
  using K = ir::VectorCallKind;
  std::uint32_t x = 0, y = 0;
  apply_mode(call.mode, v, call.operand[0], x, y);
  switch (call.kind) {
  case K::FpUnary:
    return fp_unary(std::get<ir::FpUnaryOp>(call.op), v);
  case K::FpBinary:
  case K::FpDiv:
    return fp_binary(std::get<ir::FpBinaryOp>(call.op), x, y);
  case K::FpTernary: // TernaryArgMode::Mode012: stream · operand0 + operand1
    return fp_fma(v, call.operand[0], call.operand[1]);
  case K::Fxp:
    return fxp_binary(std::get<ir::FxpBinaryOp>(call.op), x, y);
  case K::Logic:
    return logic_binary(std::get<ir::LogicBinaryOp>(call.op), x, y);
  case K::Clip:
    return clip_binary(std::get<ir::ClipBinaryOp>(call.op), dtype == ir::ScalarType::F32, x, y);
  case K::FxpToFp:
    return fxp_to_f32(s32(v), call.int_width);
  case K::FpToFxp:
    return u32(f32_to_fxp(v, call.int_width));
  default:
    return v; // init, tag, narrow / widen, reinterpret, final: the bits stay
  }
}

std::uint32_t apply_pass(const ir::seq::VectorProgram& p, std::uint32_t v) {
  for (const ir::seq::VectorStepIR& st : p.steps) v = apply_call(st.call, st.dtype, v);
  return v;
}

} // namespace tujit::runtime::vector
