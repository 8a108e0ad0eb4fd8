#include "runtime/tensor/float_round.h"

#include "runtime/scalar/widen.h"

#include <cmath>

namespace tujit::runtime {

namespace {

// A binary format: `mant` fraction bits, exponent bias, whether the all-ones exponent is
// reserved for inf/NaN (IEEE-like) or, as in f8e4m3 "fn", only the single code S.1111.111 is NaN.
struct Format {
  int exp_bits;
  int mant;
  int bias;
  bool ieee_specials;
  std::uint32_t nan_code;
};

Format format_of(ir::ScalarType t) {
  const ir::FloatFormat& f = ir::info(t).format;
  return {f.exponent_bits, f.fraction_bits, f.bias, f.specials == ir::FloatSpecials::Ieee,
          f.nan_code};
}

} // namespace

double max_finite(ir::ScalarType t) {
  return static_cast<double>(f32_from_bits(widen_bits(t, ir::info(t).format.max_finite_code)));
}

FloatRounding round_double_to(ir::ScalarType t, double x) {
  Format f = format_of(t);
  const std::uint32_t sign = std::signbit(x) ? 1u << (f.exp_bits + f.mant) : 0u;
  const std::uint32_t exp_field_max = (1u << f.exp_bits) - 1;
  if (std::isnan(x)) return {FloatRounding::Status::Ok, f.nan_code};
  if (std::isinf(x)) {
    if (!f.ieee_specials) return {FloatRounding::Status::NotRepresentable, 0};
    return {FloatRounding::Status::Ok, sign | (exp_field_max << f.mant)};
  }
  double a = std::fabs(x);
  if (a == 0.0) return {FloatRounding::Status::Ok, sign};
  const int min_exp = 1 - f.bias; // exponent of the smallest normal
  int e = std::ilogb(a);
  if (e < min_exp) e = min_exp; // subnormal range: fixed quantum 2^(min_exp - mant)
  // a / quantum is exact (a power-of-two scaling of a double far from the limits); nearbyint
  // rounds it to nearest even in the default rounding mode, which simulation code never changes.
  double n = std::nearbyint(std::ldexp(a, f.mant - e));
  double r = std::ldexp(n, e - f.mant);
  if (r > max_finite(t)) return {FloatRounding::Status::Overflow, 0};
  if (r == 0.0) return {FloatRounding::Status::Ok, sign};
  std::uint32_t code;
  if (r < std::ldexp(1.0, min_exp)) {
    code = static_cast<std::uint32_t>(std::ldexp(r, f.mant - min_exp)); // subnormal digits
  } else {
    int re = std::ilogb(r); // may be e + 1 after a carry
    auto frac = static_cast<std::uint32_t>(std::ldexp(r, f.mant - re)) - (1u << f.mant);
    code = (static_cast<std::uint32_t>(re + f.bias) << f.mant) | frac;
  }
  return {FloatRounding::Status::Ok, sign | code};
}

} // namespace tujit::runtime
