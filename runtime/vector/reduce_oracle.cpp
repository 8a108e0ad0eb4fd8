#include "runtime/vector/reduce_oracle.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

namespace tujit::runtime::vector {

namespace {

using ir::ReduceOp;
using ir::ScalarType;

constexpr double kMinI32 = -2147483648.0, kMaxI32 = 2147483647.0;
constexpr double kUnit = 0x1p-24; // binary32's unit roundoff
const double kMaxF32 = static_cast<double>(std::numeric_limits<float>::max());
const double kMinNormalF32 = static_cast<double>(std::numeric_limits<float>::min());

/// The pass cut at its reduce: the calls before it (each term's), and after it (the result's).
struct Cut {
  ir::seq::VectorProgram before, after;
  const ir::seq::VectorStepIR* reduce = nullptr;
};

Cut cut(const ir::seq::VectorProgram& p) {
  Cut c;
  c.before.in_type = p.in_type;
  c.after.out_type = p.out_type;
  for (const ir::seq::VectorStepIR& st : p.steps) {
    if (st.call.reduce) {
      c.reduce = &st;
      continue;
    }
    (c.reduce ? c.after : c.before).steps.push_back(st);
  }
  if (c.reduce) c.before.out_type = c.after.in_type = c.reduce->dtype;
  return c;
}

/// One term as the calls before the reduce leave it: its value and how far the engines' may lie
/// from it (0: exactly it).
struct Term {
  double value = 0, tol = 0;
};

/// Every order's result lies in [lo, hi]; `nan`: it is NaN whatever the order; `overflow`: some
/// order's partial sum may pass binary32's range, so ±inf or NaN are results too.
struct Range {
  double lo = 0, hi = 0;
  bool nan = false, overflow = false;
};

/// maxNum / minNum with −0 < +0 (docs/vector-engine.md §3.6), on values that are not NaN.
double pick(bool max, double a, double b) {
  if (a == b) return (std::signbit(a) == max) ? b : a;
  return (max ? b > a : b < a) ? b : a;
}

Range min_max_range(bool max, const std::vector<Term>& terms) {
  Range r;
  bool any = false;
  for (const Term& t : terms) {
    if (std::isnan(t.value)) continue;
    r.lo = any ? pick(max, r.lo, t.value - t.tol) : t.value - t.tol;
    r.hi = any ? pick(max, r.hi, t.value + t.tol) : t.value + t.tol;
    any = true;
  }
  r.nan = !any;
  return r;
}

Range f32_add_range(const std::vector<Term>& terms) {
  Range r;
  bool pos_inf = false, neg_inf = false;
  double sum = 0, abs_sum = 0, tol = 0;
  for (const Term& t : terms) {
    if (std::isnan(t.value)) r.nan = true;
    pos_inf = pos_inf || t.value == INFINITY;
    neg_inf = neg_inf || t.value == -INFINITY;
    sum += t.value;
    abs_sum += std::fabs(t.value);
    tol += t.tol;
  }
  if (r.nan || (pos_inf && neg_inf)) {
    r.nan = true;
    return r;
  }
  if (pos_inf || neg_inf) {
    r.lo = r.hi = pos_inf ? INFINITY : -INFINITY;
    return r;
  }
  // Recursive summation in any order: |ŝ − s| ≤ γ(n−1)·Σ|x|, γ(k) = k·u / (1 − k·u).
  const double k = static_cast<double>(terms.size() - 1) * kUnit;
  const double bound = k / (1 - k) * abs_sum + tol;
  r.lo = sum - bound;
  r.hi = sum + bound;
  r.overflow = abs_sum + tol >= kMaxF32;
  return r;
}

Range f32_mul_range(const std::vector<Term>& terms) {
  Range r;
  double prod = 1, rel = 0;
  for (const Term& t : terms) {
    r.nan = r.nan || std::isnan(t.value);
    prod *= t.value;
    // A term known to ±tol moves the product by at most that share of it.
    if (t.tol != 0) rel += t.tol / std::max(std::fabs(t.value), std::ldexp(1.0, -149));
  }
  if (r.nan || std::isnan(prod)) {
    r.nan = true;
    return r;
  }
  const double k = static_cast<double>(terms.size() - 1) * kUnit;
  // Relative error γ(n−1) (and the terms' own), and a subnormal step's absolute error per product.
  const double bound = (k / (1 - k) + rel) * std::fabs(prod) +
                       static_cast<double>(terms.size()) * std::ldexp(1.0, -149);
  r.lo = prod - bound;
  r.hi = prod + bound;
  // Some order's partial product may leave binary32's range: past the largest value (±inf), or
  // below the smallest normal, where a subnormal step loses up to all its digits: then any value
  // of the product's sign, zero included, is some order's.
  double big = 1, small = 1;
  for (const Term& t : terms) (std::fabs(t.value) > 1 ? big : small) *= std::fabs(t.value);
  r.overflow = big >= kMaxF32 || std::fabs(prod) + bound >= kMaxF32;
  if (small < kMinNormalF32 && prod != 0) {
    r.lo = prod > 0 ? 0 : -INFINITY;
    r.hi = prod > 0 ? INFINITY : 0;
  }
  return r;
}

double wrap32(double v) {
  return static_cast<double>(static_cast<std::int32_t>(
      static_cast<std::uint32_t>(static_cast<std::int64_t>(v) & 0xFFFFFFFF)));
}

Range i32_range(ReduceOp op, const std::vector<Term>& terms) {
  Range r;
  double pos = 0, neg = 0, tol = 0;
  double lo = kMaxI32, hi = kMinI32;
  for (const Term& t : terms) {
    (t.value > 0 ? pos : neg) += t.value;
    tol += t.tol;
    lo = std::min(lo, t.value);
    hi = std::max(hi, t.value);
  }
  const auto sat = [](double v) { return std::clamp(v, kMinI32, kMaxI32); };
  switch (op) {
  case ReduceOp::Max:
    r.lo = r.hi = hi;
    break;
  case ReduceOp::Min:
    r.lo = r.hi = lo;
    break;
  case ReduceOp::Add:
    r.lo = r.hi = wrap32(pos + neg);
    break;
  case ReduceOp::Mul: {
    std::int64_t prod = 1;
    for (const Term& t : terms)
      prod =
          static_cast<std::int64_t>(static_cast<std::uint32_t>(prod) *
                                    static_cast<std::uint32_t>(static_cast<std::int64_t>(t.value)));
    r.lo = r.hi = wrap32(static_cast<double>(prod));
    break;
  }
  case ReduceOp::AddSat:
    // Every partial sum of every order lies in [neg, pos]: none saturates when both are in range,
    // and the result is the exact sum; otherwise it lies in [sat(neg), sat(pos)].
    if (pos <= kMaxI32 && neg >= kMinI32) {
      r.lo = r.hi = pos + neg;
    } else {
      r.lo = sat(neg);
      r.hi = sat(pos);
    }
    break;
  }
  r.lo -= tol;
  r.hi += tol;
  return r;
}

Range reduce_range(ReduceOp op, bool f32, const std::vector<Term>& terms) {
  if (!f32) return i32_range(op, terms);
  switch (op) {
  case ReduceOp::Max:
  case ReduceOp::Min:
    return min_max_range(op == ReduceOp::Max, terms);
  case ReduceOp::Mul:
    return f32_mul_range(terms);
  default:
    return f32_add_range(terms);
  }
}

double value_of(std::uint32_t b, ScalarType t) {
  return t == ScalarType::F32 ? static_cast<double>(std::bit_cast<float>(b))
                              : static_cast<double>(std::bit_cast<std::int32_t>(b));
}

/// `actual` against a result in `r` handed through the calls after the reduce.
OracleCheck judge(const Cut& c, const Range& r, std::span<const std::uint32_t> vrf,
                  std::uint32_t actual) {
  const ir::seq::VectorProgram& after = c.after;
  const bool f32_out = after.out_type == ScalarType::F32;
  const double got = value_of(actual, after.out_type);
  if (r.overflow && f32_out && !std::isfinite(got)) return {true, 0};
  if (r.nan) {
    const double e = oracle_chain_value(after, std::numeric_limits<double>::quiet_NaN(), vrf);
    return oracle_compare(after, e, actual);
  }
  OracleCheck best{false, std::numeric_limits<double>::infinity()};
  double lo = INFINITY, hi = -INFINITY;
  for (double x : {r.lo, 0.5 * (r.lo + r.hi), r.hi}) {
    const double e = oracle_chain_value(after, x, vrf);
    const OracleCheck k = oracle_compare(after, e, actual);
    if (k.ok) return k;
    best.abs_err = std::min(best.abs_err, k.abs_err);
    const double rounded = f32_out ? static_cast<double>(static_cast<float>(e)) : e;
    lo = std::min({lo, e, rounded});
    hi = std::max({hi, e, rounded});
  }
  // An exact result (Max / Min, integers) is judged by oracle_compare alone: bit for bit, the
  // sign of a zero included; an interval by where the value lies.
  if (r.lo != r.hi && got >= lo && got <= hi) return {true, std::fabs(got - 0.5 * (lo + hi))};
  return best;
}

} // namespace

bool has_reduce(const ir::seq::VectorProgram& p) {
  return std::any_of(p.steps.begin(), p.steps.end(),
                     [](const ir::seq::VectorStepIR& st) { return st.call.reduce.has_value(); });
}

OracleCheck oracle_reduce_check(const ir::seq::VectorProgram& p,
                                std::span<const std::uint32_t> terms,
                                std::span<const std::uint32_t> vrf, std::uint32_t actual) {
  const Cut c = cut(p);
  if (!c.reduce || terms.empty()) return {false, std::numeric_limits<double>::infinity()};
  const bool f32 = c.reduce->dtype == ScalarType::F32;
  std::vector<Term> values;
  for (std::uint32_t bits : terms) {
    const double x = oracle_chain(c.before, bits);
    const double tol = oracle_tolerance(c.before, x);
    // A bit-exact term is the float64 value rounded once to the stream's scalar.
    values.push_back(
        {tol == 0 && f32 && std::isfinite(x) ? static_cast<double>(static_cast<float>(x)) : x,
         tol});
  }
  return judge(c, reduce_range(c.reduce->call.reduce->op, f32, values), vrf, actual);
}

std::string oracle_reduce_tolerance_text(const ir::seq::VectorProgram& p) {
  const Cut c = cut(p);
  if (!c.reduce) return oracle_tolerance_text(p);
  const ReduceOp op = c.reduce->call.reduce->op;
  if (op == ReduceOp::Max || op == ReduceOp::Min) return "exact reduce (any order)";
  if (c.reduce->dtype != ScalarType::F32)
    return op == ReduceOp::AddSat ? "exact sum, or [sat(negatives), sat(positives)] where a "
                                    "partial sum can saturate"
                                  : "exact reduce";
  return "γ(n−1)·Σ|term| around the exact reduce (any order), u = 2^-24";
}

} // namespace tujit::runtime::vector
