#include "ir/lang/vector_args.h"

#include "ir/lang/vector_branch_args.h"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace tujit::ir::lang {

namespace {

struct KindName {
  std::string_view method;
  VectorCallKind kind;
};

constexpr KindName kKinds[] = {
    {"vector_init", VectorCallKind::Init},
    {"vector_intra_slice_tag", VectorCallKind::Tag},
    {"vector_narrow_split", VectorCallKind::NarrowSplit},
    {"vector_narrow_trim", VectorCallKind::NarrowTrim},
    {"vector_widen_concat", VectorCallKind::WidenConcat},
    {"vector_widen_pad", VectorCallKind::WidenPad},
    {"vector_fp_unary", VectorCallKind::FpUnary},
    {"vector_fp_binary", VectorCallKind::FpBinary},
    {"vector_fp_binary_with_mode", VectorCallKind::FpBinary},
    {"vector_fp_ternary", VectorCallKind::FpTernary},
    {"vector_fp_ternary_with_mode", VectorCallKind::FpTernary},
    {"vector_fp_div", VectorCallKind::FpDiv},
    {"vector_fp_div_with_mode", VectorCallKind::FpDiv},
    {"vector_fxp", VectorCallKind::Fxp},
    {"vector_fxp_with_mode", VectorCallKind::Fxp},
    {"vector_logic", VectorCallKind::Logic},
    {"vector_logic_with_mode", VectorCallKind::Logic},
    {"vector_clip", VectorCallKind::Clip},
    {"vector_clip_with_mode", VectorCallKind::Clip},
    {"vector_fxp_to_fp", VectorCallKind::FxpToFp},
    {"vector_fp_to_fxp", VectorCallKind::FpToFxp},
    {"vector_reinterpret", VectorCallKind::Reinterpret},
    {"vector_final", VectorCallKind::Final},
    {"vector_stash", VectorCallKind::Stash},
    {"vector_intra_slice_unzip", VectorCallKind::Unzip},
    {"vector_intra_slice_reduce", VectorCallKind::IntraSliceReduce},
    {"vector_inter_slice_reduce", VectorCallKind::InterSliceReduce},
    {"vector_logic_zip", VectorCallKind::Logic},
    {"vector_logic_zip_with_mode", VectorCallKind::Logic},
    {"vector_fxp_zip", VectorCallKind::Fxp},
    {"vector_fxp_zip_with_mode", VectorCallKind::Fxp},
    {"vector_fp_zip", VectorCallKind::FpBinary},
    {"vector_fp_zip_with_mode", VectorCallKind::FpBinary},
    {"vector_clip_zip", VectorCallKind::Clip},
    {"vector_clip_zip_with_mode", VectorCallKind::Clip},
};

constexpr std::string_view kChain = "docs/vector-engine.md §3";

class ArgTyper {
public:
  ArgTyper(const Expr& call, ScalarType dtype, bool paired, const BoundValues& bound,
           Diagnostics& diags)
      : call_(call), dtype_(dtype), paired_(paired), bound_(bound), diags_(diags) {}

