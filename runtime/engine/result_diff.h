// Bit-for-bit comparison of two engines' results (`tujit run --verify`, the differential tests):
// the logical outputs (dtype, axes, every element's bytes), the poison reports and the simulated
// MACs; and of device images (the stage-by-stage executor's and the fetch engines' results).
#pragma once

#include "runtime/device/device_image.h"
#include "runtime/engine/run_io.h"
#include "runtime/tensor/logical_tensor.h"

#include <optional>
#include <string>
#include <string_view>

namespace tujit::runtime {

/// Empty when the images are identical (type, shape, every cell's bits and state); else a
/// sentence naming the first differing cell as "<what> cell (slice S, <outer> o, <inner> i)"
/// with both values in hex.
std::optional<std::string> first_image_difference(const DeviceImage& x, const DeviceImage& y,
                                                  std::string_view what = "output",
                                                  std::string_view outer = "T3",
                                                  std::string_view inner = "P3");

/// Empty when the tensors are identical; else a sentence naming the first differing element by
/// its logical coordinates, with both values in hex.
std::optional<std::string> first_tensor_difference(const LogicalTensor& x, const LogicalTensor& y,
                                                   std::string_view what = "output");

/// Empty when `a` and `b` are identical (output, poison report, simulated MACs); else a sentence
/// naming the first difference, for a person reading a failed check.
std::optional<std::string> first_difference(const RunResult& a, const RunResult& b);

} // namespace tujit::runtime
