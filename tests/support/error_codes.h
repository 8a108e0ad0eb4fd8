// The error codes the front end and the stage verifiers give a kernel text, for tests that check
// which rule refuses a case.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"

#include <set>
#include <string>

namespace tujit::testing {

inline std::set<std::string> error_codes(const std::string& text) {
  ir::SpecAnalysis a = ir::analyze(SourceBuffer("t.rs", text));
  std::set<std::string> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) out.insert(d.code);
  for (const auto& k : a.file.kernels) {
    const auto kc = ir::verify::check_kernel(a.file, k);
    for (const auto& d : kc.all_diagnostics())
      if (d.severity == Severity::Error) out.insert(d.code);
  }
  return out;
}

} // namespace tujit::testing
