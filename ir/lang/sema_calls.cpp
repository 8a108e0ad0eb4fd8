// Calls between the fns of a kernel file (docs/kernel-language.md §9): a kernel body may call a
// fn of its file that takes the context and tensors and returns a tensor (the reference's MNIST
// `forward` calls `fc1_relu`, which calls `fc1_matmul`). tujit types the callee's body at the
// call, as if it were written there: its parameters are the argument values, its `let`s bind
// names scoped by the callee (`fc1_matmul.input_dm`), its stages join the kernel's in evaluation
// order, and its tail belongs to the caller's statement, so `let m = f(ctx, x);` is the chain
// `let m = <f's tail>;` after f's own statements.
#include "ir/lang/sema.h"
#include "ir/lang/sema_typer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace tujit::ir::lang {

namespace detail {

namespace {

/// Calls one kernel may inline in all: far beyond any kernel, and a bound on a file whose fns
/// call each other many times over (each call copies the callee's stages).
constexpr std::size_t kMaxCalls = 1000;

std::string signature_text(const FnItem& f) {
  std::string params;
  for (const Param& p : f.params) params += (params.empty() ? "" : ", ") + p.name;
  return fmt::format("`{}({})`", f.name, params);
}

} // namespace

const CallableFn* KernelTyper::find_fn(std::string_view name) const {
  if (fns_ == nullptr) return nullptr;
  for (const CallableFn& f : *fns_)
    if (f.name == name && f.fn != nullptr) return &f;
  return nullptr;
}

std::string KernelTyper::scoped(const std::string& name) const {
  return name == "_" ? name : scope_ + name;
}

Value KernelTyper::type_fn_call(const Expr& call) {
  Value fail;
  fail.span = call.span;
  const CallableFn* callable = find_fn(call.name);
  if (callable == nullptr) {
    error("E-TYPE-021", fmt::format("`{}` is not a function of this file", call.name),
          call.name_span,
          {"a kernel body calls only fns of its own file, whose bodies tujit types at the call "
           "(docs/kernel-language.md §9); other expressions are method chains on tensors"});
    return fail;
  }
  const FnItem* const callee = callable->fn;
  if (auto at = std::find(stack_.begin(), stack_.end(), callee); at != stack_.end()) {
    std::string path;
    for (auto it = at; it != stack_.end(); ++it) path += (*it)->name + " → ";
    error("E-TYPE-026",
          fmt::format("recursive call: `{}` calls itself ({})", callee->name, path + callee->name),
          call.name_span,
          {"tujit types a called fn's body in place at each call, so a call chain must end; "
           "a kernel's commands are a fixed sequence (docs/kernel-language.md §9)"});
    return fail;
  }
  if (++calls_ > kMaxCalls) {
    error("E-TYPE-026",
          fmt::format("kernel `{}` makes more than {} calls in all", fn_.name, kMaxCalls),
          call.name_span,
          {"each call types the callee's body again; a file whose fns call each other this "
           "often is refused rather than typed without bound"});
    return fail;
  }
  if (!callee->body_parsed) return fail; // its syntax error is reported with the fn
  // The callee's declared types are resolved with its own generics, in its own module's names.
  Resolver* const caller_r = r_;
  Resolver* const callee_r = callable->resolver != nullptr ? callable->resolver : r_;
  callee_r->set_generics(callee->generics);
  std::optional<TensorType> ret;
  if (callee->ret) {
    Resolved r = callee_r->resolve(*callee->ret);
    if (r.kind == Resolved::Kind::Tensor) ret = r.tensor;
    if (r.kind == Resolved::Kind::Error) k_.ok = false;
  }
  caller_r->set_generics(stack_.back()->generics);
  std::map<std::string, Value> env;
  if (!bind_arguments(call, *callable, env)) return fail;

  std::map<std::string, Value> caller_env = std::exchange(env_, std::move(env));
  BoundValues caller_bound = std::exchange(bound_values_, {});
  const std::string caller_scope = scope_;
  const std::size_t instance = ++instances_[callee->name];
  scope_ = instance == 1 ? callee->name + "." : fmt::format("{}#{}.", callee->name, instance);
  stack_.push_back(callee);
  r_ = callee_r;
  r_->set_generics(callee->generics);
  Value v = type_callee_body(*callee, ret);
  stack_.pop_back();
  r_ = caller_r;
  r_->set_generics(stack_.back()->generics);
  scope_ = caller_scope;
  env_ = std::move(caller_env);
  bound_values_ = std::move(caller_bound);
  if (v.kind == Value::Kind::Tensor && ret) v.tensor = *ret; // checked against it
  v.span = call.span;
  return v;
}

Value KernelTyper::type_callee_body(const FnItem& callee, const std::optional<TensorType>& ret) {
  const std::size_t caller_chain = chain_;
  const std::string caller_bound = bound_to_;
  for (const Stmt& s : callee.body) {
    chain_ = next_chain_++;
    type_stmt(s);
  }
  // The tail is the value of the call: it belongs to the caller's statement.
  chain_ = caller_chain;
  bound_to_ = caller_bound;
  Value v;
  v.span = callee.span;
  if (callee.tail) {
    v = type_expr(*callee.tail, ret ? &*ret : nullptr, /*top=*/true);
    if (ret && v.kind == Value::Kind::Tensor)
      check_declared(*ret, v.tensor, fmt::format("return type of `{}`", callee.name));
  } else if (ret) {
    error("E-TYPE-018",
          fmt::format("`{}` declares that it returns `{}`, but its body ends without a tail "
                      "expression",
                      callee.name, tensor_type_name(ret->kind)),
          callee.ret->span, {"end the body with the chain that produces the result (no `;`)"});
    v.kind = Value::Kind::Error;
  } else {
    v.kind = Value::Kind::Opaque; // a fn returning nothing: its stages are its effect
  }
  return v;
}

bool KernelTyper::bind_arguments(const Expr& call, const CallableFn& callable,
                                 std::map<std::string, Value>& env) {
  const FnItem& callee = *callable.fn;
  if (call.args.size() != callee.params.size()) {
    error("E-TYPE-025",
          fmt::format("`{}` takes {} argument{}, but this call passes {}", callee.name,
                      callee.params.size(), callee.params.size() == 1 ? "" : "s", call.args.size()),
          call.span, {fmt::format("`{}` is declared as {}", callee.name, signature_text(callee))});
    return false;
  }
  std::vector<Resolved> declared;
  Resolver& callee_r = callable.resolver != nullptr ? *callable.resolver : *r_;
  callee_r.set_generics(callee.generics);
  for (const Param& p : callee.params) declared.push_back(callee_r.resolve(p.type));
  r_->set_generics(stack_.back()->generics);
  bool ok = true;
  for (std::size_t i = 0; i < call.args.size(); ++i) {
    Value arg = type_expr(call.args[i], nullptr, false);
    ok = bind_argument(call.args[i], std::move(arg), callee.params[i], declared[i], callee, env) &&
         ok;
  }
  return ok;
}

bool KernelTyper::bind_argument(const Expr& a, Value arg, const Param& p, const Resolved& declared,
                                const FnItem& callee, std::map<std::string, Value>& env) {
  if (arg.kind == Value::Kind::Error || declared.kind == Resolved::Kind::Error) {
    if (declared.kind == Resolved::Kind::Error) k_.ok = false;
    return false;
  }
  const auto mismatch = [&](std::string what, std::vector<std::string> notes) {
    error("E-TYPE-025",
          fmt::format("this argument of `{}` is {}, but its parameter `{}` is {}", callee.name,
                      describe_value(arg), p.name, std::move(what)),
          a.span, std::move(notes));
    return false;
  };
  if (declared.kind == Resolved::Kind::Context) {
    if (arg.kind != Value::Kind::CtxRoot)
      return mismatch("the context", {"pass the caller's `ctx: &mut Context` (`f(ctx, …)`)"});
    arg.name = p.name;
    env[p.name] = std::move(arg);
    return true;
  }
  if (declared.kind != Resolved::Kind::Tensor) { // a number or another value: passed through
    if (arg.kind != Value::Kind::Opaque && arg.kind != Value::Kind::Context)
      return mismatch("not a tensor", {"pass a value of the parameter's type"});
    env[p.name] = std::move(arg);
    return true;
  }
  // A view parameter (`HbmTensorView`, `DmTensorViewMut`) takes `x.view()` / `x.view_mut()`.
  Value want;
  want.kind = declared.view == Resolved::View::Shared ? Value::Kind::View
              : declared.view == Resolved::View::Mut  ? Value::Kind::ViewMut
                                                      : Value::Kind::Tensor;
  want.tensor = declared.tensor;
  if (arg.kind != want.kind ||
      (want.kind != Value::Kind::Tensor && arg.tensor.kind != declared.tensor.kind))
    return mismatch(describe_value(want),
                    {fmt::format("`{}` declares `{}`", p.name, to_string(declared.tensor))});
  bool ok = true;
  for (const auto& d : compare_types(declared.tensor, arg.tensor)) {
    error("E-TYPE-025",
          fmt::format("the call passes `{}` as `{}` of `{}`: {} is {}, the parameter declares {}",
                      arg.name.empty() ? "this value" : arg.name, p.name, callee.name, d.what,
                      d.produced, d.declared),
          a.span,
          {fmt::format("the argument is `{}`", to_string(arg.tensor)),
           fmt::format("`{}` declares `{}`", p.name, to_string(declared.tensor))});
    ok = false;
  }
  if (!ok) return false;
  // The parameter is the argument's value under the declared type (equal to it): its producer,
  // source and name stay the caller's, so later stages link to the stage that made it.
  arg.tensor = declared.tensor;
  env[p.name] = std::move(arg);
  return true;
}

void KernelTyper::renumber_chains() {
  std::map<std::size_t, std::size_t> order;
  for (Stage& st : k_.stages) {
    const auto it = order.emplace(st.chain, order.size()).first;
    st.chain = it->second;
  }
}

} // namespace detail