  std::optional<VectorCall> run(VectorCallKind kind) {
    VectorCall v;
    v.kind = kind;
    const bool with_mode = call_.name.ends_with("_with_mode");
    v.zip = call_.name.find("_zip") != std::string::npos;
    if (v.zip) return zip(v, with_mode);
    if (paired_ && takes_group_args(kind)) return per_group(v, with_mode);
    switch (kind) {
    case VectorCallKind::Tag:
      if (!tag_mode(v)) return std::nullopt;
      return v;
    case VectorCallKind::FpUnary: {
      if (!arity(1) || !fp_stream()) return std::nullopt;
      const Expr* op_arg = &call_.args[0];
      if (op_arg->kind == Expr::Kind::Tuple) op_arg = type_guarded_unary(*op_arg, v, cx());
      if (!op_arg) return std::nullopt;
      if (auto op = variant(*op_arg, "FpUnaryOp", parse_fp_unary_op)) {
        v.op = *op;
        return v;
      }
      return std::nullopt;
    }
    case VectorCallKind::FpBinary:
      return binary<FpBinaryOp>(v, with_mode, "FpBinaryOp", parse_fp_binary_op, true);
    case VectorCallKind::FpDiv: {
      // The reference's `vector_fp_div[_with_mode]([mode,] operand)`: the divider's one op is
      // DivF; `FpDivBinaryOp::DivF` may be named first.
      const bool named = !call_.args.empty() && call_.args[0].kind == Expr::Kind::Path &&
                         call_.args[0].path.size() == 2 && call_.args[0].path[0] == "FpDivBinaryOp";
      const std::size_t first = named ? 1 : 0;
      if (!arity(first + (with_mode ? 2 : 1)) || !fp_stream()) return std::nullopt;
      if (named && !variant(call_.args[0], "FpDivBinaryOp", [](std::string_view n) {
            return n == "DivF" ? std::optional<FpBinaryOp>(FpBinaryOp::DivF) : std::nullopt;
          }))
        return std::nullopt;
      v.op = FpBinaryOp::DivF;
      if (with_mode && !arg_mode(call_.args[first], v)) return std::nullopt;
      if (!operand(call_.args.back(), v, 0)) return std::nullopt;
      return v;
    }
    case VectorCallKind::FpTernary: {
      if (!arity(with_mode ? 3 : 2) || !fp_stream()) return std::nullopt;
      if (!variant(call_.args[0], "FpTernaryOp", [](std::string_view n) {
            return n == "FmaF" ? std::optional<int>(0) : std::nullopt;
          }))
        return std::nullopt;
      if (with_mode) {
        auto m = variant(call_.args[1], "TernaryArgMode", parse_ternary_arg_mode);
        if (!m) return std::nullopt;
        v.ternary_mode = *m;
      }
      const Expr& pair = call_.args.back();
      if (is_branched(pair)) {
        if (!type_branched(pair, true, v, cx())) return std::nullopt;
        return v;
      }
      if (pair.kind != Expr::Kind::Tuple || pair.args.size() != 2) {
        bad_arg("`vector_fp_ternary` takes its two operands as a pair `(operand0, operand1)`, "
                "or a `Branched` operand whose slots hold pairs",
                pair.span);
        return std::nullopt;
      }
      if (!operand(pair.args[0], v, 0) || !operand(pair.args[1], v, 1)) return std::nullopt;
      return v;
    }
    case VectorCallKind::Fxp:
      if (!i32_stream()) return std::nullopt;
      return binary<FxpBinaryOp>(v, with_mode, "FxpBinaryOp", parse_fxp_binary_op, false);
    case VectorCallKind::Logic:
      return logic_or_clip<LogicBinaryOp>(v, with_mode, "LogicBinaryOp", parse_logic_binary_op);
    case VectorCallKind::Clip:
      return logic_or_clip<ClipBinaryOp>(v, with_mode, "ClipBinaryOp", parse_clip_binary_op);
    case VectorCallKind::IntraSliceReduce: {
      // `IntraSliceReduceOpI32::{AddSat, Max, Min}` / `IntraSliceReduceOpF32::{Add, Max, Min}`.
      if (!arity(1)) return std::nullopt;
      auto op = scalar_variant<ReduceOp>(call_.args[0], "IntraSliceReduceOp", parse_reduce_op);
      if (!op) return std::nullopt;
      v.reduce = VeReduce{*op};
      return v;
    }
    case VectorCallKind::InterSliceReduce: {
      // `InterSliceReduceOpI32::{Add, AddSat, Max, Min}` / `InterSliceReduceOpF32::{Add, Max, Min,
      // Mul}` (docs/vector-engine.md §3.7).
      if (!arity(1)) return std::nullopt;
      auto op = scalar_variant<ReduceOp>(call_.args[0], "InterSliceReduceOp", parse_inter_op);
      if (!op) return std::nullopt;
      v.reduce = VeReduce{*op};
      return v;
    }
    case VectorCallKind::FxpToFp:
    case VectorCallKind::FpToFxp:
      if (!arity(1)) return std::nullopt;
      if (kind == VectorCallKind::FxpToFp ? !i32_stream() : !fp_stream()) return std::nullopt;
      if (call_.args[0].kind != Expr::Kind::Int || call_.args[0].int_value < 0 ||
          call_.args[0].int_value > 31) {
        bad_arg("`int_width` is an integer literal 0 … 31 (31: the plain i32 ↔ f32 conversion)",
                call_.args[0].span);
        return std::nullopt;
      }
      v.int_width = static_cast<std::uint32_t>(call_.args[0].int_value);
      return v;
    case VectorCallKind::Init:
    case VectorCallKind::NarrowSplit:
    case VectorCallKind::NarrowTrim:
    case VectorCallKind::WidenConcat:
    case VectorCallKind::WidenPad:
    case VectorCallKind::Reinterpret:
    case VectorCallKind::Final:
    case VectorCallKind::Stash:
    case VectorCallKind::Unzip:
      if (!arity(0)) return std::nullopt;
      return v;
    }
    return std::nullopt;
  }

private:
  void error(std::string code, std::string msg, SourceSpan span, std::vector<std::string> notes) {
    Diagnostic d = make_error(std::move(code), std::move(msg), span, std::move(notes));
    d.stage = "type";
    diags_.push_back(std::move(d));
  }

