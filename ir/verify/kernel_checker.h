// The kernel checker: runs the stage verifiers of ir/verify/ on every stage of a typed
// kernel (ir/lang/kernel.h), in evaluation order, with the mappings each stage reads, and collects
// per stage its derived parameters (`tujit check --json` stages[].derived, `tujit explain`) or the
// diagnostics of the rule that failed, pointed at the call (or the offending type argument).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

#include <string>
#include <vector>

namespace tujit::ir::verify {

/// The outcome of one stage of the kernel.
struct StageCheck {
  StageOp op = StageOp::Fetch;
  DerivedTable derived;           // empty when the stage failed, was skipped or derives nothing
  Diagnostics diagnostics;        // errors of this stage's rules, each with a span into the file
  std::vector<std::string> notes; // e.g. "skipped: …", "pre-reduce time unknown …"
  bool skipped = false;           // not verified because a stage it depends on failed
  bool ok() const { return !skipped && !has_errors(diagnostics); }
};

struct KernelCheck {
  std::string kernel;
  /// Hardware limits of the kernel's tensor parameters (stage "hardware", docs/contraction.md §1).
  Diagnostics param_diagnostics;
  std::vector<StageCheck> stages; // one per Kernel::stages entry, same order
  /// Every diagnostic: the parameters' first, then the stages' in order.
  Diagnostics all_diagnostics() const;
  bool ok() const { return !has_errors(all_diagnostics()); }
};

/// Verifies every stage of `kernel` (a kernel of `file`). Never throws on user input; a kernel the
/// front end refused (`!kernel.ok`) is still walked, but stages whose types are incomplete are
/// verified only as far as their mappings are present.
KernelCheck check_kernel(const SpecFile& file, const Kernel& kernel);

/// The span a verifier diagnostic of `stage` points at: the type argument the rule names (e.g.
/// OutTime for E-LANE-004) when the stage has it, else the call.
SourceSpan diagnostic_span(const Stage& stage, const Diagnostic& d);

} // namespace tujit::ir::verify
