// The Switch Engine's configuration, the value argument of `.switch::<OutSlice, OutTime>(cfg)`
// (docs/switch.md §1): which of the book's configurations, and its parameters as written.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <string_view>

namespace tujit::ir {

/// The book's configurations (furiosa-opt docs/src/computing-tensors/switch-engine.md); the
/// reference's `Forwarding`
/// is not one a kernel writes (the book: skip `switch` instead).
enum class SwitchKind : std::uint8_t {
  Broadcast01,
  Broadcast1,
  Transpose,
  InterTranspose,
  TransposedBroadcast1,
  CustomBroadcast,
};

/// "Broadcast01", …, as the kernel writes the variant.
std::string_view to_string(SwitchKind k);

/// A `SwitchConfig::Variant { … }` literal: the fields its variant has are set, the others 0.
struct SwitchConfig {
  SwitchKind kind = SwitchKind::Broadcast1;
  std::uint64_t slice1 = 0, slice0 = 0, time0 = 0; // the regular configurations
  std::uint64_t ring_size = 0;                     // CustomBroadcast
  SourceSpan span;                                 // the literal
};

} // namespace tujit::ir
