// Bit-for-bit comparison of two engines' results (`tujit run --verify`, the differential tests):
// device images (bits and cell states), and for contractions also the poison report and the
// simulated MACs.
#pragma once

#include "runtime/interp/interpreter.h"

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

/// Empty when `a` and `b` are identical; else a sentence naming the first difference (the output
/// cell as "slice S, T3 t, P3 j" with both values in hex), for a person reading a failed check.
std::optional<std::string> first_difference(const ContractionResult& a, const ContractionResult& b);

} // namespace tujit::runtime
