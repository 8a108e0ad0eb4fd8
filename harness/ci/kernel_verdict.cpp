#include "harness/ci/kernel_verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace tujit::ci {

std::string code_list(const std::set<std::string>& codes) {
  std::string s;
  for (const auto& c : codes) s += (s.empty() ? "" : ", ") + c;
  return s;
}

Verdict judge(const Diagnostics& diagnostics, const KernelDirectives& directives,
              std::string_view kernel) {
  std::set<std::string> refused;
  for (const auto& d : diagnostics)
    if (d.severity == Severity::Error) refused.insert(d.code);
  const std::set<std::string> expect(directives.expect.begin(), directives.expect.end());
  Verdict v;
  if (expect.empty()) {
    v.kind = refused.empty() ? Verdict::Kind::Ok : Verdict::Kind::Refused;
    v.summary = refused.empty() ? "ok" : "refused (" + code_list(refused) + ")";
    return v;
  }
  if (refused == expect) {
    v.kind = Verdict::Kind::RefusedAsExpected;
    v.summary = "refused as expected (" + code_list(refused) + ")";
    v.expected = refused;
    return v;
  }
  v.kind = Verdict::Kind::NotAsExpected;
  const std::string want = code_list(expect);
  if (refused.empty()) {
    v.summary = "accepted, but expected " + want;
    v.mismatch = make_error(
        "E-CHECK-001",
        fmt::format("kernel `{}` is accepted, but its `// tujit: expect` comment says it must be "
                    "refused with {}",
                    kernel, want),
        directives.expect_span,
        {"the kernel no longer breaks the rule it was written to break: fix the kernel or the "
         "comment (docs/ci.md)"});
  } else {
    std::set<std::string> extra, missing;
    std::set_difference(refused.begin(), refused.end(), expect.begin(), expect.end(),
                        std::inserter(extra, extra.end()));
    std::set_difference(expect.begin(), expect.end(), refused.begin(), refused.end(),
                        std::inserter(missing, missing.end()));
    v.summary = "refused with " + code_list(refused) + ", but expected " + want;
    std::vector<std::string> notes;
    if (!extra.empty()) notes.push_back("not expected: " + code_list(extra));
    if (!missing.empty()) notes.push_back("expected but not reported: " + code_list(missing));
    v.mismatch = make_error("E-CHECK-002",
                            fmt::format("kernel `{}` is refused with {}, but its `// tujit: "
                                        "expect` comment names {}",
                                        kernel, code_list(refused), want),
                            directives.expect_span, std::move(notes));
  }
  v.mismatch->stage = "check";
  return v;
}

} // namespace tujit::ci