namespace {

/// The names of the file's fns that `e` calls (`f(…)`), outside `self`.
void collect_calls(const Expr& e, const std::set<std::string>& fns, const std::string& self,
                   std::set<std::string>& out, std::size_t depth = 0) {
  if (depth > 2048) return; // the parser bounds nesting and chains (E-PARSE-202)
  if (e.kind == Expr::Kind::Other && !e.name.empty() && e.name != self && fns.count(e.name))
    out.insert(e.name);
  if (e.inner) collect_calls(*e.inner, fns, self, out, depth + 1);
  for (const Expr& a : e.args) collect_calls(a, fns, self, out, depth + 1);
}

void collect_stmt_calls(const std::vector<Stmt>& body, const std::set<std::string>& fns,
                        const std::string& self, std::set<std::string>& out) {
  for (const Stmt& s : body) {
    if (s.value) collect_calls(*s.value, fns, self, out);
    collect_stmt_calls(s.body, fns, self, out); // a `for` loop's body
  }
}

std::set<std::string> callees(const FnItem& f, const std::set<std::string>& fns) {
  std::set<std::string> out;
  collect_stmt_calls(f.body, fns, f.name, out);
  if (f.tail) collect_calls(*f.tail, fns, f.name, out);
  return out;
}

} // namespace

