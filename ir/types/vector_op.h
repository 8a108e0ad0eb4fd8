// The Vector Engine's operation vocabulary (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md; the reference's
// furiosa-opt-std/src/engine/vector/op/mod.rs and alu.rs):
// the pipeline stages in their fixed order, the ALUs each op claims (each ALU runs once per Tensor
// Unit invocation), and the op enumerations the kernel language names (`FpUnaryOp::Sqrt`, …).
// The verifier (ir/verify/vector_engine.h) checks chains against these facts; the numerics of
// each op are runtime/vector/ve_scalar.h, documented in docs/vector-engine.md.
#pragma once

#include "ir/types/vector_branch.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace tujit::ir {

/// The intra-slice chain's stages in pipeline order (the book's "Pipeline" table,
/// docs/vector-engine.md §2). A chain visits them in increasing order; Logic, Fxp, Fp and Clip may
/// repeat (with other ALUs).
enum class VeStage : std::uint8_t {
  Init,    // vector_init(): entered, no stage yet
  Tag,     // vector_intra_slice_tag
  Logic,   // vector_logic
  Fxp,     // vector_fxp
  FxpToFp, // vector_fxp_to_fp
  Narrow,  // vector_narrow_split / vector_narrow_trim (Way8 → Way4)
  Fp,      // vector_fp_unary / binary / ternary
  IntraSliceReduce,
  FpDiv,   // vector_fp_div
  Widen,   // vector_widen_concat / vector_widen_pad (Way4 → Way8)
  FpToFxp, // vector_fp_to_fxp
  Clip,    // vector_clip
  Final,   // vector_final()
};
std::string_view to_string(VeStage s);
/// A stage a chain may visit twice in a row (each visit with another ALU).
bool ve_stage_repeats(VeStage s);

/// The reference's RngdAlu: each one runs at most once per Tensor Unit invocation.
enum class VeAlu : std::uint8_t {
  LogicAnd,
  LogicOr,
  LogicXor,
  LogicLshift,
  LogicRshift,
  FxpAdd,
  FxpLshift,
  FxpMul,
  FxpRshift,
  FpFma,
  FpFpu,
  FpExp,
  FpMul0,
  FpMul1,
  ClipAdd,
  ClipMax,
  ClipMin,
  FpDiv,
  ReduceAccTree, // the intra-slice reduce's accumulator tree ([REF] op/mod.rs `alu()`)
};
std::string_view to_string(VeAlu a);

/// `FpUnaryOp` (op/mod.rs): every variant the reference defines.
enum class FpUnaryOp : std::uint8_t { Exp, NegExp, Sqrt, Tanh, Sigmoid, Erf, Log, Sin, Cos };
/// `FpBinaryOp` and `FpDivBinaryOp::DivF` (the FpDiv stage's op is DivF on the divider).
enum class FpBinaryOp : std::uint8_t { AddF, SubF, MulF, DivF };
/// `FxpBinaryOp`.
enum class FxpBinaryOp : std::uint8_t {
  AddFxp,
  AddFxpSat,
  SubFxp,
  SubFxpSat,
  LeftShift,
  LeftShiftSat,
  MulFxp,
  MulInt,
  LogicRightShift,
  ArithRightShift,
  ArithRightShiftRound,
};
/// `LogicBinaryOpI32` (the f32 form has BitAnd / BitOr / BitXor only).
enum class LogicBinaryOp : std::uint8_t {
  BitAnd,
  BitOr,
  BitXor,
  LeftShift,
  LogicRightShift,
  ArithRightShift,
};
/// `ClipBinaryOpI32` / `ClipBinaryOpF32` (AddFxp / AddFxpSat are i32 only, Add f32 only).
enum class ClipBinaryOp : std::uint8_t { Min, Max, AbsMin, AbsMax, AddFxp, AddFxpSat, Add };
/// `BinaryArgMode` (op/arg_mode.rs): ModeXY computes op(argX, argY), 0 = the stream, 1 = the
/// operand.
enum class BinaryArgMode : std::uint8_t { Mode00, Mode01, Mode10, Mode11 };
/// The reduction of `vector_intra_slice_reduce` (`IntraSliceReduceOpI32::{AddSat, Max, Min}`,
/// `IntraSliceReduceOpF32::{Add, Max, Min}`; docs/vector-engine.md §3.6) and of
/// `vector_inter_slice_reduce` (`InterSliceReduceOpI32::{Add, AddSat, Max, Min}`,
/// `InterSliceReduceOpF32::{Add, Max, Min, Mul}`; §3.7).
enum class ReduceOp : std::uint8_t { Add, AddSat, Max, Min, Mul };
std::string_view to_string(ReduceOp op);

