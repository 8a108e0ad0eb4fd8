#include "ir/lang/sema_typer.h"

#include <fmt/format.h>

// Views of memory tensors and the DMA write into an output parameter (docs/kernel-language.md
// §6: `x.view()`, `out.view_mut()`, `x.view().to_hbm_view(&mut ctx.tdma, out.view_mut())`).

namespace tujit::ir::lang::detail {

namespace {

constexpr const char* kToHbmViewForm =
    "the form is `x.view().to_hbm_view(&mut ctx.tdma, out.view_mut())`, `out` a kernel "
    "parameter `out: &mut HbmTensor<…>` (docs/kernel-language.md §6)";

} // namespace

Value KernelTyper::type_view(const Expr& call, const Value& recv) {
  Value v;
  v.span = call.span;
  if (recv.kind == Value::Kind::Tensor &&
      (recv.tensor.kind == TensorKind::Dm || recv.tensor.kind == TensorKind::Hbm) &&
      call.args.empty()) {
    v = recv;
    v.kind = Value::Kind::View;
    v.memory_producer = recv.producer;
    v.producer.reset();
    return v;
  }
  error("E-TYPE-010",
        fmt::format("`view()` needs a DmTensor or an HbmTensor, found {}", describe_value(recv)),
        call.name_span);
  return v;
}

Value KernelTyper::type_view_mut(const Expr& call, const Value& recv) {
  Value v;
  v.span = call.span;
  const bool tensor = recv.kind == Value::Kind::Tensor;
  const bool hbm_param = tensor && recv.tensor.kind == TensorKind::Hbm && !recv.producer;
  // An output parameter takes a to_hbm_view; a DM tensor of the kernel (built inside, or a
  // `let`) a commit_view.
  const bool dm = tensor && recv.tensor.kind == TensorKind::Dm;
  if (((hbm_param && recv.writable) || dm) && call.args.empty()) {
    v = recv;
    v.kind = Value::Kind::ViewMut;
    return v;
  }
  error("E-TYPE-029",
        fmt::format("`view_mut()` needs a DmTensor or a kernel parameter `&mut HbmTensor<…>`, "
                    "found {}",
                    hbm_param ? fmt::format("`{}`, which is not `&mut`", recv.name)
                              : describe_value(recv)),
        call.name_span,
        {kToHbmViewForm, "a DmTensor's `view_mut()` is a `commit_view` destination; tiles are "
                         "not simulated (docs/kernels.md §4)"});
  return v;
}

Value KernelTyper::type_to_hbm_view(const Expr& call, const Value& recv) {
  Value v;
  v.span = call.span;
  if (recv.kind != Value::Kind::View) {
    error("E-TYPE-010",
          fmt::format("`to_hbm_view` is called on `x.view()` of a DmTensor or HbmTensor, not on {}",
                      describe_value(recv)),
          call.name_span, {kToHbmViewForm});
    return v;
  }
  if (call.args.size() != 2 || !call.targs.empty()) {
    error("E-TYPE-029",
          call.targs.empty()
              ? fmt::format("`to_hbm_view` takes two arguments, found {}", call.args.size())
              : std::string("`to_hbm_view` takes no type arguments here: the destination's type "
                            "gives them"),
          call.span, {kToHbmViewForm});
    return v;
  }
  Value dst = type_expr(call.args[1], nullptr, false);
  if (dst.kind == Value::Kind::Error) return v;
  if (dst.kind != Value::Kind::ViewMut) {
    error("E-TYPE-029",
          fmt::format("the destination of `to_hbm_view` is `out.view_mut()` of an output "
                      "parameter, found {}",
                      describe_value(dst)),
          call.args[1].span, {kToHbmViewForm});
    return v;
  }
  const MethodInfo* m = find_method("to_hbm", recv.tensor.kind);
  if (m == nullptr) return v; // the descriptor table lists to_hbm on DM and HBM tensors
  // The write is the to_hbm whose result has the destination's layout: its one call argument the
  // DMA context, its Element type argument the destination's.
  Expr dma = clone(call);
  dma.args.resize(1);
  Value src = recv;
  src.kind = Value::Kind::Tensor;
  src.producer = recv.memory_producer;
  src.memory_producer.reset();
  const std::size_t before = k_.stages.size();
  Value out = type_stage(dma, *m, src, &dst.tensor);
  if (out.kind != Value::Kind::Tensor || k_.stages.size() != before + 1) return v;
  check_declared(dst.tensor, out.tensor, fmt::format("destination `{}`", dst.name));
  k_.stages.back().target = dst.name;
  v.kind = Value::Kind::Opaque; // `()`
  return v;
}

void KernelTyper::output_parameter_result() {
  if (fn_.tail || k_.returned || k_.stages.empty()) return;
  std::size_t writes = 0;
  for (const Stage& s : k_.stages) writes += s.op == StageOp::ToHbm && !s.target.empty() ? 1 : 0;
  // One write, the body's last: its destination is the result `tujit run` takes (docs/kernels.md
  // §4); a kernel with several output parameters is checked, not run.
  const Stage& last = k_.stages.back();
  if (writes == 1 && last.op == StageOp::ToHbm && !last.target.empty()) k_.returned = last.output;
}

Value KernelTyper::type_commit_view(const Expr& call, const Value& recv) {
  Value v;
  v.span = call.span;
  if (recv.kind != Value::Kind::Tensor) {
    error("E-TYPE-010",
          fmt::format("`commit_view` is called on a stream, not on {}", describe_value(recv)),
          call.name_span);
    return v;
  }
  if (call.args.size() != 1 || !call.targs.empty()) {
    error("E-TYPE-029", "`commit_view` takes one argument, `x.view_mut()` of a DmTensor", call.span,
          {"the destination's type gives the commit's DmTensor type"});
    return v;
  }
  Value dst = type_expr(call.args[0], nullptr, false);
  if (dst.kind == Value::Kind::Error) return v;
  if (dst.kind != Value::Kind::ViewMut || dst.tensor.kind != TensorKind::Dm) {
    error("E-TYPE-029",
          fmt::format("the destination of `commit_view` is `x.view_mut()` of a DmTensor, found {}",
                      describe_value(dst)),
          call.args[0].span, {"`commit_view(out)` commits into the DmTensor `out` views"});
    return v;
  }
  const MethodInfo* m = find_method("commit", recv.tensor.kind);
  if (m == nullptr || !m->accepts(recv.tensor.kind)) {
    error("E-TYPE-010",
          fmt::format("`commit_view` is a method of {}, but it is called on {}",
                      method_inputs_text("commit"), describe_value(recv)),
          call.name_span);
    return v;
  }
  Expr commit = clone(call);
  commit.args.clear();
  const std::size_t before = k_.stages.size();
  Value out = type_stage(commit, *m, recv, &dst.tensor);
  if (out.kind != Value::Kind::Tensor || k_.stages.size() != before + 1) return v;
  check_declared(dst.tensor, out.tensor, fmt::format("destination `{}`", dst.name));
  written_[dst.name] = before;
  k_.stages.back().bound_to = dst.name; // the commit's result is that tensor's value
  v.kind = Value::Kind::Opaque;         // `()`
  return v;
}

void KernelTyper::written_value(Value& v) const {
  if (v.kind != Value::Kind::Tensor || v.tensor.kind != TensorKind::Dm) return;
  auto it = written_.find(v.name);
  if (it == written_.end()) return;
  const Stage& w = k_.stages[it->second];
  v.producer = it->second;
  v.source = w.source;
  v.interleaved.clear();
}

} // namespace tujit::ir::lang::detail
