// A stage verifier's derived parameters as JSON (docs/cli.md: `tujit check --json`
// stages[].derived, `tujit stage --json` derived): numbers as JSON numbers, flags as booleans,
// words as strings, mappings as their `m![…]` body text (without `m![ ]`).
#pragma once

#include "ir/verify/stage_check.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tujit::cli {

/// One derived value as JSON (see the file comment for the encoding).
nlohmann::json to_json(const ir::verify::DerivedValue& v);

/// A whole derived table as a JSON object keyed by the table's snake_case names.
nlohmann::json to_json(const ir::verify::DerivedTable& t);

/// One derived value as text for people: numbers in decimal, `true`/`false`, words verbatim,
/// mappings as `m![…]` body text.
std::string to_text(const ir::verify::DerivedValue& v);

} // namespace tujit::cli