std::set<std::string> helper_fns(const std::vector<FnItem>& fns, const Resolver& resolver) {
  std::set<std::string> names;
  for (const FnItem& f : fns) names.insert(f.name);
  std::map<std::string, std::set<std::string>> calls; // candidate → the fns it calls
  std::set<std::string> called;
  for (const FnItem& f : fns) {
    if (!is_kernel_candidate(f, resolver)) continue;
    calls[f.name] = callees(f, names);
    called.insert(calls[f.name].begin(), calls[f.name].end());
  }
  // Entry points: `#[device]` fns, and candidates no other candidate calls.
  std::vector<std::string> todo;
  for (const FnItem& f : fns)
    if (calls.count(f.name) && (f.device || !called.count(f.name))) todo.push_back(f.name);
  std::set<std::string> reached;
  while (!todo.empty()) {
    const std::string f = todo.back();
    todo.pop_back();
    if (!reached.insert(f).second) continue;
    if (auto it = calls.find(f); it != calls.end())
      todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
  // A candidate called by another and reached from an entry point, not itself `#[device]`. One
  // that no entry point reaches (fns that only call each other) stays a kernel, so that its
  // errors, a recursion among them, are reported.
  std::set<std::string> helpers;
  for (const FnItem& f : fns)
    if (calls.count(f.name) && !f.device && called.count(f.name) && reached.count(f.name))
      helpers.insert(f.name);
  return helpers;
}

} // namespace tujit::ir::lang
