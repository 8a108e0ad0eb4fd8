// The kernel typer's checks of call arguments and operands (docs/kernel-language.md §6): the
// contexts a call takes, the TRF and VRF operands, the zero point, the lane mode, and the scalar
// a Vector Engine call produces.
#include "ir/lang/sema_typer.h"
#include "ir/lang/vector_args.h"

#include <fmt/format.h>

namespace tujit::ir::lang::detail {

bool KernelTyper::check_vrf_type(const Expr& call, const TensorType& in) {
  if (is_staging(in.dtype)) {
    error("E-TYPE-019",
          fmt::format("a stream of {} cannot be stored with `to_vrf`", name(in.dtype)),
          call.name_span,
          {"zero-point staging types (i5, i9) exist only between the Fetch Adapter and "
           "contract_outer (docs/contraction.md §2.2)"});
    return false;
  }
  if (!is_vector_engine_scalar(in.dtype)) {
    error("E-TYPE-019",
          fmt::format("the VRF holds i32 or f32, but this stream is {}", name(in.dtype)),
          call.name_span,
          {"VRF contents are Vector Engine scalars (docs/scalars.md §1, docs/contraction.md "
           "§3: to_vrf D ∈ {i32, f32}); widen with fetch_cast first"});
    return false;
  }
  return true;
}

std::optional<std::vector<ContextArg>> KernelTyper::context_args(const Expr& call) {
  std::vector<ContextArg> args;
  for (const auto& a : call.args) {
    Value v = type_expr(a, nullptr, false);
    if (v.kind == Value::Kind::Error) return std::nullopt;
    args.push_back(ContextArg{v.kind == Value::Kind::Context, v.ctx,
                              a.kind == Expr::Kind::Ref && a.ref_mut, a.span});
  }
  return args;
}

bool KernelTyper::check_dma_context(const Expr& call) {
  auto args = context_args(call);
  if (!args) return false;
  auto d = dma_context_error(call.name, call.span, *args);
  if (!d) return true;
  diags_.push_back(std::move(*d));
  return false;
}

bool KernelTyper::check_commit_cast_context(const Expr& call, ContextKind ctx) {
  auto d = commit_cast_context_error(call.name, call.name_span, ctx);
  if (!d) return true;
  diags_.push_back(std::move(*d));
  return false;
}

bool KernelTyper::check_table_lookup_context(const Expr& call, ContextKind ctx) {
  auto d = table_lookup_context_error(call.name, call.name_span, ctx);
  if (!d) return true;
  diags_.push_back(std::move(*d));
  return false;
}

bool KernelTyper::check_contraction_context(const Expr& call, ContextKind ctx) {
  auto d = contraction_context_error(call.name, call.name_span, ctx);
  if (!d) return true;
  diags_.push_back(std::move(*d));
  return false;
}

bool KernelTyper::check_store_context(const Expr& call, ContextKind ctx) {
  auto args = context_args(call);
  if (!args) return false;
  auto d = store_context_error(call.name, call.name_span, ctx, *args);
  if (!d) return true;
  diags_.push_back(std::move(*d));
  return false;
}

bool KernelTyper::type_vector_output(const Expr& call, const MethodInfo& m,
                                     const std::vector<TypeArg>& args, const TensorType& in,
                                     TensorType& out) {
  // Time and Packet are kept or set by the call's type arguments (output_type).
  switch (*m.vector) {
  case VectorCallKind::Init:
    if (!is_vector_engine_scalar(in.dtype)) {
      error("E-VE-001",
            fmt::format("the Vector Engine takes i32 or f32 streams, but this stream is {}",
                        name(in.dtype)),
            call.name_span,
            {"a Contraction Engine output is already i32 / f32; a fetched stream is widened "
             "with fetch_cast first (docs/vector-engine.md §1)"});
      return false;
    }
    return true;
  case VectorCallKind::FxpToFp:
    out.dtype = ScalarType::F32;
    return true;
  case VectorCallKind::FpToFxp:
    out.dtype = ScalarType::I32;
    return true;
  case VectorCallKind::Reinterpret:
    if (!is_vector_engine_scalar(*args[0].scalar)) {
      error("E-VE-006",
            fmt::format("vector_reinterpret reads the stream as i32 or f32, not {}",
                        name(*args[0].scalar)),
            args[0].span, {"every Vector Engine element is 32 bits: i32 or f32"});
      return false;
    }
    out.dtype = *args[0].scalar;
    out.dtype_span = args[0].span;
    return true;
  default:
    return true;
  }
}

bool KernelTyper::same_placement(const TensorType& in, const TensorType& t, const char* code,
                                 const char* file, const std::string& operand, SourceSpan span,
                                 const char* note) {
  bool ok = true;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice}) {
    if (!in.get(s) || !t.get(s) || same_mapping(in.mapping(s), t.mapping(s))) continue;
    error(code,
          fmt::format("the {} operand `{}` has {} {}, but the stream has {}", file, operand,
                      to_string(s), mtext(t.mapping(s)), mtext(in.mapping(s))),
          span, {note});
    ok = false;
  }
  return ok;
}

