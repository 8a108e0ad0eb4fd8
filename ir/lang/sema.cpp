#include "ir/lang/sema.h"

#include "ir/lang/sema_typer.h"
#include "ir/lang/vector_args.h"

#include <fmt/format.h>

#include <limits>

namespace tujit::ir::lang {

namespace detail {

std::optional<Kernel> KernelTyper::run() {
  r_->set_generics(fn_.generics);
  if (!is_kernel_candidate(fn_, *r_)) return std::nullopt;

  k_.name = fn_.name;
  k_.span = fn_.span;
  k_.name_span = fn_.name_span;
  for (const auto& p : fn_.params) type_param(p);
  if (fn_.ret) {
    Resolved ret = r_->resolve(*fn_.ret);
    if (ret.kind == Resolved::Kind::Tensor) k_.declared_return = ret.tensor;
    if (ret.kind == Resolved::Kind::Error) k_.ok = false;
  }
  for (const auto& s : fn_.body) {
    chain_ = next_chain_++;
    type_stmt(s);
  }
  if (fn_.tail) {
    chain_ = next_chain_++;
    bound_to_.clear();
    const TensorType* expected = k_.declared_return ? &*k_.declared_return : nullptr;
    Value v = type_expr(*fn_.tail, expected, /*top=*/true);
    if (v.kind == Value::Kind::Tensor) {
      k_.returned = v.tensor;
      if (expected) check_declared(*expected, v.tensor, "return type");
    }
  } else if (k_.declared_return) {
    error("E-TYPE-018",
          fmt::format("kernel `{}` declares that it returns `{}`, but its body ends without a "
                      "tail expression",
                      fn_.name, tensor_type_name(k_.declared_return->kind)),
          fn_.ret->span, {"end the body with the chain that produces the result (no `;`)"});
  }
  output_parameter_result();
  renumber_chains();
  return std::move(k_);
}

void KernelTyper::error(std::string code, std::string msg, SourceSpan span,
                        std::vector<std::string> notes) {
  if (diags_.size() > 5000) return; // only ~20 are shown; bound the memory
  Diagnostic d = make_error(std::move(code), std::move(msg), span, std::move(notes));
  d.stage = "type";
  diags_.push_back(std::move(d));
}

void KernelTyper::type_param(const Param& p) {
  KernelParam kp;
  kp.name = p.name;
  kp.span = p.span;
  kp.by_ref = p.type.is_ref;
  Resolved r = r_->resolve(p.type);
  Value v;
  v.span = p.span;
  v.name = p.name;
  v.writable = p.type.is_mut_ref;
  v.source = p.name;
  if (r.kind == Resolved::Kind::Tensor) {
    kp.tensor = r.tensor;
    v.kind = r.view == Resolved::View::Shared ? Value::Kind::View
             : r.view == Resolved::View::Mut  ? Value::Kind::ViewMut
                                              : Value::Kind::Tensor;
    v.tensor = r.tensor;
    v.ctx = r.tensor.tu;
  } else if (r.kind == Resolved::Kind::Context) {
    kp.is_context = true;
    v.kind = Value::Kind::CtxRoot;
  } else if (r.kind == Resolved::Kind::Error) {
    v.kind = Value::Kind::Error;
    k_.ok = false; // e.g. a broken alias: diagnosed at its definition, outside the kernel
  } else {
    v.kind = Value::Kind::Opaque;
  }
  env_[p.name] = v;
  k_.params.push_back(std::move(kp));
}

void KernelTyper::type_stmt(const Stmt& s) {
  if (s.kind == Stmt::Kind::For) {
    type_for(s);
    return;
  }
  bound_to_ = s.kind == Stmt::Kind::Let ? scoped(s.name) : std::string();
  std::optional<TensorType> annotation;
  bool annotation_error = false;
  if (s.annotation) {
    Resolved r = r_->resolve(*s.annotation);
    if (r.kind == Resolved::Kind::Tensor) annotation = r.tensor;
    annotation_error = r.kind == Resolved::Kind::Error;
    if (annotation_error) k_.ok = false;
  }
  Value v;
  if (s.value && s.kind == Stmt::Kind::Let && is_tensor_new(*s.value)) {
    build_inside(s, annotation);
    return;
  }
  if (s.value && s.kind == Stmt::Kind::Let && is_tag_guard_expr(*s.value)) {
    // A guard named once and used by several Branched operands: typed where it is used.
    bound_values_[s.name] = &*s.value;
    v.kind = Value::Kind::Opaque;
    v.span = s.value->span;
    v.name = scoped(s.name);
    if (s.name != "_") env_[s.name] = std::move(v);
    return;
  }
  if (s.value) {
    v = type_expr(*s.value, annotation ? &*annotation : nullptr, /*top=*/true);
    if (annotation && v.kind == Value::Kind::Tensor)
      check_declared(*annotation, v.tensor, fmt::format("type of `{}`", s.name));
  } else {
    v.kind = Value::Kind::Opaque;
  }
  if (s.kind != Stmt::Kind::Let) return;
  if (annotation) {
    v.kind = Value::Kind::Tensor;
    v.tensor = *annotation; // the binding has its declared type (checked above)
  } else if (annotation_error) {
    v.kind = Value::Kind::Error;
  }
  v.name = scoped(s.name);
  bound_values_.erase(s.name); // a later binding shadows a guard of that name
  // A number (`let offset = 100.0f32;`, `let neg = -offset;`): an operand names it.
  if (s.value && v.kind == Value::Kind::Opaque) {
    if (auto lit = fold_constant(*s.value)) {
      constants_.push_back(std::move(*lit));
      bound_values_[s.name] = &constants_.back();
    }
  }
  if (s.name != "_") env_[s.name] = std::move(v);
}

std::optional<Expr> KernelTyper::fold_constant(const Expr& e) const {
  if (e.kind == Expr::Kind::Int || e.kind == Expr::Kind::Float) return clone(e);
  if (e.kind == Expr::Kind::Name) {
    auto it = bound_values_.find(e.name);
    if (it == bound_values_.end()) return std::nullopt;
    const Expr& bound = *it->second;
    if (bound.kind != Expr::Kind::Int && bound.kind != Expr::Kind::Float) return std::nullopt;
    return clone(bound);
  }
  if (e.kind != Expr::Kind::Neg || !e.inner) return std::nullopt;
  std::optional<Expr> x = fold_constant(*e.inner);
  if (!x) return std::nullopt;
  // IEEE negation flips the sign of the f32 nearest to the decimal, which is the f32 nearest to
  // the negated decimal; i64::MIN has no negation.
  if (x->kind == Expr::Kind::Int) {
    x->int_overflow = x->int_overflow || x->int_value == std::numeric_limits<std::int64_t>::min();
    if (!x->int_overflow) x->int_value = -x->int_value;
  } else {
    x->float_value = -x->float_value;
    x->float_text = x->float_text.starts_with('-') ? x->float_text.substr(1) : "-" + x->float_text;
  }
  x->span = e.span;
  return x;
}

void KernelTyper::check_declared(const TensorType& declared, const TensorType& produced,
                                 const std::string& where) {
  for (const auto& d : compare_types(declared, produced)) {
    error("E-TYPE-013",
          fmt::format("declared {} {}, but the chain produces {}", d.what, d.declared, d.produced),
          d.span,
          {fmt::format("the {} says `{}`", where, to_string(declared)),
           fmt::format("the chain produces `{}`", to_string(produced))});
  }
}

Value KernelTyper::type_expr(const Expr& e, const TensorType* expected, bool top) {
  Value v;
  v.span = e.span;
  switch (e.kind) {
  case Expr::Kind::Name: {
    auto it = env_.find(e.name);
    if (it == env_.end()) {
      error("E-TYPE-017", fmt::format("unknown name `{}`", e.name), e.span,
            {"a chain starts from a parameter, a `let` binding, or `ctx.main` / `ctx.sub` of "
             "a `&mut Context` parameter"});
      return v;
    }
    v = it->second;
    v.span = e.span;
    written_value(v);
    return v;
  }
  case Expr::Kind::Ref:
    return type_expr(*e.inner, expected, top);
  case Expr::Kind::Neg: {
    const Value inner = type_expr(*e.inner, nullptr, false);
    if (inner.kind == Value::Kind::Opaque)
      v.kind = Value::Kind::Opaque;
    else if (inner.kind != Value::Kind::Error)
      error("E-TYPE-021",
            fmt::format("`-` of {} is not part of the kernel language", describe_value(inner)),
            e.span, {"`-x` negates a number bound by `let` (docs/kernel-language.md §3)"});
    return v;
  }
  case Expr::Kind::Int:
  case Expr::Kind::LaneMode:
  case Expr::Kind::Float:
  case Expr::Kind::Path:
  case Expr::Kind::Tuple:
  case Expr::Kind::Array:
    v.kind = Value::Kind::Opaque;
    return v;
  case Expr::Kind::StructLit: // only a `switch` argument, read by type_switch_config
    if (!refuse_struct_literal(e)) v.kind = Value::Kind::Opaque;
    return v;
  case Expr::Kind::Field: {
    Value base = type_expr(*e.inner, nullptr, false);
    if (base.kind == Value::Kind::Error) return v;
    if (base.kind == Value::Kind::CtxRoot) {
      if (e.name == "main" || e.name == "sub" || e.name == "tdma") {
        v.kind = Value::Kind::Context;
        v.ctx = e.name == "main"  ? ContextKind::Main
                : e.name == "sub" ? ContextKind::Sub
                                  : ContextKind::Tdma;
        return v;
      }
      v.kind = Value::Kind::Opaque; // other contexts (ctx.pdma)
      return v;
    }
    if (base.kind == Value::Kind::Opaque) {
      v.kind = Value::Kind::Opaque;
      return v;
    }
    error("E-TYPE-021", fmt::format("`{}` has no field `{}`", describe_value(base), e.name),
          e.name_span);
    return v;
  }
  case Expr::Kind::MethodCall:
    return type_call(e, expected, top);
  case Expr::Kind::Other:
    // A free call `f(…)` (a name, not a macro or a path): a call of a fn of the file.
    if (fns_ != nullptr && !e.name.empty()) return type_fn_call(e);
    [[fallthrough]];
  case Expr::Kind::PathCall:
    if (top)
      error("E-TYPE-021", "this expression is not part of the kernel language", e.span,
            {"a kernel body is `let` bindings and method chains on tensors "
             "(docs/kernel-language.md §3)"});
    else
      v.kind = Value::Kind::Opaque;
    return v;
  }
  return v;
}

std::string KernelTyper::describe_value(const Value& v) {
  switch (v.kind) {
  case Value::Kind::Tensor:
    return fmt::format("{} {}", v.tensor.kind == TensorKind::Hbm ? "an" : "a",
                       tensor_type_name(v.tensor.kind));
  case Value::Kind::View:
    return fmt::format("a view of {} {}", v.tensor.kind == TensorKind::Hbm ? "an" : "a",
                       tensor_type_name(v.tensor.kind));
  case Value::Kind::ViewMut:
    return fmt::format("a mutable view of {} {}", v.tensor.kind == TensorKind::Hbm ? "an" : "a",
                       tensor_type_name(v.tensor.kind));
  case Value::Kind::CtxRoot:
    return "the context";
  case Value::Kind::Context:
    return fmt::format("`ctx.{}`", to_string(v.ctx));
  case Value::Kind::Opaque:
    return "a value outside the kernel language";
  case Value::Kind::Error:
    break;
  }
  return "an invalid value";
}

Value KernelTyper::type_call(const Expr& call, const TensorType* expected, bool top) {
  (void)top;
  Value recv = type_expr(*call.inner, nullptr, false);
  Value v;
  v.span = call.span;
  if (call.name.starts_with("vector_") && !vector_call_kind(call.name)) {
    error("E-VE-013", fmt::format("not simulated by tujit: {}", call.name), call.name_span,
          {vector_refusal_reason(call.name),
           "tujit simulates the Vector Engine methods listed in docs/vector-engine.md §3"});
    return v;
  }
  if (is_refused_operation(call.name)) {
    error("E-TYPE-009", fmt::format("not simulated by tujit: {}", call.name), call.name_span,
          {"tujit simulates DMA (`to_dm`, `to_hbm`), the Tensor Unit's fetch, switch, collect, "
           "register-file and contraction stages, the Vector Engine, the Cast and Transpose "
           "Engines and the commit path; the forms listed in docs/kernel-language.md §6.1 are "
           "refused"});
    return v;
  }
  if (recv.kind == Value::Kind::Error) return v;
  if (call.name == "view") return type_view(call, recv);
  if (call.name == "commit_view") return type_commit_view(call, recv);
  if (call.name == "view_mut") return type_view_mut(call, recv);
  if (call.name == "to_hbm_view") return type_to_hbm_view(call, recv);
  if (call.name == "begin") return type_begin(call, recv);
  if (call.name == "begin_interleaved") return type_begin_interleaved(call, recv);
  if (call.name == "write" && recv.kind == Value::Kind::Tensor &&
      recv.tensor.kind == TensorKind::Mem)
    return type_write(call, recv);
  if (recv.kind == Value::Kind::View && recv.tensor.kind == TensorKind::Hbm &&
      (call.name == "to_dm" || call.name == "to_hbm")) {
    // A DMA from `x: HbmTensorView` reads the whole viewed tensor (tiles are not simulated).
    recv.kind = Value::Kind::Tensor;
    recv.producer = recv.memory_producer;
    recv.memory_producer.reset();
  }
  const MethodInfo* m = find_method(
      call.name, recv.kind == Value::Kind::Tensor ? std::optional(recv.tensor.kind) : std::nullopt);
  if (!m) {
    if (recv.kind == Value::Kind::Opaque) { // e.g. `n.min(4)` on a non-tensor parameter
      v.kind = Value::Kind::Opaque;
      return v;
    }
    error("E-TYPE-008", fmt::format("unknown method `{}` in a kernel body", call.name),
          call.name_span, {fmt::format("the kernel language knows: {}", known_methods())});
    return v;
  }
  if (recv.kind != Value::Kind::Tensor || !m->accepts(recv.tensor.kind)) {
    error("E-TYPE-010",
          fmt::format("`{}` is a method of {}, but it is called on {}", call.name,
                      method_inputs_text(call.name), describe_value(recv)),
          call.name_span,
          {"the typestate chain is: begin → fetch → [fetch_table_lookup] [fetch_cast] "
           "[fetch_zero_point_sub] → "
           "collect → to_trf | to_vrf | contract_outer → contract_packet → contract_time → "
           "contract_lane (docs/contraction.md §3); a Vector Engine pass runs vector_init … "
           "vector_final off a collect or a contract_lane, and its result may be stored with "
           "to_vrf (docs/vector-engine.md §2); a stream leaves the engines through [cast →] "
           "[transpose →] commit_trim → [commit_cast →] commit into a DmTensor, and DMA moves "
           "HbmTensor and DmTensor values with to_dm / to_hbm (docs/kernel-language.md §6)"});
    return v;
  }
  return type_stage(call, *m, recv, expected);
}

bool KernelTyper::begins_on_context(const Expr& call, const Value& recv, std::string_view method) {
  if (recv.kind == Value::Kind::Context && recv.ctx != ContextKind::Tdma) return true;
  error("E-TYPE-010",
        fmt::format("`{}` is called on `ctx.main` or `ctx.sub`, not on {}", method,
                    describe_value(recv)),
        call.name_span);
  return false;
}

Value KernelTyper::type_begin(const Expr& call, const Value& recv) {
  Value v;
  v.span = call.span;
  if (!begins_on_context(call, recv, "begin")) return v;
  if (call.args.size() != 1) {
    error("E-TYPE-016",
          fmt::format("`begin` takes one argument (`x.view()` of a DmTensor), found {}",
                      call.args.size()),
          call.span);
    return v;
  }
  Value arg = type_expr(call.args[0], nullptr, false);
  if (arg.kind == Value::Kind::Error) return v;
  if ((arg.kind != Value::Kind::View && arg.kind != Value::Kind::Tensor) ||
      arg.tensor.kind != TensorKind::Dm) {
    error("E-TYPE-016",
          fmt::format("`begin` needs `x.view()` of a DmTensor, found {}", describe_value(arg)),
          call.args[0].span);
    return v;
  }
  // furiosa-opt context.rs: begin yields BeginTensor<D, Chip, Cluster, Slice, m![1], Element>.
  const TensorType& dm = arg.tensor;
  TensorType t;
  t.kind = TensorKind::Begin;
  t.dtype = dm.dtype;
  t.dtype_span = dm.dtype_span;
  t.span = call.span;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice})
    if (dm.get(s)) t.set(s, *dm.get(s));
  t.set(Slot::Time, SpannedMapping{Mapping(), call.span});
  if (dm.get(Slot::Element)) t.set(Slot::Packet, *dm.get(Slot::Element));
  v.kind = Value::Kind::Tensor;
  v.tensor = std::move(t);
  v.ctx = recv.ctx;
  v.source = arg.source;
  v.memory_producer = arg.memory_producer;
  return v;
}

