// The kernel checker: runs the stage verifiers of ir/verify/ on every stage of a typed
// kernel (ir/lang/kernel.h), in evaluation order, with the mappings each stage reads, and collects
// per stage its derived parameters (`tujit check --json` stages[].derived, `tujit explain`) or the
// diagnostics of the rule that failed, pointed at the call (or the offending type argument).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"
#include "ir/verify/stage_verifiers.h"

#include <string>
#include <vector>

namespace tujit::ir::verify {

struct KernelCheck {
  std::string kernel;
  /// Hardware limits of the kernel's tensor parameters (stage "hardware", docs/contraction.md §1).
  Diagnostics param_diagnostics;
  std::vector<StageCheck> stages; // one per Kernel::stages entry, same order
  /// One per Kernel::driver entry: the driver code that builds the kernel's inputs is verified
  /// by the same rules (ir/lang/driver.h).
  std::vector<StageCheck> driver_stages;
  /// Every diagnostic: the parameters' first, then the stages', then the driver's, in order.
  Diagnostics all_diagnostics() const;
  bool ok() const { return !has_errors(all_diagnostics()); }
};

/// Verifies every stage of `kernel` (a kernel of `file`). Never throws on user input; a kernel the
/// front end refused (`!kernel.ok`) is still walked, but stages whose types are incomplete are
/// verified only as far as their mappings are present.
KernelCheck check_kernel(const SpecFile& file, const Kernel& kernel);
/// The same: a typed kernel's mappings are resolved, so the check needs nothing else of its file.
KernelCheck check_kernel(const Kernel& kernel);

} // namespace tujit::ir::verify