/// A reduce call: its op, and the shape of the reduction the run derives from the stream
/// (ir/seq/vector_program.h lower_vector): each output element combines `lanes` × `steps` terms,
/// `lanes` (1 or 4) packet lanes through the tree op(op(a, b), op(c, d)) per flit, then `steps`
/// flits accumulated in arrival order (docs/vector-engine.md §3.6); the inter-slice reducer's
/// `steps` are the slices of a reduction group in ring order, one lane (§3.7).
struct VeReduce {
  ReduceOp op = ReduceOp::Add;
  std::uint32_t lanes = 1;
  std::uint32_t steps = 1;
  std::uint32_t terms() const { return lanes * steps; }
  friend bool operator==(const VeReduce&, const VeReduce&) = default;
};

/// `FpMulAlu`: which ALU a MulF claims.
enum class FpMulAlu : std::uint8_t { Mul0, Mul1, Fma };

std::string_view to_string(FpUnaryOp op);
std::string_view to_string(FpBinaryOp op);
std::string_view to_string(FxpBinaryOp op);
std::string_view to_string(LogicBinaryOp op);
std::string_view to_string(ClipBinaryOp op);
std::string_view to_string(BinaryArgMode m);
std::string_view to_string(FpMulAlu a);

std::optional<FpUnaryOp> parse_fp_unary_op(std::string_view variant);
std::optional<FpBinaryOp> parse_fp_binary_op(std::string_view variant);
std::optional<FxpBinaryOp> parse_fxp_binary_op(std::string_view variant);
std::optional<LogicBinaryOp> parse_logic_binary_op(std::string_view variant);
std::optional<ClipBinaryOp> parse_clip_binary_op(std::string_view variant);
std::optional<BinaryArgMode> parse_binary_arg_mode(std::string_view variant);
std::optional<FpMulAlu> parse_fp_mul_alu(std::string_view variant);

/// One Vector Engine method of a kernel body (the typed form of its arguments).
enum class VectorCallKind : std::uint8_t {
  Init,             // vector_init()
  Tag,              // vector_intra_slice_tag(TagMode::Zero | TagMode::Comparison([…]))
  NarrowSplit,      // vector_narrow_split::<Time2, Packet2>()
  NarrowTrim,       // vector_narrow_trim::<Packet2>()
  WidenConcat,      // vector_widen_concat::<Time2, Packet2>()
  WidenPad,         // vector_widen_pad::<Packet2>()
  FpUnary,          // vector_fp_unary(FpUnaryOp::…)
  FpBinary,         // vector_fp_binary[_with_mode](FpBinaryOp::…, c)
  FpTernary,        // vector_fp_ternary[_with_mode](FpTernaryOp::FmaF, (c0, c1)): fma, one rounding
  FpDiv,            // vector_fp_div[_with_mode](FpDivBinaryOp::DivF, c)
  Fxp,              // vector_fxp[_with_mode](FxpBinaryOp::…, c)
  Logic,            // vector_logic[_with_mode](LogicBinaryOp…::…, c)
  Clip,             // vector_clip[_with_mode](ClipBinaryOp…::…, c)
  FxpToFp,          // vector_fxp_to_fp(int_width)
  FpToFxp,          // vector_fp_to_fxp(int_width)
  Reinterpret,      // vector_reinterpret::<D2>()
  Final,            // vector_final()
  Stash,            // vector_stash(): snapshots the running tensor for one later `Stash` operand
  Unzip,            // vector_intra_slice_unzip::<I, TileTime, SplitTime>(): enters pair mode
  IntraSliceReduce, // vector_intra_slice_reduce::<Axis, Time2, Packet2>(op)
  InterSliceReduce, // vector_inter_slice_reduce::<Slice2, Time2>(op): across slices
};
std::string_view method_name(VectorCallKind k); // "vector_fp_unary", …
/// The pipeline stage a call occupies (Init and Final for the entry and the exit; a reinterpret
/// and a stash hold the current stage and so have none: nullopt).
std::optional<VeStage> stage_of(VectorCallKind k);

/// Where operand0 of a binary or ternary call comes from (the book's
/// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Operands"): a
/// constant of the call, the VRF tensor its stage names (Stage::vrf), read at each element's
/// own coordinates (docs/vector-engine.md §3.2), or the element's value where the chain's
/// vector_stash() took it (§3.3). Operand1 of FmaF is always a constant: a VRF or the stash pairs
/// with a constant only as `(&vrf, c)` / `(Stash, c)`.
enum class VeOperandSource : std::uint8_t { Constant, Vrf, Stash };