Value KernelTyper::type_stage(const Expr& call, const MethodInfo& m, const Value& recv,
                              const TensorType* expected) {
  Value fail;
  fail.span = call.span;
  const TensorType& in = recv.tensor;
  std::vector<TypeArg> args;
  if (!resolve_type_args(call, m, args)) return fail;

  Stage st;
  st.op = m.op;
  st.span = call.span;
  st.name_span = call.name_span;
  st.input = in;
  st.context = recv.ctx;
  st.chain = chain_;
  st.bound_to = bound_to_;
  st.producer = recv.producer;
  st.source = recv.source;
  st.memory_producer = recv.memory_producer;
  st.interleaved = recv.interleaved;
  if (is_dma(m.op)) st.context = ContextKind::Tdma;

  // contract_outer: Lane, TrfElement, TrfD come from the TRF operand; it runs in the main
  // context only.
  if (m.op == StageOp::ContractOuter && !check_contraction_context(call, recv.ctx)) return fail;
  if (m.op == StageOp::ContractOuter && !type_trf_operand(call, in, args, st)) return fail;
  if (m.op == StageOp::Vector) {
    st.vector = type_vector_args(call, *m.vector, in.dtype, in_pair(k_.stages, recv.producer),
                                 bound_values_, diags_);
    if (!st.vector) return fail;
    if (st.vector->reads_vrf() &&
        !type_vrf_operand(vrf_operand_arg(call, *st.vector), call.name, in, st))
      return fail;
  }
  if (!infer_type_args(call, m, expected, args)) return fail;
  for (const auto& a : args) {
    if (a.mapping) st.type_args.push_back(*a.mapping);
  }
  std::optional<TensorType> out = output_type(call, m, in, args, st);
  if (!out) return fail;
  // Only the operations whose descriptor says so take call arguments (typed above, or a
  // store's context).
  if (m.op == StageOp::ToVrf && !check_store_context(call, recv.ctx)) return fail;
  if (is_dma(m.op) && !check_dma_context(call)) return fail;
  if ((m.op == StageOp::CommitCast || m.op == StageOp::CommitCastRelu) &&
      !check_commit_cast_context(call, recv.ctx))
    return fail;
  if (m.op == StageOp::FetchTableLookup && !check_table_lookup_context(call, recv.ctx)) return fail;
  if (!descriptor(m.op).value_args && !check_no_args(call)) return fail;

  st.output = *out;
  k_.stages.push_back(std::move(st));
  Value v;
  v.kind = Value::Kind::Tensor;
  v.tensor = std::move(*out);
  // A memory tensor belongs to no Tensor Unit context; a stream keeps its chain's.
  v.ctx = v.tensor.kind == TensorKind::Dm || v.tensor.kind == TensorKind::Hbm ? ContextKind::Unknown
                                                                              : recv.ctx;
  v.span = call.span;
  v.producer = k_.stages.size() - 1;
  v.source = recv.source;
  return v;
}