  void bad_arg(std::string msg, SourceSpan span) {
    error("E-VE-015", std::move(msg), span,
          {fmt::format("the arguments of each Vector Engine method are listed in {}", kChain)});
  }

  void refuse(std::string why, SourceSpan span) {
    error("E-VE-013", fmt::format("not simulated by tujit: `{}` with this argument", call_.name),
          span, {std::move(why), fmt::format("{} lists what tujit simulates", kChain)});
  }

  bool arity(std::size_t n) {
    if (call_.args.size() == n) return true;
    bad_arg(fmt::format("`{}` takes {} argument{}, found {}", call_.name, n, n == 1 ? "" : "s",
                        call_.args.size()),
            call_.args.empty() ? call_.span : call_.args.front().span);
    return false;
  }

  bool stream_is(ScalarType want, std::string_view what) {
    if (dtype_ == want) return true;
    error("E-VE-006",
          fmt::format("`{}` runs on an {} stream, but this stream is {}", call_.name, name(want),
                      name(dtype_)),
          call_.name_span,
          {fmt::format("{}; convert with vector_fxp_to_fp / vector_fp_to_fxp (values) or "
                       "vector_reinterpret (bits) first",
                       what)});
    return false;
  }
  bool fp_stream() { return stream_is(ScalarType::F32, "the Float cluster computes on f32"); }
  bool i32_stream() { return stream_is(ScalarType::I32, "the Fxp cluster computes on i32"); }

  /// What the branch typer (ir/lang/vector_branch_args.h) borrows from this call's typer.
  VeArgContext cx() {
    return VeArgContext{
        dtype_, bound_, [this](const Expr& a, std::uint32_t& bits) { return constant(a, bits); },
        [this](std::string code, std::string msg, SourceSpan span, std::vector<std::string> notes) {
          error(std::move(code), std::move(msg), span, std::move(notes));
        }};
  }

  /// `TagMode::Zero` or `TagMode::Comparison([…])` (docs/vector-engine.md §3.4).
  bool tag_mode(VectorCall& v) {
    if (!arity(1)) return false;
    const Expr& a = call_.args[0];
    const bool named = (a.kind == Expr::Kind::Path || a.kind == Expr::Kind::PathCall ||
                        a.kind == Expr::Kind::StructLit || a.kind == Expr::Kind::Other) &&
                       !a.path.empty() && a.path[0] == "TagMode";
    if (named && a.kind == Expr::Kind::Path && a.name == "Zero") return true;
    if (named && a.kind == Expr::Kind::PathCall && a.name == "Comparison") {
      v.comparisons = type_tag_comparisons(a, cx());
      return v.comparisons.has_value();
    }
    if (named && a.name == "AxisToggle") {
      error("E-VE-022", "`TagMode::AxisToggle` does not compile for the device", a.span,
            {"the book declares it but rejects it when a kernel is lowered; "
             "vector_intra_slice_unzip() is the supported route to a group split "
             "(docs/vector-engine.md §3.4)"});
      return false;
    }
    bad_arg("`vector_intra_slice_tag` takes `TagMode::Zero` or `TagMode::Comparison([…])`", a.span);
    return false;
  }

