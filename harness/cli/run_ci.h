// The CI side of `tujit run` (docs/ci.md), kept out of the run pipeline: the --expect options, a
// finished run's failed checks as diagnostics (so every report format shows them with a code and
// the kernel's file:line:col), and their fields in `tujit run --json`.
#pragma once

#include "harness/cli/command.h"
#include "harness/cli/run_expect.h"
#include "harness/cli/run_save_inputs.h"
#include "harness/run/run_request.h"

#include <boost/program_options/variables_map.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace tujit::cli {

/// --expect PATH [--rtol R] [--atol A]: a usage error (exit 2) for a tolerance without
/// --expect, or a negative or non-finite one.
std::optional<int> read_expect_options(const boost::program_options::variables_map& vm,
                                       CommandIO& io, std::optional<ExpectOptions>& out);

/// What failed in a run that finished: the engines disagree (E-RUN-008, a bug in tujit), the
/// float64 oracle disagrees (E-ORACLE-005), the output differs from --expect (E-EXPECT-001).
Diagnostics run_failures(const ir::Kernel& kernel, const run::RunOutcome& r,
                         const std::optional<ExpectComparison>& expect);

/// `"expect"` and `"saved_inputs"` of `tujit run --json`.
void add_ci_json(nlohmann::ordered_json& doc, const std::optional<ExpectComparison>& expect,
                 const std::vector<SavedInput>& saved);

} // namespace tujit::cli