bool in_pair(const std::vector<Stage>& stages, std::optional<std::size_t> at) {
  for (; at; at = stages[*at].producer) {
    const Stage& s = stages[*at];
    if (!s.vector || s.vector->zip || s.vector->kind == VectorCallKind::Init) return false;
    if (s.vector->kind == VectorCallKind::Unzip) return true;
  }
  return false;
}

std::optional<SpannedMapping> KernelTyper::group_axis_arg(const TypeExpr& t,
                                                          std::string_view what) {
  if (t.kind == TypeExpr::Kind::Name && !t.has_args && !t.is_path)
    if (const Axis* a = r_->axes().find(t.name)) return SpannedMapping{Mapping::symbol(*a), t.span};
  error("E-TYPE-004", fmt::format("{} names an axis of `axes![…]`", what), t.span,
        {"the axis is written by its name: `vector_intra_slice_unzip::<I, m![1 # 2], m![1]>()` "
         "(docs/vector-engine.md §3.5), `vector_intra_slice_reduce::<R, m![1], m![1 # 4]>(…)` "
         "(§3.6)"});
  return std::nullopt;
}

bool KernelTyper::resolve_type_args(const Expr& call, const MethodInfo& m,
                                    std::vector<TypeArg>& args) {
  const std::size_t n = m.params.size();
  if (call.has_turbofish && (call.targs.size() < m.min_targs || call.targs.size() > n)) {
    std::string names;
    for (const auto& p : m.params) names += (names.empty() ? "" : ", ") + std::string(p.name);
    error("E-TYPE-011",
          fmt::format("`{}` takes {} type argument{} ({}), found {}", call.name, n,
                      n == 1 ? "" : "s", names, call.targs.size()),
          call.name_span, {"write `_` for an argument tujit should infer"});
    return false;
  }
  args.assign(n, TypeArg{});
  bool ok = true;
  for (std::size_t i = 0; i < n && i < call.targs.size(); ++i) {
    const TypeExpr& t = call.targs[i];
    if (t.kind == TypeExpr::Kind::Infer) continue;
    std::string what = fmt::format("`{}` of `{}`", m.params[i].name, call.name);
    args[i].explicit_ = true;
    args[i].span = t.span;
    // An axis name: pair mode's grouping axis (docs/vector-engine.md §3.5), the reduced axis
    // (§3.6).
    if ((m.vector == VectorCallKind::Unzip || m.vector == VectorCallKind::IntraSliceReduce) &&
        i == 0) {
      args[i].mapping = group_axis_arg(t, what);
      ok = ok && args[i].mapping.has_value();
    } else if (m.params[i].scalar) {
      args[i].scalar = r_->resolve_scalar(t, what);
      ok = ok && args[i].scalar.has_value();
    } else {
      args[i].mapping = r_->resolve_mapping(t, what);
      ok = ok && args[i].mapping.has_value();
    }
  }
  return ok;
}

