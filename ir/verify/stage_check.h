// Common shape of every stage verifier (docs/contraction.md §4–§8, docs/datapath.md): a pure
// function from the stage's mappings and element types to either its derived parameters or the
// diagnostics that name the rule, the mappings involved and the values that broke it (rule_error,
// ir/support/diagnostic.h).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace tujit::ir::verify {

/// One derived value for reports (`tujit check --json` stages[].derived, `tujit explain`):
/// a number, a flag, a word, or a mapping (printed as `m![…]` body text).
using DerivedValue = std::variant<std::uint64_t, bool, std::string, Mapping>;
using DerivedTable = std::map<std::string, DerivedValue>; // key: snake_case, e.g. "pack_size"

} // namespace tujit::ir::verify
