// Whether a kernel passes `tujit check` in CI (docs/ci.md): accepted, or refused with exactly
// the codes its `// tujit: expect` comment names.
#pragma once

#include "harness/ci/directives.h"
#include "ir/support/diagnostic.h"

#include <set>
#include <string>
#include <string_view>

namespace tujit::ci {

struct Verdict {
  enum class Kind {
    Ok,                // accepted, nothing expected
    RefusedAsExpected, // refused with exactly the expected codes
    Refused,           // refused, nothing expected
    NotAsExpected,     // accepted though a refusal was expected, or refused with other codes
  };
  Kind kind = Kind::Ok;
  bool passed() const { return kind == Kind::Ok || kind == Kind::RefusedAsExpected; }
  /// "ok", "refused as expected (E-TIME-004)", "refused (E-TRF-001)", "accepted, but expected
  /// E-TIME-004", "refused with E-TIME-002, but expected E-TIME-004".
  std::string summary;
  /// E-CHECK-001 (accepted) or E-CHECK-002 (other codes), at the expect comment.
  std::optional<Diagnostic> mismatch;
  /// The codes whose diagnostics the spec asked for (empty unless RefusedAsExpected).
  std::set<std::string> expected;
};

/// `diagnostics` are everything reported for the kernel (its file's, its own, its stages');
/// `kernel` names it in messages.
Verdict judge(const Diagnostics& diagnostics, const KernelDirectives& directives,
              std::string_view kernel);

/// "E-A, E-B".
std::string code_list(const std::set<std::string>& codes);

} // namespace tujit::ci