bool KernelTyper::infer_type_args(const Expr& call, const MethodInfo& m, const TensorType* expected,
                                  std::vector<TypeArg>& args) {
  const TensorType* exp = expected && expected->kind == output_kind(m) ? expected : nullptr;
  bool ok = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i].mapping || args[i].scalar) continue;
    if (exp) {
      if (m.params[i].scalar) {
        args[i].scalar = exp->dtype;
        args[i].span = exp->dtype_span;
        continue;
      }
      if (auto slot = m.params[i].out; slot && exp->get(*slot)) {
        args[i].mapping = *exp->get(*slot);
        continue;
      }
    }
    error("E-TYPE-012", fmt::format("cannot infer `{}` of `{}`", m.params[i].name, call.name),
          call.name_span,
          {fmt::format("write it as a type argument (`{}::<…>`), or annotate the `let` / the "
                       "return type so that the result's type is known",
                       call.name)});
    ok = false;
  }
  return ok;
}

std::optional<TensorType> KernelTyper::output_type(const Expr& call, const MethodInfo& m,
                                                   const TensorType& in,
                                                   const std::vector<TypeArg>& args, Stage& st) {
  const StageDescriptor& d = descriptor(m.op);
  TensorType out = in;
  out.kind = output_kind(m);
  out.span = call.span;
  out.slots = {};
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice})
    if (in.get(s)) out.set(s, *in.get(s));
  for (Slot s : d.kept)
    if (in.get(s)) out.set(s, *in.get(s));
  for (std::size_t i = 0; i < m.params.size(); ++i)
    if (m.params[i].out && args[i].mapping) out.set(*m.params[i].out, *args[i].mapping);
  // A kind keeps only its own slots (an HbmTensor made from a DmTensor has no Cluster / Slice).
  for (std::size_t i = 0; i < kSlotCount; ++i) {
    const auto slot = static_cast<Slot>(i);
    bool has = false;
    for (const TensorArg& a : tensor_args(out.kind))
      has = has || (a.kind == TensorArg::Kind::Mapping && a.slot == slot);
    if (!has) out.slots[i].reset();
  }
  if (!type_operation(call, m, in, args, st, out)) return std::nullopt;
  // Only the Contraction Engine's tensors carry the stream's storage type and the remembered
  // pre-reduction Time.
  if (!is_contraction(m.op)) {
    out.storage.reset();
    out.pre_time.reset();
  }
  return out;
}

