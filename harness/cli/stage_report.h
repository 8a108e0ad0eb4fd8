// What `tujit stage` prints (docs/cli.md §11): a stage's derived parameters as a table or one
// JSON document, or the diagnostics that refused it, each located in the option text it points
// into. The command line is cmd_stage.cpp; the OPs are stage_ops.h.
#pragma once

#include "harness/cli/command.h"
#include "harness/cli/stage_ops.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::cli {

/// One diagnostic and the option text it points into (none for a verifier's rule failure).
struct Reported {
  Diagnostic diagnostic;
  std::optional<SourceBuffer> source;
};

/// `ds` as diagnostics pointing into the option `source_name` whose text is `text`.
std::vector<Reported> with_source(const Diagnostics& ds, const std::string& source_name,
                                  const std::string& text);

/// Prints the diagnostics (and with `json` the `{"ok": false, …}` document); exit 1.
int report_failure(const std::vector<Reported>& ds, std::string_view op, bool json, CommandIO& io);

/// Prints `derived` as `ok: OP` and a table, or with `json` the `{"ok": true, …}` document; exit 0.
int report_derived(const StageOp& op, const ir::verify::DerivedTable& derived, bool json,
                   CommandIO& io);

} // namespace tujit::cli
