// `ctx.main.begin_interleaved::<I, …>(lhs.view(), rhs.view())` (the reference's
// furiosa-opt-std context.rs `begin_interleaved`; docs/vector-engine.md §3.5): two DM tensors of
// one type fetched as one stream whose Time is the new 2-element axis `I`, lhs at I = 0 and rhs at
// I = 1, for pair mode to unzip.
#include "ir/lang/sema_typer.h"
#include "ir/mapping/mapping_text.h"

#include "ir/mapping/factor.h"

#include <fmt/format.h>

namespace tujit::ir::lang::detail {

namespace {

bool holds_axis(const TensorType& t, const std::string& axis) {
  for (std::size_t i = 0; i < kSlotCount; ++i)
    if (const auto* m = t.get(static_cast<Slot>(i)); m && mentions(factorize(m->mapping), axis))
      return true;
  return false;
}

} // namespace

Value KernelTyper::type_begin_interleaved(const Expr& call, const Value& recv) {
  Value v;
  v.span = call.span;
  if (!begins_on_context(call, recv, "begin_interleaved")) return v;
  const char* form =
      "`begin_interleaved::<I, _, _, _, _, _>(lhs.view(), rhs.view())`: the "
      "grouping axis I, then two DM tensors of one type (docs/vector-engine.md §3.5)";
  if (call.args.size() != 2) {
    error("E-TYPE-016",
          fmt::format("`begin_interleaved` takes two arguments, found {}", call.args.size()),
          call.span, {form});
    return v;
  }
  if (call.targs.empty() || call.targs[0].kind == TypeExpr::Kind::Infer) {
    error("E-TYPE-012", "cannot infer the grouping axis `I` of `begin_interleaved`", call.name_span,
          {form});
    return v;
  }
  auto axis = group_axis_arg(call.targs[0], "`I` of `begin_interleaved`");
  if (!axis) return v;
  const Atom a = factorize(axis->mapping).factors.front().atom;
  Value args[2];
  for (int k = 0; k < 2; ++k) {
    args[k] = type_expr(call.args[k], nullptr, false);
    if (args[k].kind == Value::Kind::Error) return v;
    if ((args[k].kind != Value::Kind::View && args[k].kind != Value::Kind::Tensor) ||
        args[k].tensor.kind != TensorKind::Dm) {
      error("E-TYPE-016",
            fmt::format("`begin_interleaved` needs `x.view()` of a DmTensor, found {}",
                        describe_value(args[k])),
            call.args[k].span, {form});
      return v;
    }
  }
  const TensorType& dm = args[0].tensor;
  bool same = dm.dtype == args[1].tensor.dtype;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice, Slot::Element}) {
    const auto* x = dm.get(s);
    const auto* y = args[1].tensor.get(s);
    same = same && x && y && same_mapping(x->mapping, y->mapping);
  }
  if (!same) {
    error("E-TYPE-016",
          fmt::format("`begin_interleaved` interleaves two DM tensors of one type, but {} and {} "
                      "differ",
                      to_string(dm), to_string(args[1].tensor)),
          call.args[1].span, {form});
    return v;
  }
  if (a.size != 2 || holds_axis(dm, a.name)) {
    error("E-TYPE-016",
          fmt::format("the grouping axis `{}` of `begin_interleaved` has {} elements{}; it is a "
                      "new 2-element axis the DM tensors do not hold",
                      a.name, a.size, holds_axis(dm, a.name) ? " and the DM tensors hold it" : ""),
          call.targs[0].span, {form});
    return v;
  }
  TensorType t;
  t.kind = TensorKind::Begin;
  t.dtype = dm.dtype;
  t.dtype_span = dm.dtype_span;
  t.span = call.span;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice})
    if (dm.get(s)) t.set(s, *dm.get(s));
  t.set(Slot::Time, *axis);
  if (dm.get(Slot::Element)) t.set(Slot::Packet, *dm.get(Slot::Element));
  v.kind = Value::Kind::Tensor;
  v.tensor = std::move(t);
  v.ctx = recv.ctx;
  // Two sources, at I = 0 and I = 1: the name of the pair says which.
  v.source = fmt::format("{}+{}", args[0].source, args[1].source);
  for (const Value& side : args) v.interleaved.push_back({side.source, side.memory_producer});
  return v;
}

} // namespace tujit::ir::lang::detail