bool KernelTyper::type_operation(const Expr& call, const MethodInfo& m, const TensorType& in,
                                 const std::vector<TypeArg>& args, Stage& st, TensorType& out) {
  switch (m.op) {
  case StageOp::Fetch:
  case StageOp::Collect:
  case StageOp::ToTrf:
  case StageOp::ContractPacket:
  case StageOp::VrfReshape:
  case StageOp::DmReshape: // the same cells under another mapping: D kept (§6.2)
  case StageOp::MemRead:
  case StageOp::MemWrite: // the buffer, typed by type_write
  case StageOp::ToDm:     // a DMA transfer keeps D (docs/dma.md §1)
  case StageOp::ToHbm:
  case StageOp::CommitTrim:
  case StageOp::Commit:
  case StageOp::Transpose: // D kept, Time and Packet from its arguments (docs/transpose.md)
    return true;
  case StageOp::Switch: // D and Packet kept, Slice and Time from its arguments (docs/switch.md)
    return type_switch_config(call, st);
  case StageOp::Cast: // D and the re-padded OutPacket (docs/output-path.md §1)
  case StageOp::CommitCast:
  case StageOp::CommitCastRelu:
    out.dtype = *args[0].scalar;
    out.dtype_span = args[0].span;
    st.cast_to = out.dtype;
    return true;
  case StageOp::FetchTableLookup: // the pair is the verifier's (E-FETCH-003)
  case StageOp::FetchCast:
    out.dtype = *args[0].scalar;
    out.dtype_span = args[0].span;
    st.cast_to = out.dtype;
    return true;
  case StageOp::FetchZeroPointSub:
    if (!type_zero_point(call, in, *args[0].scalar, args[0].span, st)) return false;
    out.dtype = *args[0].scalar;
    out.dtype_span = args[0].span;
    st.cast_to = out.dtype;
    return true;
  case StageOp::ToVrf:
    return check_vrf_type(call, in);
  case StageOp::ContractOuter:
    out.storage = in.dtype;
    out.dtype = *contraction_accumulator(in.dtype, *args[4].scalar); // checked in trf operand
    out.dtype_span = call.name_span;
    return true;
  case StageOp::ContractTime:
    out.pre_time = in.get(Slot::Time) ? std::optional(*in.get(Slot::Time)) : std::nullopt;
    return true;
  case StageOp::ContractLane:
    // The Lane Folder needs the Lane it folds; it stays readable from the stage's input.
    if (!type_lane_mode(call, st)) return false;
    out.pre_time = in.pre_time;
    return true;
  case StageOp::Vector:
    return type_vector_output(call, m, args, in, out);
  }
  return true;
}

