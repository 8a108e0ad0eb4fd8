// Kernel typing (docs/kernel-language.md §6, docs/contraction.md §3):
// every fn with a tensor-typed parameter becomes a Kernel whose chains are typed stage by stage,
// with `_`/omitted type arguments inferred from the TRF operand, a `let` annotation or the
// declared return type. The entry points (analyze, analyze_spec, load_spec) are in kernel.h.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/lang/parser.h"
#include "ir/lang/resolve.h"

#include <set>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// A fn a kernel body may call (docs/kernel-language.md §9): one of its module's own, or one a
/// `use` brings from another module of the file (§1.2), whose body is typed with the names of the
/// module that defines it (`resolver`).
struct CallableFn {
  std::string name; // the name the caller uses (a `use … as` may rename it)
  const FnItem* fn = nullptr;
  Resolver* resolver = nullptr;
};

/// Types one kernel candidate `fn` (its parameters, statements and tail). Diagnostics go to
/// `diags`. Returns nullopt when the fn is not a kernel candidate (driver code). A call of one of
/// `fns` (the file's) is typed inline at the call (docs/kernel-language.md §9); with nullptr
/// (driver code) a free call stays outside the kernel language.
std::optional<Kernel> type_kernel(const FnItem& fn, Resolver& resolver, Diagnostics& diags,
                                  const std::vector<FnItem>* fns = nullptr);
/// The same with the fns the kernel may call given with their resolvers.
std::optional<Kernel> type_kernel(const FnItem& fn, Resolver& resolver, Diagnostics& diags,
                                  const std::vector<CallableFn>& callables);

/// A kernel candidate: a fn with a tensor-typed parameter, or one taking `ctx: &mut Context`
/// and returning a tensor.
bool is_kernel_candidate(const FnItem& fn, const Resolver& resolver);

/// The helpers among `fns`: kernel candidates that another candidate calls, that are not
/// `#[device]` and that a kernel reaches through its calls. Their bodies are typed at each call;
/// they are not kernels of their own (docs/kernel-language.md §9).
std::set<std::string> helper_fns(const std::vector<FnItem>& fns, const Resolver& resolver);

/// Warnings for refused operations (vector_*, commit*, …) in a fn that is not a kernel.
void warn_refused_in_driver(const FnItem& fn, Diagnostics& diags);

} // namespace tujit::ir::lang
