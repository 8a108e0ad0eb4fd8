#include "ir/types/vector_op.h"

#include "ir/types/name_table.h"

#include <fmt/format.h>

#include <array>
#include <bit>
#include <utility>

namespace tujit::ir {

namespace {

constexpr std::array<std::pair<FpUnaryOp, std::string_view>, 9> kFpUnary{{
    {FpUnaryOp::Exp, "Exp"},
    {FpUnaryOp::NegExp, "NegExp"},
    {FpUnaryOp::Sqrt, "Sqrt"},
    {FpUnaryOp::Tanh, "Tanh"},
    {FpUnaryOp::Sigmoid, "Sigmoid"},
    {FpUnaryOp::Erf, "Erf"},
    {FpUnaryOp::Log, "Log"},
    {FpUnaryOp::Sin, "Sin"},
    {FpUnaryOp::Cos, "Cos"},
}};
constexpr std::array<std::pair<FpBinaryOp, std::string_view>, 4> kFpBinary{{
    {FpBinaryOp::AddF, "AddF"},
    {FpBinaryOp::SubF, "SubF"},
    {FpBinaryOp::MulF, "MulF"},
    {FpBinaryOp::DivF, "DivF"},
}};
constexpr std::array<std::pair<FxpBinaryOp, std::string_view>, 11> kFxp{{
    {FxpBinaryOp::AddFxp, "AddFxp"},
    {FxpBinaryOp::AddFxpSat, "AddFxpSat"},
    {FxpBinaryOp::SubFxp, "SubFxp"},
    {FxpBinaryOp::SubFxpSat, "SubFxpSat"},
    {FxpBinaryOp::LeftShift, "LeftShift"},
    {FxpBinaryOp::LeftShiftSat, "LeftShiftSat"},
    {FxpBinaryOp::MulFxp, "MulFxp"},
    {FxpBinaryOp::MulInt, "MulInt"},
    {FxpBinaryOp::LogicRightShift, "LogicRightShift"},
    {FxpBinaryOp::ArithRightShift, "ArithRightShift"},
    {FxpBinaryOp::ArithRightShiftRound, "ArithRightShiftRound"},
}};
constexpr std::array<std::pair<LogicBinaryOp, std::string_view>, 6> kLogic{{
    {LogicBinaryOp::BitAnd, "BitAnd"},
    {LogicBinaryOp::BitOr, "BitOr"},
    {LogicBinaryOp::BitXor, "BitXor"},
    {LogicBinaryOp::LeftShift, "LeftShift"},
    {LogicBinaryOp::LogicRightShift, "LogicRightShift"},
    {LogicBinaryOp::ArithRightShift, "ArithRightShift"},
}};
constexpr std::array<std::pair<ClipBinaryOp, std::string_view>, 7> kClip{{
    {ClipBinaryOp::Min, "Min"},
    {ClipBinaryOp::Max, "Max"},
    {ClipBinaryOp::AbsMin, "AbsMin"},
    {ClipBinaryOp::AbsMax, "AbsMax"},
    {ClipBinaryOp::AddFxp, "AddFxp"},
    {ClipBinaryOp::AddFxpSat, "AddFxpSat"},
    {ClipBinaryOp::Add, "Add"},
}};
constexpr std::array<std::pair<BinaryArgMode, std::string_view>, 4> kMode{{
    {BinaryArgMode::Mode00, "Mode00"},
    {BinaryArgMode::Mode01, "Mode01"},
    {BinaryArgMode::Mode10, "Mode10"},
    {BinaryArgMode::Mode11, "Mode11"},
}};
constexpr std::array<std::pair<FpMulAlu, std::string_view>, 3> kMulAlu{{
    {FpMulAlu::Mul0, "Mul0"},
    {FpMulAlu::Mul1, "Mul1"},
    {FpMulAlu::Fma, "Fma"},
}};

} // namespace

std::string_view to_string(VeStage s) {
  switch (s) {
  case VeStage::Init:
    return "Init";
  case VeStage::Tag:
    return "Tag";
  case VeStage::Logic:
    return "Logic";
  case VeStage::Fxp:
    return "Fxp";
  case VeStage::FxpToFp:
    return "FxpToFp";
  case VeStage::Narrow:
    return "Narrow";
  case VeStage::Fp:
    return "Fp";
  case VeStage::IntraSliceReduce:
    return "IntraSliceReduce";
  case VeStage::FpDiv:
    return "FpDiv";
  case VeStage::Widen:
    return "Widen";
  case VeStage::FpToFxp:
    return "FpToFxp";
  case VeStage::Clip:
    return "Clip";
  case VeStage::Final:
    return "Final";
  }
  return "?";
}

bool ve_stage_repeats(VeStage s) {
  // stage/markers.rs: `CanTransitionTo<X> for X` exists for Logic, Fxp, Fp and Clip only.
  return s == VeStage::Logic || s == VeStage::Fxp || s == VeStage::Fp || s == VeStage::Clip;
}

std::string_view to_string(VeAlu a) {
  switch (a) {
  case VeAlu::LogicAnd:
    return "LogicAnd";
  case VeAlu::LogicOr:
    return "LogicOr";
  case VeAlu::LogicXor:
    return "LogicXor";
  case VeAlu::LogicLshift:
    return "LogicLshift";
  case VeAlu::LogicRshift:
    return "LogicRshift";
  case VeAlu::FxpAdd:
    return "FxpAdd";
  case VeAlu::FxpLshift:
    return "FxpLshift";
  case VeAlu::FxpMul:
    return "FxpMul";
  case VeAlu::FxpRshift:
    return "FxpRshift";
  case VeAlu::FpFma:
    return "FpFma";
  case VeAlu::FpFpu:
    return "FpFpu";
  case VeAlu::FpExp:
    return "FpExp";
  case VeAlu::FpMul0:
    return "FpMul0";
  case VeAlu::FpMul1:
    return "FpMul1";
  case VeAlu::ClipAdd:
    return "ClipAdd";
  case VeAlu::ClipMax:
    return "ClipMax";
  case VeAlu::ClipMin:
    return "ClipMin";
  case VeAlu::FpDiv:
    return "FpDiv";
  case VeAlu::ReduceAccTree:
    return "ReduceAccTree";
  }
  return "?";
}

std::string_view to_string(ReduceOp op) {
  switch (op) {
  case ReduceOp::Add:
    return "Add";
  case ReduceOp::AddSat:
    return "AddSat";
  case ReduceOp::Max:
    return "Max";
  case ReduceOp::Min:
    return "Min";
  case ReduceOp::Mul:
    return "Mul";
  }
  return "?";
}

std::string_view to_string(FpUnaryOp op) {
  return name_of(kFpUnary, op);
}
std::string_view to_string(FpBinaryOp op) {
  return name_of(kFpBinary, op);
}
std::string_view to_string(FxpBinaryOp op) {
  return name_of(kFxp, op);
}
std::string_view to_string(LogicBinaryOp op) {
  return name_of(kLogic, op);
}
std::string_view to_string(ClipBinaryOp op) {
  return name_of(kClip, op);
}
std::string_view to_string(BinaryArgMode m) {
  return name_of(kMode, m);
}
std::string_view to_string(FpMulAlu a) {
  return name_of(kMulAlu, a);
}

std::optional<FpUnaryOp> parse_fp_unary_op(std::string_view v) {
  return find_name(kFpUnary, v);
}
std::optional<FpBinaryOp> parse_fp_binary_op(std::string_view v) {
  return find_name(kFpBinary, v);
}
std::optional<FxpBinaryOp> parse_fxp_binary_op(std::string_view v) {
  return find_name(kFxp, v);
}
std::optional<LogicBinaryOp> parse_logic_binary_op(std::string_view v) {
  return find_name(kLogic, v);
}
std::optional<ClipBinaryOp> parse_clip_binary_op(std::string_view v) {
  return find_name(kClip, v);
}
std::optional<BinaryArgMode> parse_binary_arg_mode(std::string_view v) {
  return find_name(kMode, v);
}
std::optional<FpMulAlu> parse_fp_mul_alu(std::string_view v) {
  return find_name(kMulAlu, v);
}

VeAlu alu_of(FpUnaryOp op) {
  return op == FpUnaryOp::Exp || op == FpUnaryOp::NegExp ? VeAlu::FpExp : VeAlu::FpFpu;
}

VeAlu alu_of(FpBinaryOp op, FpMulAlu mul) {
  switch (op) {
  case FpBinaryOp::AddF:
  case FpBinaryOp::SubF:
    return VeAlu::FpFma;
  case FpBinaryOp::DivF:
    return VeAlu::FpFpu;
  case FpBinaryOp::MulF:
    break;
  }
  switch (mul) {
  case FpMulAlu::Mul0:
    return VeAlu::FpMul0;
  case FpMulAlu::Mul1:
    return VeAlu::FpMul1;
  case FpMulAlu::Fma:
    break;
  }
  return VeAlu::FpFma;
}

VeAlu alu_of(FxpBinaryOp op) {
  switch (op) {
  case FxpBinaryOp::AddFxp:
  case FxpBinaryOp::AddFxpSat:
  case FxpBinaryOp::SubFxp:
  case FxpBinaryOp::SubFxpSat:
    return VeAlu::FxpAdd;
  case FxpBinaryOp::LeftShift:
  case FxpBinaryOp::LeftShiftSat:
    return VeAlu::FxpLshift;
  case FxpBinaryOp::MulFxp:
  case FxpBinaryOp::MulInt:
    return VeAlu::FxpMul;
  case FxpBinaryOp::LogicRightShift:
  case FxpBinaryOp::ArithRightShift:
  case FxpBinaryOp::ArithRightShiftRound:
    break;
  }
  return VeAlu::FxpRshift;
}

VeAlu alu_of(LogicBinaryOp op) {
  switch (op) {
  case LogicBinaryOp::BitAnd:
    return VeAlu::LogicAnd;
  case LogicBinaryOp::BitOr:
    return VeAlu::LogicOr;
  case LogicBinaryOp::BitXor:
    return VeAlu::LogicXor;
  case LogicBinaryOp::LeftShift:
    return VeAlu::LogicLshift;
  case LogicBinaryOp::LogicRightShift:
  case LogicBinaryOp::ArithRightShift:
    break;
  }
  return VeAlu::LogicRshift;
}

VeAlu alu_of(ClipBinaryOp op) {
  switch (op) {
  case ClipBinaryOp::Min:
  case ClipBinaryOp::AbsMin:
    return VeAlu::ClipMin;
  case ClipBinaryOp::Max:
  case ClipBinaryOp::AbsMax:
    return VeAlu::ClipMax;
  case ClipBinaryOp::AddFxp:
  case ClipBinaryOp::AddFxpSat:
  case ClipBinaryOp::Add:
    break;
  }
  return VeAlu::ClipAdd;
}

std::string_view method_name(VectorCallKind k) {
  switch (k) {
  case VectorCallKind::Init:
    return "vector_init";
  case VectorCallKind::Tag:
    return "vector_intra_slice_tag";
  case VectorCallKind::NarrowSplit:
    return "vector_narrow_split";
  case VectorCallKind::NarrowTrim:
    return "vector_narrow_trim";
  case VectorCallKind::WidenConcat:
    return "vector_widen_concat";
  case VectorCallKind::WidenPad:
    return "vector_widen_pad";
  case VectorCallKind::FpUnary:
    return "vector_fp_unary";
  case VectorCallKind::FpBinary:
    return "vector_fp_binary";
  case VectorCallKind::FpTernary:
    return "vector_fp_ternary";
  case VectorCallKind::FpDiv:
    return "vector_fp_div";
  case VectorCallKind::Fxp:
    return "vector_fxp";
  case VectorCallKind::Logic:
    return "vector_logic";
  case VectorCallKind::Clip:
    return "vector_clip";
  case VectorCallKind::FxpToFp:
    return "vector_fxp_to_fp";
  case VectorCallKind::FpToFxp:
    return "vector_fp_to_fxp";
  case VectorCallKind::Reinterpret:
    return "vector_reinterpret";
  case VectorCallKind::Final:
    return "vector_final";
  case VectorCallKind::Stash:
    return "vector_stash";
  case VectorCallKind::Unzip:
    return "vector_intra_slice_unzip";
  case VectorCallKind::IntraSliceReduce:
    return "vector_intra_slice_reduce";
  case VectorCallKind::InterSliceReduce:
    return "vector_inter_slice_reduce";
  }
  return "?";
}

std::string method_name(const VectorCall& c) {
  return fmt::format("{}{}", method_name(c.kind), c.zip ? "_zip" : "");
}

std::optional<VeStage> stage_of(VectorCallKind k) {
  switch (k) {
  case VectorCallKind::Init:
    return VeStage::Init;
  case VectorCallKind::Tag:
    return VeStage::Tag;
  case VectorCallKind::NarrowSplit:
  case VectorCallKind::NarrowTrim:
    return VeStage::Narrow;
  case VectorCallKind::WidenConcat:
  case VectorCallKind::WidenPad:
    return VeStage::Widen;
  case VectorCallKind::FpUnary:
  case VectorCallKind::FpBinary:
  case VectorCallKind::FpTernary:
    return VeStage::Fp;
  case VectorCallKind::FpDiv:
    return VeStage::FpDiv;
  case VectorCallKind::Fxp:
    return VeStage::Fxp;
  case VectorCallKind::Logic:
    return VeStage::Logic;
  case VectorCallKind::Clip:
    return VeStage::Clip;
  case VectorCallKind::FxpToFp:
    return VeStage::FxpToFp;
  case VectorCallKind::FpToFxp:
    return VeStage::FpToFxp;
  case VectorCallKind::Unzip: // the pair enters at the Tag stage (vector_tensor_pair.rs)
    return VeStage::Tag;
  case VectorCallKind::Reinterpret:
  case VectorCallKind::Stash:
    return std::nullopt;
  case VectorCallKind::Final:
    return VeStage::Final;
  case VectorCallKind::IntraSliceReduce:
    return VeStage::IntraSliceReduce;
  case VectorCallKind::InterSliceReduce: // outside the intra-slice chain (§3.7)
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<VeAlu> VectorCall::alu() const {
  switch (kind) {
  case VectorCallKind::FpUnary:
    return alu_of(std::get<FpUnaryOp>(op));
  case VectorCallKind::FpBinary:
    return alu_of(std::get<FpBinaryOp>(op), mul);
  case VectorCallKind::FpTernary:
    return VeAlu::FpFma;
  case VectorCallKind::FpDiv:
    return VeAlu::FpDiv;
  case VectorCallKind::Fxp:
    return alu_of(std::get<FxpBinaryOp>(op));
  case VectorCallKind::Logic:
    return alu_of(std::get<LogicBinaryOp>(op));
  case VectorCallKind::Clip:
    return alu_of(std::get<ClipBinaryOp>(op));
  case VectorCallKind::IntraSliceReduce:
    return VeAlu::ReduceAccTree;
  default:
    return std::nullopt;
  }
}

namespace {
std::string operand_text(std::uint32_t bits) {
  return fmt::format("{:#010x}", bits);
}
} // namespace

namespace {
std::string comparisons_text(const TagComparisons& cmps) {
  std::string s;
  for (const VeCmp& c : cmps) {
    s += s.empty() ? "" : ", ";
    s += has_boundary(c.kind)
             ? fmt::format("Cmp::{}({})", to_string(c.kind), operand_text(c.boundary))
             : fmt::format("Cmp::{}", to_string(c.kind));
  }
  return "TagMode::Comparison([" + s + "])";
}

/// `Branched::imm(g, c)….rf(g, &vrf)`; `read` names the rf slot's source.
std::string branches_text(const VeBranches& b, bool ternary, std::string_view read) {
  std::string s = "Branched";
  const auto payload = [ternary](std::string first, std::uint32_t second) {
    return ternary ? fmt::format("({}, {})", first, operand_text(second)) : first;
  };
  for (const VeSlot& slot : b.imm)
    s += fmt::format("{}imm({}, {})", s == "Branched" ? "::" : ".", slot.guard.describe(),
                     payload(operand_text(slot.operand[0]), slot.operand[1]));
  if (b.rf)
    s += fmt::format("{}rf({}, {})", s == "Branched" ? "::" : ".", b.rf_guard.describe(),
                     payload(std::string(read), b.rf_operand1));
  return s;
}
} // namespace

std::string VectorCall::op_text() const {
  switch (kind) {
  case VectorCallKind::FpUnary:
    return fmt::format("FpUnaryOp::{}", to_string(std::get<FpUnaryOp>(op)));
  case VectorCallKind::FpBinary: {
    const FpBinaryOp o = std::get<FpBinaryOp>(op);
    return o == FpBinaryOp::MulF ? fmt::format("FpBinaryOp::MulF(FpMulAlu::{})", to_string(mul))
                                 : fmt::format("FpBinaryOp::{}", to_string(o));
  }
  case VectorCallKind::FpTernary:
    return "FpTernaryOp::FmaF";
  case VectorCallKind::FpDiv:
    return "FpDivBinaryOp::DivF";
  case VectorCallKind::Fxp:
    return fmt::format("FxpBinaryOp::{}", to_string(std::get<FxpBinaryOp>(op)));
  case VectorCallKind::Logic:
    return std::string(to_string(std::get<LogicBinaryOp>(op)));
  case VectorCallKind::Clip:
    return std::string(to_string(std::get<ClipBinaryOp>(op)));
  default:
    return "";
  }
}

std::string VectorCall::describe_pair() const {
  const std::string m = method_name(*this);
  if (zip) return fmt::format("{}({}, {})", m, op_text(), to_string(mode));
  const VeGroupArgs& g = *groups;
  std::string args;
  for (std::size_t k = 0; k < 2; ++k) {
    std::string a;
    if (kind == VectorCallKind::FpUnary)
      a = g.runs[k] ? "true" : "false";
    else if (!g.runs[k])
      a = "()";
    else if (kind == VectorCallKind::FpTernary)
      a = fmt::format("({}, {})", operand_text(g.operand[k][0]), operand_text(g.operand[k][1]));
    else
      a = operand_text(g.operand[k][0]);
    args += ", " + a;
  }
  if (kind == VectorCallKind::FpUnary) return fmt::format("{}({}{})", m, op_text(), args);
  if (kind == VectorCallKind::FpTernary)
    return fmt::format("{}({}, TernaryArgMode::{}{})", m, op_text(), to_string(ternary_mode), args);
  return fmt::format("{}({}, {}{})", m, op_text(), to_string(mode), args);
}

std::string VectorCall::describe() const {
  const std::string_view m = method_name(kind);
  const auto text = [this](std::size_t k) {
    if (k == 0 && reads_vrf()) return std::string("&vrf");
    if (k == 0 && reads_stash()) return std::string("Stash");
    return operand_text(operand[k]);
  };
  if (branches) {
    const bool ternary = kind == VectorCallKind::FpTernary;
    const std::string b = branches_text(*branches, ternary, reads_stash() ? "Stash" : "&vrf");
    if (ternary)
      return fmt::format("{}(FpTernaryOp::FmaF, TernaryArgMode::{}, {})", m,
                         to_string(ternary_mode), b);
    VectorCall plain = *this;
    plain.branches.reset();
    plain.source = VeOperandSource::Constant;
    // The plain form's text with its last argument (the operand) replaced by the slots.
    std::string s = plain.describe();
    const std::size_t cut = s.rfind(", ");
    return s.substr(0, cut) + ", " + b + ")";
  }
  if (groups || zip) return describe_pair();
  switch (kind) {
  case VectorCallKind::Tag:
    if (comparisons) return fmt::format("{}({})", m, comparisons_text(*comparisons));
    return std::string(m);
  case VectorCallKind::FpUnary:
    if (!guard.unconditional())
      return fmt::format("{}(({}, FpUnaryOp::{}))", m, guard.describe(),
                         to_string(std::get<FpUnaryOp>(op)));
    return fmt::format("{}(FpUnaryOp::{})", m, to_string(std::get<FpUnaryOp>(op)));
  case VectorCallKind::FpBinary: {
    const FpBinaryOp o = std::get<FpBinaryOp>(op);
    const std::string name = o == FpBinaryOp::MulF
                                 ? fmt::format("MulF(FpMulAlu::{})", to_string(mul))
                                 : std::string(to_string(o));
    return fmt::format("{}(FpBinaryOp::{}, {}, {})", m, name, to_string(mode), text(0));
  }
  case VectorCallKind::FpTernary:
    if (ternary_mode != TernaryArgMode::Mode012)
      return fmt::format("{}(FpTernaryOp::FmaF, TernaryArgMode::{}, ({}, {}))", m,
                         to_string(ternary_mode), text(0), text(1));
    return fmt::format("{}(FpTernaryOp::FmaF, ({}, {}))", m, text(0), text(1));
  case VectorCallKind::FpDiv:
    return fmt::format("{}(FpDivBinaryOp::DivF, {}, {})", m, to_string(mode), text(0));
  case VectorCallKind::Fxp:
    return fmt::format("{}(FxpBinaryOp::{}, {}, {})", m, to_string(std::get<FxpBinaryOp>(op)),
                       to_string(mode), text(0));
  case VectorCallKind::Logic:
    return fmt::format("{}({}, {}, {})", m, to_string(std::get<LogicBinaryOp>(op)), to_string(mode),
                       text(0));
  case VectorCallKind::Clip:
    return fmt::format("{}({}, {}, {})", m, to_string(std::get<ClipBinaryOp>(op)), to_string(mode),
                       text(0));
  case VectorCallKind::FxpToFp:
  case VectorCallKind::FpToFxp:
    return fmt::format("{}({})", m, int_width);
  case VectorCallKind::IntraSliceReduce:
  case VectorCallKind::InterSliceReduce:
    if (!reduce) return std::string(m);
    return fmt::format("{}({}SliceReduceOp::{}) ({} lane{} × {} step{})", m,
                       kind == VectorCallKind::IntraSliceReduce ? "Intra" : "Inter",
                       to_string(reduce->op), reduce->lanes, reduce->lanes == 1 ? "" : "s",
                       reduce->steps, reduce->steps == 1 ? "" : "s");
  default:
    return std::string(m);
  }
}

} // namespace tujit::ir
