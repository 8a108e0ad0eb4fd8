// The Collect Engine (docs/datapath.md §8, docs/contraction.md §3): normalizes any packet to
// exactly one 32 B flit. The input packet is top-padded to a whole number of flits and split at one
// flit:
//   Packet2 ≡ innermost flit, Time2 ≡ [Time, outer flits].
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>

namespace tujit::ir::verify {

struct CollectInput {
  ScalarType dtype = ScalarType::BF16;
  Mapping time;       // input Time
  Mapping packet;     // input Packet (any whole number of 8 B words)
  Mapping out_time;   // declared Time2
  Mapping out_packet; // declared Packet2
};

struct CollectDerived {
  std::uint64_t packet_bytes = 0;     // bytes(D, Packet)
  std::uint64_t flits_per_packet = 1; // ceil(packet_bytes / 32): Time2 = |Time| · this
  std::uint64_t pad_bytes = 0;        // top padding added per input packet
  std::uint64_t flit_elements = 1;    // FE(D)
  Mapping expected_out_time;          // [Time, outer], normal form
  Mapping expected_out_packet;        // inner flit, normal form
  /// Keys: packet_bytes, flits_per_packet, pad_bytes, flit_elements, out_time, out_packet.
  DerivedTable to_table() const;
};

/// Rules, first failure wins: E-COLLECT-004 InputPacketNotAligned (input packet a whole number
/// of 8 B access words, docs/datapath.md §5), then the reference's E-COLLECT-001 OutputNotOneFlit,
/// E-COLLECT-002 PacketMismatch, E-COLLECT-003 TimeMismatch.
Result<CollectDerived> verify_collect(const CollectInput& in);

} // namespace tujit::ir::verify
