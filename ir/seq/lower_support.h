// What the lowerings of the small Sequencer-IR programs (fetch, write, Vector Engine pass) share:
// the diagnostic when a checked kernel has no program of the kind asked for (E-RUN-101,
// docs/errors.md, reported at the run stage, where the lowering is asked for), and the loop that
// lowers every stage of a kernel that starts a program of the kind.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/checked_kernel.h"

#include <fmt/format.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::seq {

inline Diagnostic lower_error(std::string message, std::optional<SourceSpan> span = std::nullopt,
                              std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-RUN-101", std::move(message), span, std::move(notes));
  d.stage = "run";
  return d;
}

/// What the kernel checker derived for `stage`, a stage of the checked kernel; E-RUN-101 when it
/// derived nothing of that kind (a stage that did not verify never reaches lowering).
template <class Derived>
Result<Derived> verified(const verify::CheckedKernel& kernel, const Stage& stage) {
  if (const Derived* d = kernel.derived<Derived>(stage)) return *d;
  return lower_error(fmt::format("internal: `{}` reached lowering without its verifier's result",
                                 to_string(stage.op)),
                     stage.name_span);
}

/// `lower(kernel, i)` for every stage i with `starts(stage)`, in stage order; the first failure's
/// diagnostics otherwise.
template <typename Program, typename Starts, typename Lower>
Result<std::vector<Program>> lower_each(const verify::CheckedKernel& checked, Starts starts,
                                        Lower lower) {
  const Kernel& kernel = checked;
  std::vector<Program> out;
  for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
    if (!starts(kernel.stages[i])) continue;
    auto p = lower(checked, i);
    if (!p) return std::move(p).take_diagnostics();
    out.push_back(std::move(*p));
  }
  return out;
}

} // namespace tujit::ir::seq