bool KernelTyper::is_tensor_new(const Expr& e) const {
  if (e.kind != Expr::Kind::PathCall || e.path.size() != 2 || e.path[1] != "new") return false;
  TypeExpr t;
  t.kind = TypeExpr::Kind::Name;
  t.name = e.path[0];
  return tensor_kind_from_name(e.path[0]).has_value() || r_->looks_like_tensor(t);
}

std::optional<TensorType> KernelTyper::new_alias_type(const Expr& e) {
  if (tensor_kind_from_name(e.path[0])) return std::nullopt;
  TypeExpr t;
  t.kind = TypeExpr::Kind::Name;
  t.name = e.path[0];
  t.span = e.span;
  Resolved r = r_->resolve(t);
  if (r.kind != Resolved::Kind::Tensor || r.view != Resolved::View::None) return std::nullopt;
  return r.tensor;
}

void KernelTyper::build_inside(const Stmt& s, const std::optional<TensorType>& declared) {
  const Expr& e = *s.value;
  // `type R = DmTensor<…>; let r = R::new();` names the type through the alias.
  const std::optional<TensorType> aliased = new_alias_type(e);
  if (aliased && declared) check_declared(*declared, *aliased, fmt::format("type of `{}`", s.name));
  const std::optional<TensorType>& annotation = aliased ? aliased : declared;
  const bool dm_new = e.path[0] == "DmTensor" || aliased;
  if (!dm_new || !e.args.empty() || !annotation || annotation->kind != TensorKind::Dm) {
    error("E-TYPE-024",
          fmt::format("`{}::new()` cannot be typed here: a kernel builds DM tensors only, as "
                      "`let x: DmTensor<D, Chip, Cluster, Slice, Element> = DmTensor::new();`",
                      e.path[0]),
          e.span,
          {"register-file tensors come from a store (to_trf / to_vrf), streams from "
           "`ctx.main.begin(x.view())`; the `let` must name the DmTensor type"});
    k_.ok = false;
    return;
  }
  KernelParam kp;
  kp.name = scoped(s.name);
  kp.span = s.name_span;
  kp.built_inside = true;
  kp.tensor = *annotation;
  Value v;
  v.kind = Value::Kind::Tensor;
  v.tensor = *annotation;
  v.name = kp.name;
  v.source = kp.name;
  v.span = s.name_span;
  k_.params.push_back(std::move(kp));
  env_[s.name] = std::move(v);
}

