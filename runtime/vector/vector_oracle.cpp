#include "runtime/vector/vector_oracle.h"

#include <bit>
#include <cmath>
#include <limits>
#include <optional>

namespace tujit::runtime::vector {

namespace {

using ir::ScalarType;
using ir::VectorCallKind;

constexpr double kMinI32 = -2147483648.0, kMaxI32 = 2147483647.0;

double f32_value(std::uint32_t b) {
  return static_cast<double>(std::bit_cast<float>(b));
}
double i32_value(std::uint32_t b) {
  return static_cast<double>(std::bit_cast<std::int32_t>(b));
}

std::int64_t wrap32(std::int64_t v) {
  return static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
}
double sat32(double v) {
  return v < kMinI32 ? kMinI32 : v > kMaxI32 ? kMaxI32 : v;
}

/// The 32 bits an element holds when a call reads its bits (reinterpret, logic ops).
std::uint32_t bits_of(double v, ScalarType t) {
  if (t == ScalarType::F32) return std::bit_cast<std::uint32_t>(static_cast<float>(v));
  return static_cast<std::uint32_t>(static_cast<std::int64_t>(v));
}
double value_of(std::uint32_t b, ScalarType t) {
  return t == ScalarType::F32 ? f32_value(b) : i32_value(b);
}

double fp_unary(ir::FpUnaryOp op, double x) {
  switch (op) {
  case ir::FpUnaryOp::Exp:
    return std::exp(x);
  case ir::FpUnaryOp::NegExp:
    return std::exp(-x);
  case ir::FpUnaryOp::Sqrt:
    return std::sqrt(x);
  case ir::FpUnaryOp::Tanh:
    return std::tanh(x);
  case ir::FpUnaryOp::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case ir::FpUnaryOp::Erf:
    return std::erf(x);
  case ir::FpUnaryOp::Log:
    return std::log(x);
  case ir::FpUnaryOp::Sin:
    return std::sin(x);
  case ir::FpUnaryOp::Cos:
    return std::cos(x);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

double fxp(ir::FxpBinaryOp op, double a, double b) {
  const auto x = static_cast<std::int64_t>(a), y = static_cast<std::int64_t>(b);
  const auto sh = static_cast<unsigned>(y & 31);
  switch (op) {
  case ir::FxpBinaryOp::AddFxp:
    return static_cast<double>(wrap32(x + y));
  case ir::FxpBinaryOp::AddFxpSat:
    return sat32(a + b);
  case ir::FxpBinaryOp::SubFxp:
    return static_cast<double>(wrap32(x - y));
  case ir::FxpBinaryOp::SubFxpSat:
    return sat32(a - b);
  case ir::FxpBinaryOp::LeftShift:
    return static_cast<double>(wrap32(x * (std::int64_t{1} << sh)));
  case ir::FxpBinaryOp::LeftShiftSat:
    return sat32(a * (sh == 31 ? kMinI32 : std::ldexp(1.0, static_cast<int>(sh))));
  case ir::FxpBinaryOp::MulFxp: // Q31: a·b / 2^31, half up; the lone overflow MIN·MIN saturates
    return sat32(std::floor(a * b / 2147483648.0 + 0.5));
  case ir::FxpBinaryOp::MulInt:
    return static_cast<double>(wrap32(x * y));
  case ir::FxpBinaryOp::LogicRightShift:
    return static_cast<double>(wrap32(static_cast<std::uint32_t>(x) >> sh));
  case ir::FxpBinaryOp::ArithRightShift:
    return std::floor(a / std::ldexp(1.0, static_cast<int>(sh)));
  case ir::FxpBinaryOp::ArithRightShiftRound:
    break;
  }
  return 0;
}

double clip(ir::ClipBinaryOp op, bool f32, double a, double b) {
  switch (op) {
  case ir::ClipBinaryOp::Min:
    return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b);
  case ir::ClipBinaryOp::Max:
    return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b);
  case ir::ClipBinaryOp::AbsMin:
  case ir::ClipBinaryOp::AbsMax: {
    // i32 compares wrapping absolute values: |MIN| is MIN, below every other (docs/vector-engine.md
    // §3); f32 the magnitudes.
    const auto magnitude = [f32](double v) { return !f32 && v == kMinI32 ? v : std::fabs(v); };
    const bool first =
        op == ir::ClipBinaryOp::AbsMin ? magnitude(a) < magnitude(b) : magnitude(a) > magnitude(b);
    return first ? a : b;
  }
  case ir::ClipBinaryOp::AddFxp:
    return static_cast<double>(wrap32(static_cast<std::int64_t>(a + b)));
  case ir::ClipBinaryOp::AddFxpSat:
    return sat32(a + b);
  case ir::ClipBinaryOp::Add:
    return f32 ? a + b : a;
  }
  return a;
}

double logic(ir::LogicBinaryOp op, std::uint32_t a, std::uint32_t b) {
  const unsigned sh = b & 31;
  switch (op) {
  case ir::LogicBinaryOp::BitAnd:
    return static_cast<double>(a & b);
  case ir::LogicBinaryOp::BitOr:
    return static_cast<double>(a | b);
  case ir::LogicBinaryOp::BitXor:
    return static_cast<double>(a ^ b);
  case ir::LogicBinaryOp::LeftShift:
    return static_cast<double>(a << sh);
  case ir::LogicBinaryOp::LogicRightShift:
    return static_cast<double>(a >> sh);
  case ir::LogicBinaryOp::ArithRightShift:
    return static_cast<double>(static_cast<std::uint32_t>(std::bit_cast<std::int32_t>(a) >> sh));
  }
  return 0;
}

/// Whether the call computes a binary32 result.
bool produces_f32(const ir::VectorCall& c, ScalarType dtype) {
  return c.kind == VectorCallKind::FpUnary || c.kind == VectorCallKind::FpBinary ||
         c.kind == VectorCallKind::FpTernary || c.kind == VectorCallKind::FpDiv ||
         (c.kind == VectorCallKind::Clip && dtype == ScalarType::F32) ||
         c.kind == VectorCallKind::FxpToFp;
}

/// Float value calls the chain runs, and whether all are single correctly rounded IEEE ops.
struct FloatCalls {
  int count = 0;
  bool exact = true;
};

FloatCalls float_calls(const ir::seq::VectorProgram& p) {
  FloatCalls f;
  for (const auto& st : p.steps) {
    const ir::VectorCall& c = st.call;
    if (!produces_f32(c, st.dtype)) continue;
    ++f.count;
    const bool ieee = (c.kind == VectorCallKind::FpUnary &&
                       std::get<ir::FpUnaryOp>(c.op) == ir::FpUnaryOp::Sqrt) ||
                      c.kind == VectorCallKind::FpBinary || c.kind == VectorCallKind::FpDiv;
    if (!ieee) f.exact = false;
  }
  if (f.count > 1) f.exact = false; // two roundings: the oracle rounds once
  return f;
}

/// Whether comparison `c` holds for `v` (exact: the stream's value, or a contraction's float64
/// sum): the scalar's order, the `*Unsigned` pair on the binary32 / i32 bits.
bool oracle_compare_one(const ir::VeCmp& c, double v, ScalarType t) {
  const double b = value_of(c.boundary, t);
  switch (c.kind) {
  case ir::CmpKind::Equal:
    return v == b;
  case ir::CmpKind::Less:
    return v < b;
  case ir::CmpKind::Greater:
    return v > b;
  case ir::CmpKind::LessUnsigned:
    return bits_of(v, t) < c.boundary;
  case ir::CmpKind::GreaterUnsigned:
    return bits_of(v, t) > c.boundary;
  case ir::CmpKind::True:
    return true;
  case ir::CmpKind::False:
    break;
  }
  return false;
}

/// The tag of `v`; `bits`, when known, are its exact 32 bits (a NaN's payload does not survive the
/// float64 round trip, and the `*Unsigned` comparisons read it).
std::uint32_t oracle_tag(const ir::TagComparisons& cmps, double v, ScalarType t,
                         std::optional<std::uint32_t> bits) {
  std::uint32_t tag = 0;
  for (unsigned i = 0; i < ir::kTagBits; ++i) {
    const ir::VeCmp& c = cmps[i];
    const bool raw = c.kind == ir::CmpKind::LessUnsigned || c.kind == ir::CmpKind::GreaterUnsigned;
    const bool hit = raw && bits ? (c.kind == ir::CmpKind::LessUnsigned ? *bits < c.boundary
                                                                        : *bits > c.boundary)
                                 : oracle_compare_one(c, v, t);
    if (hit) tag |= 1u << i;
  }
  return tag;
}

/// FmaF's a · b + c with the TernaryArgMode's placement of the stream and the operands.
double oracle_fma(ir::TernaryArgMode mode, double v, double c0, double c1) {
  const double args[3] = {v, c0, c1};
  const auto at = ir::ternary_positions(mode);
  return args[at[0]] * args[at[1]] + args[at[2]];
}

/// One value call in float64 on `v` with operand0 `operand` and operand1 `operand1`. `raw`, when
/// given, holds the stream value's exact bits while it is a NaN whose payload a float64 cannot
/// carry (an input code, or a Logic / Reinterpret result): the bitwise calls read them, and set
/// them for their own NaN results.
double oracle_call(const ir::seq::VectorStepIR& st, double v, double operand, double operand1,
                   std::optional<std::uint32_t>* raw = nullptr) {
  const ir::VectorCall& c = st.call;
  const bool has_raw = raw != nullptr && raw->has_value();
  const std::uint32_t raw_bits = has_raw ? raw->value() : 0;
  if (raw != nullptr) raw->reset();
  const auto stream_bits = [&](double x) {
    return std::isnan(x) && has_raw ? raw_bits : bits_of(x, st.dtype);
  };
  const bool f32 = st.dtype == ScalarType::F32;
  const bool swap = c.mode == ir::BinaryArgMode::Mode10;
  const double x = c.mode == ir::BinaryArgMode::Mode11 ? operand : swap ? operand : v;
  const double y = c.mode == ir::BinaryArgMode::Mode00 ? v : swap ? v : operand;
  switch (c.kind) {
  case VectorCallKind::FpUnary:
    v = fp_unary(std::get<ir::FpUnaryOp>(c.op), v);
    break;
  case VectorCallKind::FpBinary:
  case VectorCallKind::FpDiv:
    switch (std::get<ir::FpBinaryOp>(c.op)) {
    case ir::FpBinaryOp::AddF:
      v = x + y;
      break;
    case ir::FpBinaryOp::SubF:
      v = x - y;
      break;
    case ir::FpBinaryOp::MulF:
      v = x * y;
      break;
    case ir::FpBinaryOp::DivF:
      v = x / y;
      break;
    }
    break;
  case VectorCallKind::FpTernary:
    v = oracle_fma(c.ternary_mode, v, operand, operand1);
    break;
  case VectorCallKind::Fxp:
    v = fxp(std::get<ir::FxpBinaryOp>(c.op), x, y);
    break;
  case VectorCallKind::Clip:
    v = clip(std::get<ir::ClipBinaryOp>(c.op), f32, x, y);
    break;
  case VectorCallKind::Logic: {
    // x / y are the stream's value or the operand's as the mode places them.
    const std::uint32_t bx =
        c.mode == ir::BinaryArgMode::Mode11 || swap ? bits_of(x, st.dtype) : stream_bits(x);
    const std::uint32_t by =
        c.mode == ir::BinaryArgMode::Mode00 || swap ? stream_bits(y) : bits_of(y, st.dtype);
    const auto r = static_cast<std::uint32_t>(logic(std::get<ir::LogicBinaryOp>(c.op), bx, by));
    v = value_of(r, st.dtype);
    if (raw != nullptr && std::isnan(v)) *raw = r;
    break;
  }
  case VectorCallKind::FxpToFp:
    v = std::ldexp(v, -static_cast<int>(31 - c.int_width));
    break;
  case VectorCallKind::FpToFxp: {
    if (std::isnan(v)) {
      v = std::signbit(v) ? kMinI32 : kMaxI32;
      break;
    }
    const double scaled = std::ldexp(v, static_cast<int>(31 - c.int_width));
    v = sat32(std::copysign(std::floor(std::fabs(scaled) + 0.5), scaled));
    break;
  }
  case VectorCallKind::Reinterpret: {
    const ScalarType to = st.dtype == ScalarType::F32 ? ScalarType::I32 : ScalarType::F32;
    const std::uint32_t r = stream_bits(v);
    v = value_of(r, to);
    if (raw != nullptr && std::isnan(v)) *raw = r;
    break;
  }
  default:
    break;
  }
  // Each float step's result is a binary32: past its range it is ±inf, whatever a later step
  // would make of the float64 value (exp(89) then sqrt: inf, not 1.9e19).
  if (produces_f32(c, st.dtype) && std::isfinite(v) && std::isinf(static_cast<float>(v)))
    v = std::copysign(std::numeric_limits<double>::infinity(), v);
  // Below its range it is ±0 (exp(−116) then a division by 0: NaN, not inf).
  if (produces_f32(c, st.dtype) && v != 0 && static_cast<float>(v) == 0) v = std::copysign(0.0, v);
  // A float call's NaN is the canonical quiet NaN, sign clear (§3): its sign is no longer the
  // input's, which an FpToFxp after it reads.
  if (produces_f32(c, st.dtype) && std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  return v;
}

/// A call of pair mode's paired phase on group `k`'s value (docs/vector-engine.md §3.5).
double oracle_group_call(const ir::seq::VectorStepIR& st, double v, std::size_t k) {
  const ir::VectorCall& c = st.call;
  if (!c.groups) return oracle_call(st, v, 0, 0); // a conversion or reinterpret: both groups
  if (!c.groups->runs[k]) return v;
  return oracle_call(st, v, value_of(c.groups->operand[k][0], st.dtype),
                     value_of(c.groups->operand[k][1], st.dtype));
}

/// The chain on `v`; `bits`: the input's exact bits, when the input is a stream element; `group1`:
/// pair mode's group 1 element (the same coordinates, the grouping axis at 1).
double chain(const ir::seq::VectorProgram& p, double v, std::optional<std::uint32_t> bits,
             std::span<const std::uint32_t> vrf, double group1 = 0) {
  std::size_t next_vrf = 0;
  // The exact bits of a NaN value the float64 cannot carry (the input's, while it is one).
  std::optional<std::uint32_t> raw = bits && std::isnan(v) ? bits : std::nullopt;
  double stash = v;      // the element's value at vector_stash() (docs/vector-engine.md §3.3)
  std::uint32_t tag = 0; // the Tag stage's (docs/vector-engine.md §3.4); TagMode::Zero: 0
  bool paired = false;
  for (const auto& st : p.steps) {
    const ir::VectorCall& c = st.call;
    if (c.kind == VectorCallKind::Unzip) {
      paired = true;
      continue;
    }
    if (paired) {
      // The zip: op(x, y) of the two groups, its mode placing group 0 as `0`, group 1 as `1`.
      if (c.zip) {
        v = oracle_call(st, v, group1, 0);
        paired = false;
      } else {
        v = oracle_group_call(st, v, 0);
        group1 = oracle_group_call(st, group1, 1);
      }
      continue;
    }
    if (c.kind == VectorCallKind::Stash) {
      stash = v;
      continue;
    }
    if (c.kind == VectorCallKind::Tag) {
      if (c.comparisons) tag = oracle_tag(*c.comparisons, v, st.dtype, bits);
      continue;
    }
    const double operand = c.reads_stash()
                               ? stash
                               : value_of(c.reads_vrf() ? vrf[next_vrf++] : c.operand[0], st.dtype);
    if (c.branches) {
      // The first slot whose guard admits the tag; none: the element keeps its value.
      const ir::VeBranches& b = *c.branches;
      const ir::VeSlot* slot = nullptr;
      for (const ir::VeSlot& s : b.imm)
        if (!slot && s.guard.admits(tag)) slot = &s;
      if (slot)
        v = oracle_call(st, v, value_of(slot->operand[0], st.dtype),
                        value_of(slot->operand[1], st.dtype), &raw);
      else if (b.rf && b.rf_guard.admits(tag))
        v = oracle_call(st, v, operand, value_of(b.rf_operand1, st.dtype), &raw);
    } else if (c.guard.admits(tag)) {
      v = oracle_call(st, v, operand, value_of(c.operand[1], st.dtype), &raw);
    }
  }
  return v;
}

} // namespace

double oracle_chain(const ir::seq::VectorProgram& p, std::uint32_t input_bits,
                    std::span<const std::uint32_t> vrf) {
  return chain(p, value_of(input_bits, p.in_type), input_bits, vrf);
}

double oracle_pair_chain(const ir::seq::VectorProgram& p, std::uint32_t group0_bits,
                         std::uint32_t group1_bits, std::span<const std::uint32_t> vrf) {
  return chain(p, value_of(group0_bits, p.in_type), group0_bits, vrf,
               value_of(group1_bits, p.in_type));
}

double oracle_chain_value(const ir::seq::VectorProgram& p, double v,
                          std::span<const std::uint32_t> vrf) {
  return chain(p, v, std::nullopt, vrf);
}

OracleCheck oracle_compare(const ir::seq::VectorProgram& p, double expected, std::uint32_t actual) {
  OracleCheck r;
  const FloatCalls fc = float_calls(p);
  if (p.out_type != ScalarType::F32) {
    const double got = i32_value(actual);
    r.abs_err = std::fabs(got - expected);
    // After binary32 steps (FxpToFp … FpToFxp) the integer carries their rounding: the float
    // calls' relative bound in integer units, and the final conversion's ±1.
    const double per_call = std::ldexp(std::fabs(expected), -16);
    r.ok = r.abs_err <= (fc.count > 0 ? 1.0 + per_call * fc.count : 0.0);
    return r;
  }
  const float want = static_cast<float>(expected);
  const float got = std::bit_cast<float>(actual);
  if (std::isnan(expected) || std::isnan(got)) {
    r.ok = std::isnan(expected) && std::isnan(got);
    r.abs_err = r.ok ? 0 : std::numeric_limits<double>::infinity();
    return r;
  }
  if (fc.exact) {
    r.ok = std::bit_cast<std::uint32_t>(want) == actual;
    r.abs_err = r.ok ? 0 : std::fabs(static_cast<double>(got) - expected);
    return r;
  }
  if (std::isinf(got) || std::isinf(expected)) {
    r.ok = std::isinf(got) && std::isinf(static_cast<double>(want)) && (got > 0) == (want > 0);
    r.abs_err = r.ok ? 0 : std::numeric_limits<double>::infinity();
    return r;
  }
  r.abs_err = std::fabs(static_cast<double>(got) - expected);
  const double ulp = std::fabs(static_cast<double>(std::nextafter(want, INFINITY)) - want);
  const double per_call = std::max(ulp, std::ldexp(std::fabs(expected), -16));
  r.ok = r.abs_err <= per_call * std::max(1, fc.count);
  return r;
}

double oracle_tolerance(const ir::seq::VectorProgram& p, double expected) {
  const FloatCalls fc = float_calls(p);
  if (p.out_type != ScalarType::F32) return fc.count > 0 ? 1.0 : 0.0;
  if (fc.exact || !std::isfinite(expected)) return 0;
  const float want = static_cast<float>(expected);
  const double ulp = std::fabs(static_cast<double>(std::nextafter(want, INFINITY)) - want);
  return std::max(ulp, std::ldexp(std::fabs(expected), -16)) * std::max(1, fc.count);
}

std::string oracle_tolerance_text(const ir::seq::VectorProgram& p) {
  const FloatCalls fc = float_calls(p);
  if (p.out_type != ScalarType::F32)
    return fc.count > 0 ? "±(1 + 2^-16 relative per float call)" : "bit-exact";
  return fc.exact ? "bit-exact (one correctly rounded IEEE operation)"
                  : "max(1 ulp, 2^-16 relative) per float call";
}

} // namespace tujit::runtime::vector