  /// `Enum::Variant` (or `Enum::Variant(…)` for MulF), checked against `enums` names.
  template <class Parse>
  auto variant(const Expr& a, std::string_view enum_name, Parse parse)
      -> decltype(parse(std::string_view{})) {
    const bool path =
        (a.kind == Expr::Kind::Path || a.kind == Expr::Kind::PathCall) && a.path.size() == 2;
    if (path && a.path[0] == enum_name) {
      if (auto v = parse(a.name)) return v;
      bad_arg(fmt::format("`{}` has no variant `{}`", enum_name, a.name), a.name_span);
      return std::nullopt;
    }
    bad_arg(fmt::format("the first argument of `{}` is a `{}::…` variant", call_.name, enum_name),
            a.span);
    return std::nullopt;
  }

  bool arg_mode(const Expr& a, VectorCall& v) {
    if (auto m = variant(a, "BinaryArgMode", parse_binary_arg_mode)) {
      v.mode = *m;
      return true;
    }
    return false;
  }

  /// Operand `slot` of the call: a constant of the stream's scalar, or for operand0 a `&vrf`
  /// (its tensor is typed by sema, Stage::vrf). Other operand sources are refused.
  bool operand(const Expr& a, VectorCall& v, std::size_t slot) {
    if (slot == 0 && is_branched(a)) return type_branched(a, false, v, cx());
    if (a.kind == Expr::Kind::Name && a.name == "Stash") {
      if (slot == 0) {
        v.source = VeOperandSource::Stash; // the chain's rules: E-VE-019, E-VE-020
        return true;
      }
      refuse("the stash feeds operand0 only: FmaF pairs it with a constant as `(Stash, c)`",
             a.span);
      return false;
    }
    // `&vrf`, or a name already bound to a reference (`vrf: &VrfTensor<…>`); a name bound to a
    // number is a constant.
    const bool tensor =
        a.kind == Expr::Kind::Ref || (a.kind == Expr::Kind::Name && !bound_number(a));
    if (!tensor) return constant(a, v.operand[slot]);
    if (slot == 0) {
      v.source = VeOperandSource::Vrf;
      return true;
    }
    refuse("the register-file port feeds operand0 only: FmaF pairs a VRF with a constant as "
           "`(&vrf, c)`",
           a.span);
    return false;
  }

  /// The literal a name is bound to by `let` (sema's constant folding), or nullptr.
  const Expr* bound_number(const Expr& a) const {
    if (a.kind != Expr::Kind::Name) return nullptr;
    auto it = bound_.find(a.name);
    if (it == bound_.end()) return nullptr;
    const Expr* e = it->second;
    return e->kind == Expr::Kind::Int || e->kind == Expr::Kind::Float ? e : nullptr;
  }

