// A Diagnostic as the JSON object of docs/cli.md's `diagnostics[]`: severity, code, stage,
// message, file, line, col, notes; and report(), how a command prints a diagnostic.
#pragma once

#include "harness/cli/command.h"
#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

namespace tujit::cli {

/// The location-free part: severity, code, stage, message, notes.
nlohmann::json diagnostic_fields(const Diagnostic& d);

/// diagnostic_fields plus file, line and col (0 / 0 when the diagnostic has no span).
nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer& src);
/// The same; without a buffer, file is "" and line / col are 0.
nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer* src);

/// The document a --json command prints when it fails without one of its own:
/// {"command", "ok": false, "exit_status", "diagnostics"}.
nlohmann::ordered_json failure_document(std::string_view command, int status,
                                        const nlohmann::json& diagnostics);

/// Renders `d` on io.err (against `src` when given) and records it in io.reported, so a --json
/// command that fails without a document of its own still lists it (command.h run_cli).
void report(CommandIO& io, const Diagnostic& d, const SourceBuffer* src = nullptr);
/// report() of each; returns `status`.
int report_all(CommandIO& io, const Diagnostics& ds, const SourceBuffer* src, int status);

} // namespace tujit::cli