Value KernelTyper::type_write(const Expr& call, const Value& buf) {
  Value fail;
  fail.span = call.span;
  if (call.args.size() != 1) {
    error("E-TYPE-016",
          fmt::format("`write` takes one argument (the StreamTensor), found {}", call.args.size()),
          call.span);
    return fail;
  }
  Value stream = type_expr(call.args[0], nullptr, false);
  if (stream.kind == Value::Kind::Error) return fail;
  if (stream.kind != Value::Kind::Tensor || stream.tensor.kind != TensorKind::Stream) {
    error("E-TYPE-016",
          fmt::format("the argument of `write` must be a StreamTensor, found {}",
                      describe_value(stream)),
          call.args[0].span);
    return fail;
  }
  if (stream.tensor.dtype != buf.tensor.dtype) {
    error("E-TYPE-013",
          fmt::format("the stream holds {}, but the buffer `{}` holds {}",
                      name(stream.tensor.dtype), buf.source, name(buf.tensor.dtype)),
          call.args[0].span, {"a write moves elements; it converts nothing"});
    return fail;
  }
  Stage st;
  st.op = StageOp::MemWrite;
  st.span = call.span;
  st.name_span = call.name_span;
  st.input = stream.tensor;
  st.output = buf.tensor;
  st.chain = chain_;
  st.bound_to = bound_to_;
  st.producer = stream.producer;
  st.source = stream.source;
  st.target = buf.source;
  k_.stages.push_back(std::move(st));
  Value v = buf;
  v.span = call.span;
  v.producer = k_.stages.size() - 1;
  return v;
}