  /// A constant operand of the stream's scalar.
  bool constant(const Expr& a, std::uint32_t& bits) {
    if (const Expr* n = bound_number(a)) return constant(*n, bits);
    if (dtype_ == ScalarType::I32) {
      if (a.kind == Expr::Kind::Int && !a.int_overflow &&
          a.int_value >= std::numeric_limits<std::int32_t>::min() &&
          a.int_value <= std::numeric_limits<std::int32_t>::max()) {
        bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(a.int_value));
        return true;
      }
      bad_arg("the operand of an i32 stream is an i32 literal (-2147483648 … 2147483647)", a.span);
      return false;
    }
    if (a.kind == Expr::Kind::Float) {
      // Rust reads an f32 literal as the f32 nearest to the decimal: parse it as a float
      // directly (a detour through double could round twice).
      float f = 0;
      const std::string& t = a.float_text;
      auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), f);
      if (ec == std::errc() && end == t.data() + t.size() && std::isfinite(f)) {
        bits = std::bit_cast<std::uint32_t>(f);
        return true;
      }
    }
    bad_arg("the operand of an f32 stream is a finite f32 literal such as `2.0f32`", a.span);
    return false;
  }

  template <class Op, class Parse>
  std::optional<VectorCall> binary(VectorCall v, bool with_mode, std::string_view enum_name,
                                   Parse parse, bool fp) {
    if (!arity(with_mode ? 3 : 2)) return std::nullopt;
    if (fp && !fp_stream()) return std::nullopt;
    const Expr& a = call_.args[0];
    auto op = variant(a, enum_name, parse);
    if (!op) return std::nullopt;
    if constexpr (std::is_same_v<Op, FpBinaryOp>) {
      if (*op == FpBinaryOp::MulF) {
        if (a.kind != Expr::Kind::PathCall || a.args.size() != 1) {
          bad_arg("`FpBinaryOp::MulF` names its ALU: `FpBinaryOp::MulF(FpMulAlu::Mul0)` (or "
                  "Mul1, Fma)",
                  a.span);
          return std::nullopt;
        }
        auto mul = variant(a.args[0], "FpMulAlu", parse_fp_mul_alu);
        if (!mul) return std::nullopt;
        v.mul = *mul;
      }
    }
    if constexpr (std::is_same_v<Op, FxpBinaryOp>) {
      if (*op == FxpBinaryOp::ArithRightShiftRound) {
        refuse("the reference implementation leaves ArithRightShiftRound's rounding undefined "
               "(its semantics are a `todo!`), so tujit has nothing to simulate",
               a.span);
        return std::nullopt;
      }
    }
    v.op = *op;
    if (with_mode && !arg_mode(call_.args[1], v)) return std::nullopt;
    if (!operand(call_.args[with_mode ? 2 : 1], v, 0)) return std::nullopt;
    return v;
  }

  /// `LogicBinaryOpI32::BitAnd` / `LogicBinaryOpF32::BitAnd`, `ClipBinaryOpI32::Max` / …F32: the
  /// enum's scalar must be the stream's, and the variant one that enum has.
  template <class Op, class Parse>
  std::optional<VectorCall> logic_or_clip(VectorCall v, bool with_mode, std::string_view base,
                                          Parse parse) {
    if (!arity(with_mode ? 3 : 2)) return std::nullopt;
    auto op = scalar_variant<Op>(call_.args[0], base, parse);
    if (!op) return std::nullopt;
    v.op = *op;
    if (with_mode && !arg_mode(call_.args[1], v)) return std::nullopt;
    if (!operand(call_.args[with_mode ? 2 : 1], v, 0)) return std::nullopt;
    return v;
  }

  static bool valid_for_scalar(LogicBinaryOp op, bool f32) {
    return !f32 || op == LogicBinaryOp::BitAnd || op == LogicBinaryOp::BitOr ||
           op == LogicBinaryOp::BitXor;
  }
  static std::optional<ReduceOp> parse_reduce_op(std::string_view n) {
    for (ReduceOp op : {ReduceOp::Add, ReduceOp::AddSat, ReduceOp::Max, ReduceOp::Min})
      if (n == to_string(op)) return op;
    return std::nullopt;
  }
  static std::optional<ReduceOp> parse_inter_op(std::string_view n) {
    for (ReduceOp op :
         {ReduceOp::Add, ReduceOp::AddSat, ReduceOp::Max, ReduceOp::Min, ReduceOp::Mul})
      if (n == to_string(op)) return op;
    return std::nullopt;
  }
  /// The op enums' variants: intra-slice i32 {AddSat, Max, Min}, f32 {Add, Max, Min}; inter-slice
  /// i32 {Add, AddSat, Max, Min}, f32 {Add, Max, Min, Mul}.
  bool valid_for_scalar(ReduceOp op, bool f32) const {
    if (call_.name == "vector_inter_slice_reduce")
      return f32 ? op != ReduceOp::AddSat : op != ReduceOp::Mul;
    return f32 ? op != ReduceOp::AddSat && op != ReduceOp::Mul
               : op != ReduceOp::Add && op != ReduceOp::Mul;
  }
  static bool valid_for_scalar(ClipBinaryOp op, bool f32) {
    if (f32) return op != ClipBinaryOp::AddFxp && op != ClipBinaryOp::AddFxpSat;
    return op != ClipBinaryOp::Add;
  }

  // ---- pair mode (docs/vector-engine.md §3.5) ----------------------------------------------

  static bool takes_group_args(VectorCallKind k) {
    switch (k) {
    case VectorCallKind::FpUnary:
    case VectorCallKind::FpBinary:
    case VectorCallKind::FpTernary:
    case VectorCallKind::FpDiv:
    case VectorCallKind::Fxp:
    case VectorCallKind::Logic:
    case VectorCallKind::Clip:
      return true;
    default:
      return false;
    }
  }

  /// `vector_*_zip[_with_mode](op[, mode])`: the op of the call's kind on the two groups.
  std::optional<VectorCall> zip(VectorCall v, bool with_mode) {
    if (!paired_) {
      error("E-VE-025",
            fmt::format("`{}` zips the two groups of pair mode, but this stream is "
                        "not a pair",
                        call_.name),
            call_.name_span,
            {"a `_zip` op follows vector_init().vector_intra_slice_unzip::<I, …>() and comes "
             "once; after it the stream is one (docs/vector-engine.md §3.5)"});
      return std::nullopt;
    }
    if (!arity(with_mode ? 2 : 1)) return std::nullopt;
    const Expr& a = call_.args[0];
    switch (v.kind) {
    case VectorCallKind::FpBinary: {
      if (!fp_stream()) return std::nullopt;
      auto op = variant(a, "FpBinaryOp", parse_fp_binary_op);
      if (!op || !mul_alu(a, *op, v)) return std::nullopt;
      v.op = *op;
      break;
    }
    case VectorCallKind::Fxp: {
      if (!i32_stream()) return std::nullopt;
      auto op = variant(a, "FxpBinaryOp", parse_fxp_binary_op);
      if (!op || !known_fxp(a, *op)) return std::nullopt;
      v.op = *op;
      break;
    }
    case VectorCallKind::Logic: {
      auto op = scalar_variant<LogicBinaryOp>(a, "LogicBinaryOp", parse_logic_binary_op);
      if (!op) return std::nullopt;
      v.op = *op;
      break;
    }
    default: {
      auto op = scalar_variant<ClipBinaryOp>(a, "ClipBinaryOp", parse_clip_binary_op);
      if (!op) return std::nullopt;
      v.op = *op;
      break;
    }
    }
    if (with_mode && !arg_mode(call_.args[1], v)) return std::nullopt;
    return v;
  }

  /// A call of the paired phase: one argument per group after the op (and the mode): a constant
  /// or `()` (skip), a ternary's `(c0, c1)` or `()`, a unary op's `true` / `false`.
  std::optional<VectorCall> per_group(VectorCall v, bool with_mode) {
    VeGroupArgs g;
    const bool unary = v.kind == VectorCallKind::FpUnary;
    const bool div = v.kind == VectorCallKind::FpDiv;
    const std::size_t lead = div ? (with_mode ? 1 : 0) : (with_mode ? 2 : 1);
    if (call_.args.size() != lead + 2) {
      error("E-VE-024",
            fmt::format("`{}` in pair mode takes {} argument{} then one per group, found {} "
                        "argument{}",
                        call_.name, lead, lead == 1 ? "" : "s", call_.args.size(),
                        call_.args.size() == 1 ? "" : "s"),
            call_.args.empty() ? call_.name_span : call_.args.front().span,
            {unary ? "a unary op takes `(op, group0_apply, group1_apply)`: `false` skips a group"
                   : "each group takes its own operand, `()` to skip it: "
                     "`vector_fxp(FxpBinaryOp::MulInt, 10, ())` (docs/vector-engine.md §3.5)"});
      return std::nullopt;
    }
    if (unary) {
      if (!fp_stream()) return std::nullopt;
      auto op = variant(call_.args[0], "FpUnaryOp", parse_fp_unary_op);
      if (!op) return std::nullopt;
      v.op = *op;
      for (std::size_t k = 0; k < 2; ++k)
        if (!flag(call_.args[1 + k], g.runs[k])) return std::nullopt;
      v.groups = g;
      return v;
    }
    if (!group_op(v, with_mode)) return std::nullopt;
    for (std::size_t k = 0; k < 2; ++k)
      if (!group_operand(call_.args[lead + k], v.kind == VectorCallKind::FpTernary, g.runs[k],
                         g.operand[k]))
        return std::nullopt;
    v.groups = g;
    return v;
  }

  /// The op (and mode) of a per-group binary or ternary call.
  bool group_op(VectorCall& v, bool with_mode) {
    const Expr& a = call_.args[0];
    switch (v.kind) {
    case VectorCallKind::FpDiv:
      if (!fp_stream()) return false;
      v.op = FpBinaryOp::DivF;
      return !with_mode || arg_mode(call_.args[0], v);
    case VectorCallKind::FpTernary: {
      if (!fp_stream()) return false;
      if (!variant(a, "FpTernaryOp", [](std::string_view n) {
            return n == "FmaF" ? std::optional<int>(0) : std::nullopt;
          }))
        return false;
      if (!with_mode) return true;
      auto m = variant(call_.args[1], "TernaryArgMode", parse_ternary_arg_mode);
      if (m) v.ternary_mode = *m;
      return m.has_value();
    }
    case VectorCallKind::FpBinary: {
      if (!fp_stream()) return false;
      auto op = variant(a, "FpBinaryOp", parse_fp_binary_op);
      if (!op || !mul_alu(a, *op, v)) return false;
      v.op = *op;
      break;
    }
    case VectorCallKind::Fxp: {
      if (!i32_stream()) return false;
      auto op = variant(a, "FxpBinaryOp", parse_fxp_binary_op);
      if (!op || !known_fxp(a, *op)) return false;
      v.op = *op;
      break;
    }
    case VectorCallKind::Logic: {
      auto op = scalar_variant<LogicBinaryOp>(a, "LogicBinaryOp", parse_logic_binary_op);
      if (!op) return false;
      v.op = *op;
      break;
    }
    default: {
      auto op = scalar_variant<ClipBinaryOp>(a, "ClipBinaryOp", parse_clip_binary_op);
      if (!op) return false;
      v.op = *op;
      break;
    }
    }
    return !with_mode || arg_mode(call_.args[1], v);
  }

  /// `true` / `false`.
  bool flag(const Expr& a, bool& out) {
    if (a.kind == Expr::Kind::Name && (a.name == "true" || a.name == "false")) {
      out = a.name == "true";
      return true;
    }
    bad_arg("a unary op's group flags are `true` (apply) or `false` (skip)", a.span);
    return false;
  }

  /// One group's operand: `()` skips the group; a constant (a ternary's `(c0, c1)`).
  bool group_operand(const Expr& a, bool ternary, bool& runs, std::array<std::uint32_t, 2>& bits) {
    if (a.kind == Expr::Kind::Tuple && a.args.empty()) {
      runs = false;
      return true;
    }
    runs = true;
    if (ternary) {
      if (a.kind != Expr::Kind::Tuple || a.args.size() != 2) {
        bad_arg("a group's FmaF operands are a pair `(operand0, operand1)`, or `()` to skip the "
                "group",
                a.span);
        return false;
      }
      return group_constant(a.args[0], bits[0]) && group_constant(a.args[1], bits[1]);
    }
    return group_constant(a, bits[0]);
  }

  bool group_constant(const Expr& a, std::uint32_t& bits) {
    if (a.kind == Expr::Kind::Name && a.name == "Stash") {
      error("E-VE-026", "the stash is unavailable in pair mode", a.span,
            {"pair mode drops vector_stash() and vector_filter() in both phases; keep a value "
             "read later in the VRF (docs/vector-engine.md §3.5)"});
      return false;
    }
    if (is_branched(a)) {
      bad_arg("a pair op takes no `Branched` operand: its two groups use the branch unit's "
              "guards",
              a.span);
      return false;
    }
    if (a.kind == Expr::Kind::Ref || (a.kind == Expr::Kind::Name && !bound_number(a))) {
      refuse("a VRF operand of a pair op is not simulated: each group takes a constant or `()`",
             a.span);
      return false;
    }
    return constant(a, bits);
  }

  bool mul_alu(const Expr& a, FpBinaryOp op, VectorCall& v) {
    if (op != FpBinaryOp::MulF) return true;
    if (a.kind != Expr::Kind::PathCall || a.args.size() != 1) {
      bad_arg("`FpBinaryOp::MulF` names its ALU: `FpBinaryOp::MulF(FpMulAlu::Mul0)` (or Mul1, "
              "Fma)",
              a.span);
      return false;
    }
    auto mul = variant(a.args[0], "FpMulAlu", parse_fp_mul_alu);
    if (mul) v.mul = *mul;
    return mul.has_value();
  }

  bool known_fxp(const Expr& a, FxpBinaryOp op) {
    if (op != FxpBinaryOp::ArithRightShiftRound) return true;
    refuse("the reference implementation leaves ArithRightShiftRound's rounding undefined (its "
           "semantics are a `todo!`), so tujit has nothing to simulate",
           a);
    return false;
  }
  void refuse(std::string why, const Expr& a) { refuse(std::move(why), a.span); }

  /// A Logic / Clip op of the stream's scalar (`LogicBinaryOpI32::…` on i32).
  template <class Op, class Parse>
  std::optional<Op> scalar_variant(const Expr& a, std::string_view base, Parse parse) {
    const bool f32 = dtype_ == ScalarType::F32;
    if (!f32 && !i32_stream()) return std::nullopt;
    const std::string enum_name = fmt::format("{}{}", base, f32 ? "F32" : "I32");
    if ((a.kind == Expr::Kind::Path || a.kind == Expr::Kind::PathCall) && a.path.size() == 2 &&
        a.path[0] == fmt::format("{}{}", base, f32 ? "I32" : "F32")) {
      error("E-VE-006",
            fmt::format("`{}` is an op of the {} stream, but this stream is {}", a.path[0],
                        f32 ? "i32" : "f32", name(dtype_)),
            a.span, {fmt::format("use `{}::…`", enum_name)});
      return std::nullopt;
    }
    auto op = variant(a, enum_name, parse);
    if (!op) return std::nullopt;
    if (!valid_for_scalar(*op, f32)) {
      bad_arg(fmt::format("`{}` has no variant `{}`", enum_name, a.name), a.name_span);
      return std::nullopt;
    }
    return op;
  }

  const Expr& call_;
  ScalarType dtype_;
  bool paired_;
  const BoundValues& bound_;
  Diagnostics& diags_;
};

} // namespace

