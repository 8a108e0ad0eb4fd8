// A Diagnostic as the JSON object of spec/cli.md's `diagnostics[]`: severity, code, stage,
// message, file, line, col, notes.
#pragma once

#include "ir/support/diagnostic.h"

#include <nlohmann/json.hpp>

namespace tujit::cli {

nlohmann::json diagnostic_json(const Diagnostic& d, const SourceBuffer& src);

} // namespace tujit::cli
