// Lane Folder verifier (`contract_lane`, docs/contraction.md §8): relocates Lane into the output
// packet (Interleaved) or the output time (Sequential), sums nothing, emits 8-element flits, and
// checks that the slot chunks of one slot group fit the 1024-cell accumulator.
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

#include "ir/types/lane_mode.h"

#include <cstdint>
#include <string_view>

namespace tujit::ir::verify {

/// What `contract_lane::<T3, P3>(mode)` reads.
struct ContractLaneInput {
  LaneMode mode = LaneMode::Interleaved;
  Mapping lane;            // Lane
  Mapping t2;              // Time after the Time Reducer
  Mapping p2;              // Packet after the Packet Reducer
  Mapping t3;              // declared OutTime
  Mapping p3;              // declared OutPacket
  Mapping pre_reduce_time; // OT remembered by contract_time
};

/// Derived parameters of the Lane Folder (docs/contraction.md §7 capacity, §8, §10).
struct ContractLaneDerived {
  LaneMode mode = LaneMode::Interleaved;
  std::uint64_t inner_time = 1;    // InnerTime: slots one slot group keeps open
  std::uint64_t padded_lane = 8;   // Lane cells per chunk (Interleaved: Lane padded to 8)
  std::uint64_t padded_packet = 1; // packet cells per chunk (Sequential: P2 padded to 32)
  std::uint64_t slot_capacity = 1; // chunks that fit: Interleaved 128/|P2|, Sequential 32/|Lane|
  std::uint64_t accumulator_cells = 0; // padded_lane * inner_time * padded_packet (<= 1024)
  std::uint64_t output_flits = 0;      // |T3|: one 8-element flit per OutTime position
  std::uint64_t flits_per_slot = 1;    // Interleaved |P2|; Sequential |Lane| * ceil(|P2| / 8)
  std::uint64_t drain_flits = 1;       // flits of the last slot group: InnerTime * flits_per_slot
                                       // (docs/contraction.md §10 cycle model "drain")

  /// Keys: mode, inner_time, padded_lane, padded_packet, slot_capacity, accumulator_cells,
  /// output_flits, flits_per_slot, drain_flits.
  DerivedTable to_table() const;
};

/// The Lane Folder's input from a ContractTimeTensor `in` and the declared ContractTensor `out`.
/// The Time Reducer "remembers OT" (docs/contraction.md §3); a tensor without it (a kernel
/// parameter: its producer is outside the file) is taken as reduced over nothing, its Time as
/// the pre-reduce time (InnerTime 1), the smallest slot demand consistent with its type.
ContractLaneInput contract_lane_input(const TensorType& in, const TensorType& out, LaneMode mode);

/// Runs the rules of docs/contraction.md §8 in order (first failure wins). Codes:
/// E-LANE-001 PacketTooWide, -002 OutPacketSize, -003 OutPacketMismatch, -004 OutTimeMismatch,
/// -005 OuterTimeMismatch, -006 InconsistentReduceTime, -007 BufferExceeded.
Result<ContractLaneDerived> verify_contract_lane(const ContractLaneInput& in);

} // namespace tujit::ir::verify