std::optional<VectorCallKind> vector_call_kind(std::string_view method) {
  for (const auto& k : kKinds)
    if (k.method == method) return k.kind;
  return std::nullopt;
}

std::string vector_refusal_reason(std::string_view method) {
  if (method.find("reduce") != std::string_view::npos)
    return "tujit simulates vector_intra_slice_reduce and vector_inter_slice_reduce "
           "(docs/vector-engine.md §3.6, §3.7), no other reduction";
  if (method == "vector_filter")
    return "vector_filter masks output flits by tag; tujit simulates TagMode::Zero streams, "
           "where there is nothing to filter";
  return "this Vector Engine method is not simulated by tujit";
}

std::optional<VectorCall> type_vector_args(const Expr& call, VectorCallKind kind, ScalarType dtype,
                                           bool paired, const BoundValues& bound,
                                           Diagnostics& diags) {
  return ArgTyper(call, dtype, paired, bound, diags).run(kind);
}

const Expr& vrf_operand_arg(const Expr& call, const VectorCall& typed) {
  // Every binary call ends with its operand, a ternary call with its pair; a Branched operand
  // holds the VRF in its rf slot.
  const bool ternary = typed.kind == VectorCallKind::FpTernary;
  if (typed.branches) return *branched_rf_tensor(call.args.back(), ternary);
  if (ternary) return call.args.back().args[0];
  return call.args.back();
}

} // namespace tujit::ir::lang
