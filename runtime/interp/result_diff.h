// Bit-for-bit comparison of two engines' contraction results (`tujit run --verify`, the
// differential tests): output bits and cell states, poison report, simulated MACs.
#pragma once

#include "runtime/interp/interpreter.h"

#include <optional>
#include <string>

namespace tujit::runtime {

/// Empty when `a` and `b` are identical; else a sentence naming the first difference (the output
/// cell as "slice S, T3 t, P3 j" with both values in hex), for a person reading a failed check.
std::optional<std::string> first_difference(const ContractionResult& a, const ContractionResult& b);

} // namespace tujit::runtime
