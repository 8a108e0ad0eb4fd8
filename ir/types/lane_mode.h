// How the Lane Folder places Lane in the output stream (docs/contraction.md §8).
#pragma once

#include <cstdint>
#include <string_view>

namespace tujit::ir {

enum class LaneMode : std::uint8_t {
  Interleaved, // T3 = [T2, P2], P3 = [Lane # 8]
  Sequential,  // T3 = [T2, Lane, pad8(P2) / 8], P3 = pad8(P2) % 8
};

/// "Interleaved" | "Sequential", as written in kernels (`LaneMode::Interleaved`).
constexpr std::string_view to_string(LaneMode m) {
  return m == LaneMode::Interleaved ? "Interleaved" : "Sequential";
}

} // namespace tujit::ir
