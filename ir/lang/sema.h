// Kernel typing (docs/kernel-language.md §6, docs/contraction.md §3):
// every fn with a tensor-typed parameter becomes a Kernel whose chains are typed stage by stage,
// with `_`/omitted type arguments inferred from the TRF operand, a `let` annotation or the
// declared return type. The entry points (analyze, analyze_spec, load_spec) are in kernel.h.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/lang/parser.h"
#include "ir/lang/resolve.h"

namespace tujit::ir::lang {

/// Types one kernel candidate `fn` (its parameters, statements and tail). Diagnostics go to
/// `diags`. Returns nullopt when the fn has no tensor-typed parameter (driver code).
std::optional<Kernel> type_kernel(const FnItem& fn, Resolver& resolver, Diagnostics& diags);

/// Warnings for refused operations (vector_*, commit*, …) in a fn that is not a kernel.
void warn_refused_in_driver(const FnItem& fn, Diagnostics& diags);

} // namespace tujit::ir::lang
