// The semantics of every simulated Vector Engine value call, written once over an arithmetic
// backend `B` (docs/vector-engine.md §3): the interpreter instantiates it with plain C++ scalars
// (runtime/vector/ve_scalar.cpp), the JIT with an LLVM IR builder (codegen/vector_chain_emit.cpp),
// so both engines compute each op from this one description. The op, its argument mode and its
// operands are constants of the call; only the stream element is a value of the backend.
//
// A backend provides, on its value types V (32 bits), W (64-bit integer), F (binary32),
// D (binary64) and Bool, each primitive with the meaning of the LLVM instruction of that name
// (IEEE 754 round to nearest even, no fast-math, no contraction):
//   k(u32) k64(i64) kd(double)                   constants
//   add sub mul band bor bxor shl lshr ashr      i32 wrapping arithmetic (shift amounts < 32)
//   slt sgt eq ult ugt                           i32 comparisons (ult / ugt unsigned)
//   sext trunc add64 sub64 mul64 ashr64 slt64 sgt64 select64
//   select(Bool, V, V) bnot(Bool) band_b(Bool, Bool)
//   as_f(V) as_v(F) fadd fsub fmul fdiv fma sqrt fabs flt fgt feq is_nan sitofp
//   fpext(F) dmul doge dole select_d dround(half away from zero) fptosi(D → V)
//   transcendental(FpUnaryOp, V): the correctly rounded binary32 of Exp, NegExp, Tanh, Erf, Log,
//                                 Sin, Cos at the input, canonical NaN for a NaN
//                                 (runtime/vector/ve_scalar.h correctly_rounded_bits)
#pragma once

#include "ir/types/vector_op.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

