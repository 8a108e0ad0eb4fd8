// Comments that tell `tujit check` and `tujit cycles` what a kernel must do in CI (docs/ci.md):
//
//   // tujit: expect E-TIME-004           the kernel must be refused, with exactly these codes
//   // tujit: expect E-TRF-001, E-TRF-002
//   // tujit: max-cycles 80               the analytic cycle model must not exceed 80 cycles
//
// A directive is a whole-line `//` comment. It belongs to the kernel whose `fn` follows it or
// contains it (after the end of the kernel before); in a file that defines no kernel it belongs
// to the file. Text after the codes or the number is a free comment.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ci {

struct KernelDirectives {
  std::vector<std::string> expect;       // codes, in the order written, each once
  std::optional<SourceSpan> expect_span; // the first expect comment
  std::optional<std::uint64_t> max_cycles;
  std::optional<SourceSpan> max_cycles_span;
  /// E-CHECK-003 for its comments: not one of the directives above, a code docs/errors.md does
  /// not list, a second max-cycles.
  Diagnostics diagnostics;
};

struct SpecDirectives {
  /// One per kernel of the file, in the file's order; one for the whole file when it defines no
  /// kernel.
  std::vector<KernelDirectives> kernels;
  /// E-CHECK-003 for a `// tujit:` comment after the last kernel (it applies to none).
  Diagnostics diagnostics;
};

SpecDirectives read_directives(const SourceBuffer& source, const std::vector<ir::Kernel>& kernels);

} // namespace tujit::ci