bool KernelTyper::type_trf_operand(const Expr& call, const TensorType& in,
                                   std::vector<TypeArg>& args, Stage& st) {
  if (call.args.size() != 1) {
    error("E-TYPE-016",
          fmt::format("`contract_outer` takes one argument (the TRF operand), found {}",
                      call.args.size()),
          call.span);
    return false;
  }
  const Expr& a = call.args[0];
  Value trf = type_expr(a, nullptr, false);
  if (trf.kind == Value::Kind::Error) return false;
  if (trf.kind != Value::Kind::Tensor || trf.tensor.kind != TensorKind::Trf) {
    error("E-TYPE-016",
          fmt::format("the argument of `contract_outer` must be a TrfTensor, found {}",
                      describe_value(trf)),
          a.span);
    return false;
  }
  const TensorType& t = trf.tensor;
  st.trf = t;
  st.trf_name = trf.name;
  st.trf_producer = trf.producer;
  st.trf_source = trf.source;
  st.trf_span = a.span;
  // The TRF operand sits in the same Chip / Cluster / Slice as the stream (one type parameter
  // each in furiosa-opt's signature).
  bool ok =
      same_placement(in, t, "E-TYPE-020", "TRF", st.trf_name, a.span,
                     "contract_outer pairs a stream and a TRF tensor of the same Chip, Cluster "
                     "and Slice (docs/contraction.md §3)");
  auto agree = [&](std::size_t i, Slot s, std::string_view pname) {
    const SpannedMapping* from = t.get(s);
    if (!from) return;
    if (args[i].mapping) {
      if (!same_mapping(args[i].mapping->mapping, from->mapping)) {
        error("E-TYPE-013",
              fmt::format("declared {} {}, but the chain produces {}", pname,
                          mtext(args[i].mapping->mapping), mtext(from->mapping)),
              args[i].span,
              {fmt::format("`{}` of contract_outer is the TRF operand `{}`'s {}", pname,
                           st.trf_name, to_string(s))});
        ok = false;
      }
      return;
    }
    args[i].mapping = *from;
  };
  agree(2, Slot::Lane, "Lane");
  agree(3, Slot::Element, "TrfElement");
  if (args[4].scalar && *args[4].scalar != t.dtype) {
    error("E-TYPE-013",
          fmt::format("declared TrfD {}, but the chain produces {}", name(*args[4].scalar),
                      name(t.dtype)),
          args[4].span,
          {fmt::format("`TrfD` of contract_outer is the element type of the TRF operand `{}`",
                       st.trf_name)});
    ok = false;
  }
  args[4].scalar = t.dtype;
  if (!contraction_accumulator(in.dtype, t.dtype)) {
    error("E-TYPE-014",
          fmt::format("contract_outer cannot multiply a stream of {} by a TRF operand of {}",
                      name(in.dtype), name(t.dtype)),
          call.name_span, {explain_contraction_refusal(in.dtype, t.dtype)});
    ok = false;
  }
  return ok;
}