namespace tujit::runtime::vector::semantics {

/// The canonical quiet NaN every float op returns instead of a NaN.
inline constexpr std::uint32_t kCanonicalNaN = 0x7FC00000u;
inline constexpr std::uint32_t kI32Min = 0x80000000u;
inline constexpr std::uint32_t kI32Max = 0x7FFFFFFFu;

/// The bits of `f`, a NaN replaced by kCanonicalNaN.
template <class B>
auto canonical(B& b, typename B::F f) {
  return b.select(b.is_nan(f), b.k(kCanonicalNaN), b.as_v(f));
}

/// `v` (i64) clamped to the i32 range.
template <class B>
auto saturate(B& b, typename B::W v) {
  const auto lo = b.k64(std::numeric_limits<std::int32_t>::min());
  const auto hi = b.k64(std::numeric_limits<std::int32_t>::max());
  return b.trunc(b.select64(b.slt64(v, lo), lo, b.select64(b.sgt64(v, hi), hi, v)));
}

/// The shift amount of the reference's release-build `<<` / `>>`: the operand's low 5 bits.
template <class B>
auto amount(B& b, typename B::V s) {
  return b.band(s, b.k(31));
}

template <class B>
auto fp_unary(B& b, ir::FpUnaryOp op, typename B::V x) {
  const auto f = b.as_f(x);
  switch (op) {
  case ir::FpUnaryOp::Sqrt: // sqrt(-0) = -0, sqrt(x < 0) = NaN
    return canonical(b, b.sqrt(f));
  case ir::FpUnaryOp::Sigmoid: { // the reference's 1 / (1 + exp(−x)), each step rounded
    const auto one = b.as_f(b.k(0x3F800000u));
    const auto e = b.as_f(b.transcendental(ir::FpUnaryOp::Exp, b.bxor(x, b.k(kI32Min))));
    return canonical(b, b.fdiv(one, b.fadd(one, e)));
  }
  default: // canonical bits for every input, a NaN included
    return b.transcendental(op, x);
  }
}

template <class B>
auto fp_binary(B& b, ir::FpBinaryOp op, typename B::V x, typename B::V y) {
  const auto fx = b.as_f(x), fy = b.as_f(y);
  switch (op) {
  case ir::FpBinaryOp::AddF:
    return canonical(b, b.fadd(fx, fy));
  case ir::FpBinaryOp::SubF:
    return canonical(b, b.fsub(fx, fy));
  case ir::FpBinaryOp::MulF:
    return canonical(b, b.fmul(fx, fy));
  case ir::FpBinaryOp::DivF:
    break;
  }
  return canonical(b, b.fdiv(fx, fy));
}

template <class B>
auto fxp_binary(B& b, ir::FxpBinaryOp op, typename B::V x, typename B::V y) {
  using Op = ir::FxpBinaryOp;
  switch (op) {
  case Op::AddFxp:
    return b.add(x, y);
  case Op::AddFxpSat:
    return saturate(b, b.add64(b.sext(x), b.sext(y)));
  case Op::SubFxp:
    return b.sub(x, y);
  case Op::SubFxpSat:
    return saturate(b, b.sub64(b.sext(x), b.sext(y)));
  case Op::LeftShift:
    return b.shl(x, amount(b, y));
  case Op::LeftShiftSat: // a.saturating_mul(1 << b): 1 << 31 is i32::MIN (release build)
    return saturate(b, b.mul64(b.sext(x), b.sext(b.shl(b.k(1), amount(b, y)))));
  case Op::MulFxp: { // Q31 product rounded half up: ((a·b >> 30) + 1) >> 1; MIN·MIN → MAX
    const auto q = b.ashr64(b.add64(b.ashr64(b.mul64(b.sext(x), b.sext(y)), 30), b.k64(1)), 1);
    const auto both_min = b.band_b(b.eq(x, b.k(kI32Min)), b.eq(y, b.k(kI32Min)));
    return b.select(both_min, b.k(kI32Max), b.trunc(q));
  }
  case Op::MulInt:
    return b.mul(x, y);
  case Op::LogicRightShift:
    return b.lshr(x, amount(b, y));
  case Op::ArithRightShift:
    return b.ashr(x, amount(b, y));
  case Op::ArithRightShiftRound: // refused by the front end: the reference leaves it undefined
    break;
  }
  return b.k(0);
}

template <class B>
auto logic_binary(B& b, ir::LogicBinaryOp op, typename B::V x, typename B::V y) {
  using Op = ir::LogicBinaryOp;
  switch (op) {
  case Op::BitAnd:
    return b.band(x, y);
  case Op::BitOr:
    return b.bor(x, y);
  case Op::BitXor:
    return b.bxor(x, y);
  case Op::LeftShift:
    return b.shl(x, amount(b, y));
  case Op::LogicRightShift:
    return b.lshr(x, amount(b, y));
  case Op::ArithRightShift:
    break;
  }
  return b.ashr(x, amount(b, y));
}

/// IEEE minNum / maxNum with −0 < +0: a NaN operand yields the other, two give the canonical NaN.
template <class B>
auto min_max(B& b, bool max, typename B::V x, typename B::V y) {
  const auto fx = b.as_f(x), fy = b.as_f(y);
  const auto x_first = max ? b.fgt(fx, fy) : b.flt(fx, fy);
  // Equal values differ only in the sign of a zero: max takes the positive one.
  const auto x_neg = b.slt(x, b.k(0));
  const auto zero_pick = b.select(max ? b.bnot(x_neg) : x_neg, x, y);
  auto r = b.select(b.feq(fx, fy), zero_pick, b.select(x_first, x, y));
  r = b.select(b.is_nan(fy), x, r);
  r = b.select(b.is_nan(fx), y, r);
  return b.select(b.band_b(b.is_nan(fx), b.is_nan(fy)), b.k(kCanonicalNaN), r);
}

/// i32 `abs` as the reference computes it (wrapping: |MIN| stays MIN).
template <class B>
auto wrapping_abs(B& b, typename B::V x) {
  return b.select(b.slt(x, b.k(0)), b.sub(b.k(0), x), x);
}

template <class B>
auto clip_binary(B& b, ir::ClipBinaryOp op, bool f32, typename B::V x, typename B::V y) {
  using Op = ir::ClipBinaryOp;
  if (f32) {
    switch (op) {
    case Op::Add:
      return canonical(b, b.fadd(b.as_f(x), b.as_f(y)));
    case Op::Min:
      return min_max(b, false, x, y);
    case Op::Max:
      return min_max(b, true, x, y);
    case Op::AbsMin: // if |a| < |b| { a } else { b } (a NaN compares false)
      return canonical(b, b.as_f(b.select(b.flt(b.fabs(b.as_f(x)), b.fabs(b.as_f(y))), x, y)));
    case Op::AbsMax:
      return canonical(b, b.as_f(b.select(b.fgt(b.fabs(b.as_f(x)), b.fabs(b.as_f(y))), x, y)));
    default: // i32-only ops: refused by the front end on f32 streams
      return b.k(kCanonicalNaN);
    }
  }
  switch (op) {
  case Op::AddFxp:
    return b.add(x, y);
  case Op::AddFxpSat:
    return saturate(b, b.add64(b.sext(x), b.sext(y)));
  case Op::Min:
    return b.select(b.slt(x, y), x, y);
  case Op::Max:
    return b.select(b.sgt(x, y), x, y);
  case Op::AbsMin:
    return b.select(b.slt(wrapping_abs(b, x), wrapping_abs(b, y)), x, y);
  case Op::AbsMax:
    return b.select(b.sgt(wrapping_abs(b, x), wrapping_abs(b, y)), x, y);
  case Op::Add: // f32 only
    break;
  }
  return b.k(0);
}

/// FxpToFp (docs/scalars.md §4.7): the i32 `v` with `iw` integer bits means v·2^−(31−iw). The
/// i32 → binary32 conversion rounds to nearest even; the scaling by a power of two is exact
/// (|v·2^−(31−iw)| ≥ 2^−31 is a normal number).
template <class B>
auto fxp_to_fp(B& b, typename B::V v, std::uint32_t iw) {
  const std::uint32_t scale = (127u + iw - 31u) << 23; // 2^(iw − 31) as binary32 bits
  return b.as_v(b.fmul(b.sitofp(v), b.as_f(b.k(scale))));
}

/// FpToFxp: x·2^(31−iw) (exact in binary64) rounded half away from zero, clamped to the i32
/// range; a NaN gives i32::MAX or i32::MIN by its sign.
template <class B>
auto fp_to_fxp(B& b, typename B::V x, std::uint32_t iw) {
  const double scale = static_cast<double>(std::uint64_t{1} << (31u - iw));
  const auto d = b.dmul(b.fpext(b.as_f(x)), b.kd(scale));
  // round(d) ≥ 2^31 exactly when d ≥ 2^31 − 0.5; every d ≤ −2^31 clamps to i32::MIN (±inf too).
  const auto high = b.doge(d, b.kd(2147483647.5));
  const auto low = b.dole(d, b.kd(-2147483648.0));
  const auto in_range = b.band_b(b.bnot(high), b.bnot(low));
  const auto safe = b.select_d(in_range, d, b.kd(0.0)); // fptosi of an out-of-range value is poison
  auto r = b.select(high, b.k(kI32Max), b.select(low, b.k(kI32Min), b.fptosi(b.dround(safe))));
  const auto by_sign = b.select(b.slt(x, b.k(0)), b.k(kI32Min), b.k(kI32Max));
  return b.select(b.is_nan(b.as_f(x)), by_sign, r);
}

/// FmaF's three arguments as the TernaryArgMode places the stream `v` and the operands `c0`,
/// `c1`: fma(a, b, c) = a · b + c, one rounding.
template <class B>
auto fp_ternary(B& b, ir::TernaryArgMode mode, typename B::V v, typename B::V c0,
                typename B::V c1) {
  const std::array<typename B::V, 3> args{v, c0, c1};
  const auto at = ir::ternary_positions(mode);
  return canonical(b, b.fma(b.as_f(args[at[0]]), b.as_f(args[at[1]]), b.as_f(args[at[2]])));
}

/// One value call on the stream element `v` of a `f32` (else i32) stream; `c` is operand0 (the
/// call's constant, a slot's, or the VRF / stash element the element reads), `c1` operand1 (a
/// ternary call's).
template <class B>
auto apply_call(B& b, const ir::VectorCall& call, bool f32, typename B::V v, typename B::V c,
                typename B::V c1) {
  using K = ir::VectorCallKind;
  using M = ir::BinaryArgMode;
  // ModeXY: op(argX, argY), 0 = the stream element, 1 = the operand.
  const auto x = (call.mode == M::Mode10 || call.mode == M::Mode11) ? c : v;
  const auto y = (call.mode == M::Mode01 || call.mode == M::Mode11) ? c : v;
  switch (call.kind) {
  case K::FpUnary:
    return fp_unary(b, std::get<ir::FpUnaryOp>(call.op), v);
  case K::FpBinary:
  case K::FpDiv:
    return fp_binary(b, std::get<ir::FpBinaryOp>(call.op), x, y);
  case K::FpTernary:
    return fp_ternary(b, call.ternary_mode, v, c, c1);
  case K::Fxp:
    return fxp_binary(b, std::get<ir::FxpBinaryOp>(call.op), x, y);
  case K::Logic:
    return logic_binary(b, std::get<ir::LogicBinaryOp>(call.op), x, y);
  case K::Clip:
    return clip_binary(b, std::get<ir::ClipBinaryOp>(call.op), f32, x, y);
  case K::FxpToFp:
    return fxp_to_fp(b, v, call.int_width);
  case K::FpToFxp:
    return fp_to_fxp(b, v, call.int_width);
  default:
    return v; // init, tag, narrow / widen, reinterpret, final: the bits stay
  }
}

/// One step of a reduction, op(x, y) (docs/vector-engine.md §3.6): i32 `AddSat` saturates and
/// `Add` wraps; f32 `Add` / `Mul` are IEEE (canonical NaN); `Max` / `Min` are signed on i32 and
/// IEEE maxNum / minNum on f32 with −0 < +0, as vector_clip's.
template <class B>
auto reduce_op(B& b, ir::ReduceOp op, bool f32, typename B::V x, typename B::V y) {
  using R = ir::ReduceOp;
  switch (op) {
  case R::Add:
    return f32 ? canonical(b, b.fadd(b.as_f(x), b.as_f(y))) : b.add(x, y);
  case R::AddSat:
    return saturate(b, b.add64(b.sext(x), b.sext(y)));
  case R::Max:
    return f32 ? min_max(b, true, x, y) : b.select(b.sgt(x, y), x, y);
  case R::Min:
    return f32 ? min_max(b, false, x, y) : b.select(b.slt(x, y), x, y);
  case R::Mul:
    break;
  }
  return f32 ? canonical(b, b.fmul(b.as_f(x), b.as_f(y))) : b.mul(x, y);
}

/// The reduction of one output element's terms in tujit's order (docs/vector-engine.md §3.6):
/// `term(k)` is term k, lane k % lanes of flit k / lanes, flits in arrival order. Each flit's
/// lanes go through the tree op(op(a, b), op(c, d)) (one lane: itself); the accumulator slot
/// takes the first flit's value, then acc = op(acc, flit) for each later one.
template <class B, class Term>
auto reduce_terms(B& b, const ir::VeReduce& r, bool f32, Term&& term) {
  const auto flit = [&](std::uint32_t s) {
    const std::uint32_t k = s * r.lanes;
    if (r.lanes != 4) return term(k);
    return reduce_op(b, r.op, f32, reduce_op(b, r.op, f32, term(k), term(k + 1)),
                     reduce_op(b, r.op, f32, term(k + 2), term(k + 3)));
  };
  auto acc = flit(0);
  for (std::uint32_t s = 1; s < r.steps; ++s) acc = reduce_op(b, r.op, f32, acc, flit(s));
  return acc;
}

/// Whether comparison `c` holds for the element `v` (docs/vector-engine.md §3.4): the scalar's own
/// order (IEEE on f32: a NaN satisfies no Equal / Less / Greater, −0 equals +0), the `*Unsigned`
/// pair on the raw bits.
template <class B>
auto compare(B& b, const ir::VeCmp& c, bool f32, typename B::V v) {
  using C = ir::CmpKind;
  const auto k = b.k(c.boundary);
  switch (c.kind) {
  case C::Equal:
    return f32 ? b.feq(b.as_f(v), b.as_f(k)) : b.eq(v, k);
  case C::Less:
    return f32 ? b.flt(b.as_f(v), b.as_f(k)) : b.slt(v, k);
  case C::Greater:
    return f32 ? b.fgt(b.as_f(v), b.as_f(k)) : b.sgt(v, k);
  case C::LessUnsigned:
    return b.ult(v, k);
  case C::GreaterUnsigned:
    return b.ugt(v, k);
  case C::True:
    return b.eq(k, k);
  case C::False:
    break;
  }
  return b.bnot(b.eq(k, k));
}

/// The element's 4-bit tag: bit i set where comparison i holds.
template <class B>
auto tag_of(B& b, const ir::TagComparisons& cmps, bool f32, typename B::V v) {
  auto tag = b.k(0);
  for (unsigned i = 0; i < ir::kTagBits; ++i)
    tag = b.bor(tag, b.select(compare(b, cmps[i], f32, v), b.k(1u << i), b.k(0)));
  return tag;
}

/// Whether `g` admits the tag.
template <class B>
auto admits(B& b, const ir::TagGuard& g, typename B::V tag) {
  const auto hit = b.eq(b.band(tag, b.k(g.mask())), b.k(g.want()));
  return g.negate ? b.bnot(hit) : hit;
}

/// A call with a `Branched` operand: the first slot (imm slots, then rf) whose guard admits the
/// tag computes the op with its operands; an element no slot admits keeps its value. Selected
/// from the last slot to the first, so the first admitting slot's result is the one kept.
template <class B>
auto apply_branched(B& b, const ir::VectorCall& call, bool f32, typename B::V v, typename B::V tag,
                    typename B::V rf) {
  const ir::VeBranches& br = *call.branches;
  auto r = v;
  if (br.rf)
    r = b.select(admits(b, br.rf_guard, tag), apply_call(b, call, f32, v, rf, b.k(br.rf_operand1)),
                 r);
  for (auto it = br.imm.rbegin(); it != br.imm.rend(); ++it)
    r = b.select(admits(b, it->guard, tag),
                 apply_call(b, call, f32, v, b.k(it->operand[0]), b.k(it->operand[1])), r);
  return r;
}

/// A call of pair mode's paired phase (docs/vector-engine.md §3.5) on group `k`'s element `v`: a
/// per-group call runs with that group's operands or skips it; a common call (a conversion, a
/// reinterpret) runs on both.
template <class B, class Step>
auto group_call(B& b, const Step& st, bool f32, typename B::V v, std::size_t k) {
  if (!st.call.groups) return apply_call(b, st.call, f32, v, b.k(0), b.k(0));
  const ir::VeGroupArgs& g = *st.call.groups;
  if (!g.runs[k]) return v;
  return apply_call(b, st.call, f32, v, b.k(g.operand[k][0]), b.k(g.operand[k][1]));
}

/// The operand streams of the calls before a reduce: there are none (ir/seq/vector_program.h).
template <class B>
struct NoStream {
  B& b;
  auto operator()(std::size_t) const { return b.k(0); }
};

/// Every value call of a pass (`steps`: ir/seq/vector_program.h VectorStepIR) on the element `v`;
/// `vrf(j)` is the element's j-th operand stream, counted in call order (a `&vrf` operand,
/// docs/vector-engine.md §3.2, pair mode's group 1, or a reduce's terms after the first, §3.6),
/// the other calls' operand0 their constant. `v` is a reduce's first term; each other term goes
/// through the calls before the reduce (which read no operand stream) on its own.
template <class B, class Steps, class Vrf>
typename B::V apply_steps(B& b, const Steps& steps, typename B::V v, Vrf&& vrf) {
  std::size_t j = 0;
  // vector_stash() keeps the element's value where it stands for the one later `Stash` operand
  // (docs/vector-engine.md §3.3): a snapshot of the running tensor is, per element, its value.
  typename B::V stash = v;
  // The tag the Tag stage gives the element (docs/vector-engine.md §3.4); TagMode::Zero: 0.
  typename B::V tag = b.k(0);
  // Pair mode (docs/vector-engine.md §3.5): from the unzip to the zip `v` is group 0's element and
  // `w` group 1's (the same coordinates, the grouping axis at 1); the zip computes
  // op(x, y) of the two, its mode choosing them (Mode01: op(group0, group1)).
  typename B::V w = v;
  bool paired = false;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& st = steps[i];
    const bool f32 = st.dtype == ir::ScalarType::F32;
    if (st.call.reduce) {
      const std::span before(steps.data(), i);
      const std::size_t first = j;
      NoStream<B> no_stream{b};
      v = reduce_terms(b, *st.call.reduce, f32, [&](std::uint32_t k) {
        return k == 0 ? v : apply_steps(b, before, vrf(first + k - 1), no_stream);
      });
      j += st.call.reduce->terms() - 1;
      continue;
    }
    if (st.call.kind == ir::VectorCallKind::Unzip) {
      w = vrf(j++);
      paired = true;
      continue;
    }
    if (paired) {
      if (st.call.zip) {
        v = apply_call(b, st.call, f32, v, w, b.k(0));
        paired = false;
      } else {
        v = group_call(b, st, f32, v, 0);
        w = group_call(b, st, f32, w, 1);
      }
      continue;
    }
    if (st.call.kind == ir::VectorCallKind::Stash) {
      stash = v;
      continue;
    }
    if (st.call.kind == ir::VectorCallKind::Tag) {
      if (st.call.comparisons) tag = tag_of(b, *st.call.comparisons, f32, v);
      continue;
    }
    const auto c = st.call.reads_vrf()     ? vrf(j++)
                   : st.call.reads_stash() ? stash
                                           : b.k(st.call.operand[0]);
    if (st.call.branches) {
      v = apply_branched(b, st.call, f32, v, tag, c);
    } else if (!st.call.guard.unconditional()) { // a guarded unary op `(guard, op)`
      v = b.select(admits(b, st.call.guard, tag),
                   apply_call(b, st.call, f32, v, c, b.k(st.call.operand[1])), v);
    } else {
      v = apply_call(b, st.call, f32, v, c, b.k(st.call.operand[1]));
    }
  }
  return v;
}

} // namespace tujit::runtime::vector::semantics
