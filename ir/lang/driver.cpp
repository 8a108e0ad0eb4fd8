#include "ir/lang/driver.h"

#include "ir/lang/sema.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace tujit::ir::lang {

namespace {

// The variable a method chain (or a plain use) starts from: `a` in `a.contract_outer(…)…`.
std::string chain_root(const Expr& e) {
  const Expr* x = &e;
  while ((x->kind == Expr::Kind::MethodCall || x->kind == Expr::Kind::Ref) && x->inner)
    x = x->inner.get();
  return x->kind == Expr::Kind::Name ? x->name : std::string();
}

// A call of one of the file's kernels: `KERNEL(args)`.
const Expr* kernel_call(const Stmt& s, const std::set<std::string>& kernels) {
  if (!s.value) return nullptr;
  const Expr& v = *s.value;
  return v.kind == Expr::Kind::Other && kernels.count(v.name) ? &v : nullptr;
}

// The driver as a kernel body: the tensors it constructs are parameters, the chains on them are
// statements; the kernel calls are kept aside.
struct DriverCode {
  FnItem fn;
  std::vector<const Expr*> calls;
};

DriverCode driver_code(const std::vector<Stmt>& body, const std::set<std::string>& kernels,
                       Resolver& r) {
  DriverCode d;
  d.fn.name = "driver code";
  d.fn.body_parsed = true;
  std::set<std::string> known;
  for (const Stmt& s : body) {
    if (const Expr* call = kernel_call(s, kernels)) {
      d.calls.push_back(call);
      continue;
    }
    if (s.kind != Stmt::Kind::Let || !s.value || s.name == "_") continue;
    if (const std::string root = chain_root(*s.value); !root.empty() && known.count(root)) {
      Stmt c;
      c.kind = Stmt::Kind::Let;
      c.span = s.span;
      c.name = s.name;
      c.name_span = s.name_span;
      c.annotation = s.annotation;
      c.value = clone(*s.value);
      d.fn.body.push_back(std::move(c));
      known.insert(s.name);
    } else if (s.annotation && r.looks_like_tensor(*s.annotation)) {
      d.fn.params.push_back({s.name, s.name_span, *s.annotation});
      known.insert(s.name);
    }
  }
  if (!body.empty()) {
    const SourceSpan first = body.front().span, last = body.back().span;
    d.fn.span = SourceSpan{first.offset, last.end() - first.offset};
    d.fn.name_span = body.front().span;
  }
  return d;
}

Diagnostic call_error(std::string message, SourceSpan span, std::vector<std::string> notes) {
  Diagnostic d = make_error("E-TYPE-023", std::move(message), span, std::move(notes));
  d.stage = "type";
  return d;
}

// The types of the driver's named values: its inputs, and each `let`'s chain result.
std::map<std::string, TensorType> bindings(const Kernel& typed) {
  std::map<std::string, TensorType> out;
  for (const auto& p : typed.params)
    if (p.tensor) out[p.name] = *p.tensor;
  for (const auto& st : typed.stages)
    if (!st.bound_to.empty()) out[st.bound_to] = st.output; // the chain's last stage wins
  return out;
}

// Each argument's type must be the kernel parameter's (E-TYPE-023).
void check_call(const Expr& call, const Kernel& kernel,
                const std::map<std::string, TensorType>& bound, Diagnostics& diags) {
  if (call.args.size() != kernel.params.size()) {
    diags.push_back(call_error(fmt::format("the driver calls `{}` with {} argument(s), but it "
                                           "takes {}",
                                           kernel.name, call.args.size(), kernel.params.size()),
                               call.span, {}));
    return;
  }
  for (std::size_t i = 0; i < call.args.size(); ++i) {
    const KernelParam& p = kernel.params[i];
    const std::string name = chain_root(call.args[i]);
    const auto it = bound.find(name);
    if (!p.tensor || it == bound.end()) continue; // a context or a value outside the language
    for (const auto& diff : compare_types(*p.tensor, it->second))
      diags.push_back(call_error(
          fmt::format("the driver passes `{}` to `{}` of kernel `{}`: {} is {}, the parameter "
                      "declares {}",
                      name, p.name, kernel.name, diff.what, diff.produced, diff.declared),
          call.args[i].span,
          {fmt::format("the driver's `{}` is `{}`", name, to_string(it->second)),
           fmt::format("`{}` declares `{}`", p.name, to_string(*p.tensor))}));
  }
}

void type_driver(const std::vector<Stmt>& body, Resolver& resolver, std::vector<Kernel>& kernels,
                 Diagnostics& diags) {
  std::set<std::string> names;
  for (const auto& k : kernels) names.insert(k.name);
  DriverCode d = driver_code(body, names, resolver);
  if (d.calls.empty()) return; // code that calls no kernel of the file is not a driver
  Diagnostics dd;
  auto typed = type_kernel(d.fn, resolver, dd);
  if (!typed) return; // no tensor input: nothing to check
  // A chain that failed to type binds no meaningful value: its errors are reported already.
  const bool typed_ok = !has_errors(dd);
  const auto bound = bindings(*typed);
  for (const Expr* call : d.calls) {
    for (auto& k : kernels) {
      if (k.name != call->name) continue;
      if (typed_ok) check_call(*call, k, bound, dd);
      if (k.driver.empty()) k.driver = typed->stages;
    }
  }
  for (auto& diag : dd) diags.push_back(std::move(diag));
}

} // namespace

void type_drivers(const FileAst& ast, Resolver& resolver, std::vector<Kernel>& kernels,
                  const std::set<std::string>& helpers, Diagnostics& diags) {
  std::set<std::string> kernel_names;
  for (const auto& k : kernels) kernel_names.insert(k.name);
  type_driver(ast.driver.body, resolver, kernels, diags);
  for (const auto& fn : ast.fns)
    if (!kernel_names.count(fn.name) && !helpers.count(fn.name))
      type_driver(fn.body, resolver, kernels, diags);
}

} // namespace tujit::ir::lang