bool KernelTyper::type_vrf_operand(const Expr& a, const std::string& method, const TensorType& in,
                                   Stage& st) {
  Value vrf = type_expr(a, nullptr, false);
  if (vrf.kind == Value::Kind::Error) return false;
  if (vrf.kind != Value::Kind::Tensor || vrf.tensor.kind != TensorKind::Vrf) {
    error("E-VE-016",
          fmt::format("the operand of `{}` must be a constant or a VrfTensor, found {}", method,
                      describe_value(vrf)),
          a.span,
          {"the Vector Engine reads operands from its immediates or the VRF "
           "(docs/vector-engine.md §3.2)"});
    return false;
  }
  const TensorType& t = vrf.tensor;
  st.vrf = t;
  st.vrf_name = vrf.name;
  st.vrf_producer = vrf.producer;
  st.vrf_source = vrf.source;
  st.vrf_span = a.span;
  bool ok = true;
  if (t.dtype != in.dtype) {
    error("E-VE-016",
          fmt::format("the VRF operand `{}` holds {}, but `{}` runs on an {} stream", st.vrf_name,
                      name(t.dtype), method, name(in.dtype)),
          a.span,
          {"an operand has the stream's scalar: convert the stream (vector_fxp_to_fp, "
           "vector_reinterpret) or store the VRF in that scalar (docs/vector-engine.md §3.2)"});
    ok = false;
  }
  // Each slice's Vector Engine reads its own VRF (one register file per slice).
  return same_placement(in, t, "E-VE-017", "VRF", st.vrf_name, a.span,
                        "each slice's Vector Engine reads the VRF of its own slice: the operand "
                        "sits in the stream's Chip, Cluster and Slice (docs/vector-engine.md "
                        "§3.2)") &&
         ok;
}

bool KernelTyper::type_zero_point(const Expr& call, const TensorType& in, ScalarType to,
                                  SourceSpan to_span, Stage& st) {
  if (!is_zero_point_sub(in.dtype, to)) {
    auto want = zero_point_staging_type(in.dtype);
    error("E-TYPE-015",
          want ? fmt::format("fetch_zero_point_sub turns a stream of {} into {}, not {}",
                             name(in.dtype), name(*want), name(to))
               : fmt::format("fetch_zero_point_sub needs a stream of i4 or i8, found {}",
                             name(in.dtype)),
          want ? to_span : call.name_span,
          {"zero-point subtraction is i4 → i5 or i8 → i9 (docs/contraction.md §2.2)"});
    return false;
  }
  if (call.args.size() != 1 || call.args[0].kind != Expr::Kind::Int || call.args[0].int_overflow) {
    error("E-TYPE-016", "`fetch_zero_point_sub` takes one integer literal (the zero point)",
          call.args.empty() ? call.span : call.args[0].span);
    return false;
  }
  st.zero_point = call.args[0].int_value;
  st.zero_point_span = call.args[0].span;
  return true;
}

bool KernelTyper::type_lane_mode(const Expr& call, Stage& st) {
  if (call.args.size() == 1 && call.args[0].kind == Expr::Kind::LaneMode &&
      (call.args[0].name == "Interleaved" || call.args[0].name == "Sequential")) {
    st.lane_mode =
        call.args[0].name == "Interleaved" ? LaneMode::Interleaved : LaneMode::Sequential;
    st.lane_mode_span = call.args[0].span;
    return true;
  }
  error("E-TYPE-016",
        "`contract_lane` takes one argument: `LaneMode::Interleaved` or `LaneMode::Sequential`",
        call.args.empty() ? call.span : call.args[0].span);
  return false;
}

} // namespace tujit::ir::lang::detail