/// A per-group call of pair mode's paired phase (docs/vector-engine.md §3.5; furiosa-opt
/// docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Pair Mode"): whether it runs on
/// each group (`()` or a unary op's `false` skips one) and each group's constant operands
/// (operand0, operand1), as the stream's bits.
struct VeGroupArgs {
  std::array<bool, 2> runs{true, true};
  std::array<std::array<std::uint32_t, 2>, 2> operand{};
  friend bool operator==(const VeGroupArgs&, const VeGroupArgs&) = default;
};

struct VectorCall {
  VectorCallKind kind = VectorCallKind::Init;
  /// The op of FpUnary / FpBinary / FpDiv (DivF) / Fxp / Logic / Clip; monostate otherwise.
  std::variant<std::monostate, FpUnaryOp, FpBinaryOp, FxpBinaryOp, LogicBinaryOp, ClipBinaryOp> op;
  FpMulAlu mul = FpMulAlu::Mul0;              // FpBinary MulF
  BinaryArgMode mode = BinaryArgMode::Mode01; // binary ops: which of stream / operand feeds each
  /// Constant operands as the stream's 32-bit patterns (an i32, or an f32's bits); FpTernary
  /// uses both (operand0, operand1).
  std::array<std::uint32_t, 2> operand{};
  std::uint32_t int_width = 31;                          // FxpToFp / FpToFxp
  VeOperandSource source = VeOperandSource::Constant;    // of operand0 (operand[0] unused when Vrf)
  TernaryArgMode ternary_mode = TernaryArgMode::Mode012; // FpTernary
  /// Tag: `TagMode::Comparison`'s four comparisons; nullopt for `TagMode::Zero` (every tag 0).
  std::optional<TagComparisons> comparisons;
  /// A `Branched` operand (docs/vector-engine.md §3.4): its slots replace `operand`, and `source`
  /// says what its register-file slot reads (Constant: it has none).
  std::optional<VeBranches> branches;
  /// FpUnary `(guard, op)`: the op runs where the guard admits the tag; all() otherwise.
  TagGuard guard;
  /// Pair mode's paired phase: the call runs per group with these arguments (`operand` unused).
  std::optional<VeGroupArgs> groups;
  /// A `_zip` call (Logic / Fxp / FpBinary / Clip): op(x, y) of the two groups' streams, `mode`
  /// choosing them (0 = group 0, 1 = group 1); the pair becomes one stream.
  bool zip = false;
  /// vector_intra_slice_reduce's or vector_inter_slice_reduce's op and shape; nullopt for other
  /// calls.
  std::optional<VeReduce> reduce;
  /// Whether operand0 is read from the VRF.
  bool reads_vrf() const { return source == VeOperandSource::Vrf; }
  /// How many of the pass's operand streams (RunProgram::vrf_operands, in call order) the call
  /// reads: a `&vrf` operand one, pair mode's unzip one (group 1's element, docs/vector-engine.md
  /// §3.5), a reduce one per term after the first (its other terms, §3.6).
  std::size_t operand_streams() const {
    if (reduce) return reduce->terms() - 1;
    return reads_vrf() || kind == VectorCallKind::Unzip ? 1 : 0;
  }
  /// Whether operand0 is the stash.
  bool reads_stash() const { return source == VeOperandSource::Stash; }
  /// The ALU the call claims; nullopt for calls that claim none (narrow, widen, conversions).
  std::optional<VeAlu> alu() const;
  /// `vector_fp_unary(FpUnaryOp::Sqrt)`, for reports.
  std::string describe() const;

private:
  std::string describe_pair() const; // a per-group or a zip call
  std::string op_text() const;       // `FxpBinaryOp::MulInt`, `MulF(FpMulAlu::Mul0)`, …
};

/// The name as written, with `_zip` for a zip call (`vector_clip_zip`).
std::string method_name(const VectorCall& c);

/// The ALU an op claims (op/mod.rs `alu()`).
VeAlu alu_of(FpUnaryOp op);
VeAlu alu_of(FpBinaryOp op, FpMulAlu mul = FpMulAlu::Mul0);
VeAlu alu_of(FxpBinaryOp op);
VeAlu alu_of(LogicBinaryOp op);
VeAlu alu_of(ClipBinaryOp op);

} // namespace tujit::ir
