// A Diagnostic as the JSON object of docs/cli.md's `diagnostics[]`: severity, code, stage,
// message, file, line, col, notes.
#pragma once

#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

namespace tujit::cli {

/// The location-free part: severity, code, stage, message, notes.
nlohmann::json diagnostic_fields(const Diagnostic& d);

/// diagnostic_fields plus file, line and col (0 / 0 when the diagnostic has no span).
nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer& src);

} // namespace tujit::cli
