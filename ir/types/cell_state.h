// What one device cell (a stream, register-file or accumulator position) holds, from its
// tensor type's mappings: a logical element or one of the three paddings of the mapping algebra.
#pragma once

#include "ir/mapping/mapping.h"

#include <cstdint>

namespace tujit::ir {

enum class CellState : std::uint8_t {
  Live,   // a logical element
  Zero,   // `#{0}` padding, or Collect's zero fill: holds 0
  Top,    // `#` padding: arbitrary content on hardware (poison)
  Bottom, // `#{!}` padding or out of bounds: never read
};

constexpr CellState cell_state_of(PaddingKind k) {
  switch (k) {
  case PaddingKind::Zero:
    return CellState::Zero;
  case PaddingKind::Top:
    return CellState::Top;
  case PaddingKind::Bottom:
    return CellState::Bottom;
  }
  return CellState::Bottom;
}

/// combine(major, minor) on states: the most major padding wins (docs/mapping.md §2 combine).
constexpr CellState combine_states(CellState major, CellState minor) {
  return major != CellState::Live ? major : minor;
}

} // namespace tujit::ir
