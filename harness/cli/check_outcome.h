// `tujit check PATH…` file by file (docs/ci.md): every kernel of a spec file with everything
// reported for it — its file's diagnostics, its own, its stages', its `// tujit:` comments' —
// and the CI verdict: accepted, refused as its `expect` comment says, within its cycle budget.
#pragma once

#include "harness/ci/kernel_verdict.h"
#include "harness/cli/check_report.h"
#include "harness/report/report.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::cli {

struct KernelOutcome {
  std::string name; // the kernel; the file's name when it defines none
  const ir::Kernel* kernel = nullptr;
  const ir::verify::KernelCheck* check = nullptr;
  Diagnostics diagnostics;
  ci::Verdict verdict;
  /// A cycle budget (`// tujit: max-cycles N`) and the analytic model's cycles against it.
  std::optional<std::uint64_t> max_cycles, cycles;
  bool over_budget = false;
  double seconds = 0; // the file's check time, shared evenly by its kernels
  /// The kernel's line: "ok (contract_outer, …)", "refused as expected (E-TIME-004)", …
  std::string summary() const;
};

struct CheckedFile {
  std::string path;
  CheckedSpec spec;
  std::vector<KernelOutcome> kernels;
  const SourceBuffer* source() const {
    return spec.analysis ? &spec.analysis->file.source : nullptr;
  }
};

/// Checks `path` and judges each kernel (or `kernel` alone). nullopt, or the exit status of a
/// usage or I/O error (already printed).
std::optional<int> check_spec_file(const std::string& path,
                                   const std::optional<std::string>& kernel, CommandIO& io,
                                   CheckedFile& out);

/// The report record of one outcome; diagnostics the spec expects are marked so.
report::ReportRecord outcome_record(const CheckedFile& file, const KernelOutcome& k);

} // namespace tujit::cli
