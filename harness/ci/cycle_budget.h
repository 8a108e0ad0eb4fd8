// Cycle budgets (docs/ci.md): `tujit cycles --max-cycles N`, or a `// tujit: max-cycles N`
// comment above the kernel, fails when the analytic cycle model (docs/cycle-model.md) needs more
// than N cycles, so a change that slows a kernel breaks CI.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/checked_kernel.h"

#include <cstdint>
#include <optional>

namespace tujit::ci {

/// E-CYCLES-003 at `where` (the comment, or the kernel's name for --max-cycles) when
/// `analytic_total` exceeds `budget`; nothing within budget.
std::optional<Diagnostic> check_cycle_budget(const ir::Kernel& kernel, std::uint64_t analytic_total,
                                             std::uint64_t budget, SourceSpan where);

/// The analytic cycles a budget holds the kernel to (cycles::budget_cycles: its main command's);
/// E-CYCLES-001 at `where` when the kernel has no command to time.
Result<std::uint64_t> analytic_total(const ir::verify::CheckedKernel& kernel, SourceSpan where);

} // namespace tujit::ci