bool KernelTyper::check_no_args(const Expr& call) {
  if (call.args.empty()) return true;
  error("E-TYPE-016", fmt::format("`{}` takes no arguments, found {}", call.name, call.args.size()),
        call.args.front().span);
  return false;
}

} // namespace detail

bool is_kernel_candidate(const FnItem& fn, const Resolver& resolver) {
  // A kernel takes a tensor, or takes the context and builds its tensors inside (the Register
  // Files page's `store_pass(ctx: &mut Context) -> VrfTensor<…>`).
  bool any_tensor = false, any_context = false;
  for (const auto& p : fn.params) {
    any_tensor = any_tensor || resolver.looks_like_tensor(p.type);
    any_context = any_context || (p.type.kind == TypeExpr::Kind::Name && p.type.name == "Context");
  }
  const bool returns_tensor = fn.ret && resolver.looks_like_tensor(*fn.ret);
  return any_tensor || (any_context && returns_tensor);
}

namespace {

void collect_refused(const Expr& e, std::vector<std::pair<std::string, SourceSpan>>& out,
                     std::size_t depth = 0) {
  if (depth > 512) return;
  if (e.kind == Expr::Kind::MethodCall && is_refused_operation(e.name))
    out.emplace_back(e.name, e.name_span);
  if (e.inner) collect_refused(*e.inner, out, depth + 1);
  for (const auto& a : e.args) collect_refused(a, out, depth + 1);
}

} // namespace

std::optional<Kernel> type_kernel(const FnItem& fn, Resolver& resolver, Diagnostics& diags,
                                  const std::vector<FnItem>* fns) {
  if (fns == nullptr) return detail::KernelTyper(fn, resolver, diags, nullptr).run();
  std::vector<CallableFn> callables;
  for (const FnItem& f : *fns) callables.push_back({f.name, &f, &resolver});
  return detail::KernelTyper(fn, resolver, diags, &callables).run();
}

std::optional<Kernel> type_kernel(const FnItem& fn, Resolver& resolver, Diagnostics& diags,
                                  const std::vector<CallableFn>& callables) {
  return detail::KernelTyper(fn, resolver, diags, &callables).run();
}

void warn_refused_in_driver(const FnItem& fn, Diagnostics& diags) {
  std::vector<std::pair<std::string, SourceSpan>> found = fn.skipped_refused;
  for (const auto& s : fn.body)
    if (s.value) collect_refused(*s.value, found);
  if (fn.tail) collect_refused(*fn.tail, found);
  for (const auto& [name, span] : found) {
    Diagnostic d = make_error("E-TYPE-009", fmt::format("not simulated by tujit: {}", name), span,
                              {"this call is in driver code, which tujit ignores"});
    d.severity = Severity::Warning;
    d.stage = "type";
    diags.push_back(std::move(d));
  }
}

} // namespace tujit::ir::lang
