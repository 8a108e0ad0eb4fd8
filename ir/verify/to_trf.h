// `to_trf::<Lane, Element>()` on a Collect stream (docs/contraction.md §4.1–§4.2, docs/datapath.md
// §8.1): deals the flits of `[Time, Packet]` to the TRF lanes. Flit f goes to lane f / FPL, so
//   Lane = Time / FPL, Element = [Time % FPL, Packet], FPL = |Time| / |Lane| (FlitsPerLane).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <string_view>

namespace tujit::ir::verify {

/// Rows the scheduler gives a TRF tensor (docs/contraction.md §4.1 "TRF halves"): Full rows 0–127,
/// FirstHalf 0–63, SecondHalf 64–127.
enum class TrfAddressMode : std::uint8_t { Full, FirstHalf, SecondHalf };
std::string_view to_string(TrfAddressMode m); // "full" | "first_half" | "second_half"

struct ToTrfInput {
  ScalarType dtype = ScalarType::BF16;
  Mapping time;    // Collect output Time
  Mapping packet;  // Collect output Packet (one 32 B flit)
  Mapping lane;    // declared TRF Lane
  Mapping element; // declared TRF Element
};

struct ToTrfDerived {
  std::uint64_t lanes = 1;          // |Lane|
  std::uint64_t flits_per_lane = 1; // FPL = |Time| / |Lane|
  std::uint64_t bytes_per_lane = 0; // bytes(D, Element)
  std::uint64_t total_bytes = 0;    // |Lane| · bytes_per_lane (the capacity rule's quantity)
  std::uint64_t rows_per_lane = 0;  // 64 B TRF rows (both banks) one lane uses, [MODEL] §4.1
  std::uint64_t row_capacity_per_lane = 0; // rows one lane may use in `address_mode`
  /// [PROP] §4.2: a tensor of at most half the file goes to a half (FirstHalf by default; the
  /// scheduler may pick SecondHalf for double buffering), a larger one takes Full.
  TrfAddressMode address_mode = TrfAddressMode::Full;
  bool fits_half = false;
  Mapping time_outer;                    // split(Time, FPL).outer, normal form (≡ Lane)
  Mapping time_inner;                    // split(Time, FPL).inner, normal form
  ScalarType element = ScalarType::BF16; // the stored type (its row storage: trf_storage.h)

  /// Keys: lanes, flits_per_lane, bytes_per_lane, total_bytes, rows_per_lane,
  /// row_capacity_per_lane, address_mode, fits_half, time_outer, time_inner, and the physical
  /// storage: row_bits, stored_type, stored_bits, elements_per_row.
  DerivedTable to_table() const;
};

/// Rules, first failure wins (codes in docs/errors.md):
///   E-TRF-006 PacketNotOneFlit (precondition: the input is a Collect stream), then §4.2:
///   E-TRF-001 LaneSize, E-TRF-002 ExceedsCapacity, E-TRF-003 LaneDoesNotDivideTime,
///   E-TRF-004 LaneMismatch, E-TRF-005 ElementMismatch.
Result<ToTrfDerived> verify_to_trf(const ToTrfInput& in);

} // namespace tujit::ir::verify
