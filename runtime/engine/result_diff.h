// Bit-for-bit comparison of two engines' results (`tujit run --verify`, the differential tests):
// the logical outputs (dtype, axes, every element's bytes), the poison reports and the simulated
// MACs. Neither engine's: `--verify` and the tests compare one with the other through it.
#pragma once

#include "runtime/engine/run_io.h"
#include "runtime/tensor/logical_tensor.h"

#include <optional>
#include <string>
#include <string_view>

namespace tujit::runtime {

/// Empty when the tensors are identical; else a sentence naming the first differing element by
/// its logical coordinates, with both values in hex.
std::optional<std::string> first_tensor_difference(const LogicalTensor& x, const LogicalTensor& y,
                                                   std::string_view what = "output");

/// Empty when `a` and `b` are identical (output, poison report, simulated MACs); else a sentence
/// naming the first difference, for a person reading a failed check.
std::optional<std::string> first_difference(const RunResult& a, const RunResult& b);

} // namespace tujit::runtime
