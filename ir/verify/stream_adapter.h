// The Stream Adapter of `contract_outer` (docs/contraction.md §5.1; docs/datapath.md §8.2): packs
// PackSize consecutive 32 B flits into one 32/64 B packet and broadcasts it TB times (innermost in
// OutTime) and to every lane:
//   PackSize = bytes(D, OP) / 32, OT = [Time / PackSize, TimeBroadcast], OP = [Time % PackSize,
//   Packet], Lane = LaneBroadcast.
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>

namespace tujit::ir::verify {

struct StreamAdapterInput {
  ScalarType dtype = ScalarType::BF16; // stream storage type (sizes are in this type, §3)
  Mapping lane;       // Lane of the TRF operand (= declared Lane of contract_outer)
  Mapping time;       // stream Time (Collect output)
  Mapping packet;     // stream Packet (one flit)
  Mapping out_time;   // declared OT
  Mapping out_packet; // declared OP
};

struct StreamAdapterDerived {
  std::uint64_t pack_size = 1;           // PackSize ∈ {1, 2}
  std::uint64_t time_broadcast_size = 1; // TB = |OT| · PackSize / |Time|
  Mapping time_broadcast;                // split(OT, TB).inner, normal form
  std::uint64_t lane_broadcast = 1;      // LB = |Lane|
  Mapping packed_time;                   // split(Time, PackSize).inner (t_pk)
  Mapping time_outer;                    // split(Time, PackSize).outer (t_out ≡ OT / TB)
  std::uint64_t out_packet_bytes = 0;    // 32 or 64
  /// Keys: pack_size, time_broadcast (mapping), time_broadcast_size, lane_broadcast,
  /// packed_time, time_outer, out_packet_bytes.
  DerivedTable to_table() const;
};

/// Rules, first failure wins (§5.1): E-OUTER-002 LaneSize, E-OUTER-003 OutPacketFlits,
/// E-OUTER-005 PackedCellsMismatch (k ∤ |Time|, [MODEL]), E-OUTER-004 FlitMismatch,
/// E-OUTER-005 PackedCellsMismatch, E-OUTER-006 TimeIndivisible, E-OUTER-007 OutTimeMismatch,
/// then [PROP] E-OUTER-008 LaneAxisReused, [PROP] E-OUTER-009 TimeBroadcastInStream.
Result<StreamAdapterDerived> verify_stream_adapter(const StreamAdapterInput& in);

} // namespace tujit::ir::verify
