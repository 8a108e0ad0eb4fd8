// What the lowerings of the small Sequencer-IR programs (fetch, write, Vector Engine pass) share:
// the diagnostic when a checked kernel has no program of the kind asked for (E-RUN-101,
// docs/errors.md, reported at the run stage, where the lowering is asked for), and the loop that
// lowers every stage of a kernel that starts a program of the kind.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

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

/// `lower(kernel, i)` for every stage i with `starts(stage)`, in stage order; the first failure's
/// diagnostics otherwise.
template <typename Program, typename Starts, typename Lower>
Result<std::vector<Program>> lower_each(const Kernel& kernel, Starts starts, Lower lower) {
  std::vector<Program> out;
  for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
    if (!starts(kernel.stages[i])) continue;
    auto p = lower(kernel, i);
    if (!p) return std::move(p).take_diagnostics();
    out.push_back(std::move(*p));
  }
  return out;
}

} // namespace tujit::ir::seq
