// Constant `for` loops in a kernel body (docs/kernel-language.md §3.1). A kernel's commands are a
// fixed sequence (the reference's tile loops write a DM tensor in parts, one command per tile), so
// a loop whose range is constant is that sequence written once: the typer types its body once per
// value, as if the iterations were written one after the other.
#include "ir/lang/loop_bound.h"
#include "ir/lang/loop_unroll.h"
#include "ir/lang/sema_typer.h"

#include <fmt/format.h>

#include <utility>

namespace tujit::ir::lang::detail {

std::optional<std::uint64_t> KernelTyper::loop_bound(const LoopBound& b) {
  const ConstantLookup lookup = [this](std::string_view name,
                                       bool size) -> std::optional<std::uint64_t> {
    if (!size) return r_->constant(name);
    const Axis* a = r_->axes().find(name);
    return a ? std::optional<std::uint64_t>(a->size) : std::nullopt;
  };
  auto v = evaluate_loop_bound(b.tokens, lookup, b.span);
  if (v) return *v;
  for (const Diagnostic& d : v.diagnostics()) error(d.code, d.message, *d.span, d.notes);
  return std::nullopt;
}

void KernelTyper::type_for(const Stmt& s) {
  const std::optional<std::uint64_t> from = s.from ? loop_bound(*s.from) : std::nullopt;
  const std::optional<std::uint64_t> to = s.to ? loop_bound(*s.to) : std::nullopt;
  if (!from || !to) {
    k_.ok = false;
    return;
  }
  const std::uint64_t count = *to > *from ? *to - *from : 0;
  if (count > kMaxLoopIterations - unrolled_) {
    if (!std::exchange(unroll_refused_, true))
      error("E-TYPE-028",
            fmt::format("the loops of kernel `{}` unroll to more than {} iterations in all",
                        fn_.name, kMaxLoopIterations),
            s.span,
            {fmt::format("this loop runs {} times after {} earlier iterations; tujit unrolls "
                         "each loop into its commands (docs/kernel-language.md §3.1)",
                         count, unrolled_)});
    k_.ok = false;
    return;
  }
  unrolled_ += count;
  const std::map<std::string, Value> outer_env = env_;
  const BoundValues outer_bound = bound_values_;
  const std::string outer_scope = scope_;
  for (std::uint64_t v = *from; v < *to; ++v) {
    // Each iteration is a block: its bindings end with it and are named by the iteration
    // (`i=0.x`), so a kernel's values keep unique names.
    scope_ = fmt::format("{}{}={}.", outer_scope, s.name, v);
    for (const Stmt& st : loop_iteration(s.body, s.name, static_cast<std::int64_t>(v))) {
      chain_ = next_chain_++;
      type_stmt(st);
    }
    env_ = outer_env;
    bound_values_ = outer_bound;
  }
  scope_ = outer_scope;
}

} // namespace tujit::ir::lang::detail
