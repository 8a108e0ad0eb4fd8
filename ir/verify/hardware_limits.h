// Chip/hardware limits shared by every stage constructor (docs/contraction.md §1, §3,
// docs/datapath.md §3, §12.1; the reference's constraints.rs): accepted Cluster/Slice sizes,
// per-slice capacities and packet alignments. Each check is a pure function returning nothing
// on success or an E-HW diagnostic (stage "hardware").
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace tujit::ir::verify {

/// The spatial mappings of a tensor (`Chip` is unchecked: it must equal the chip count, §1).
struct SpatialInput {
  Mapping chip;
  Mapping cluster;
  Mapping slice;
};

/// A typed tensor's Chip, Cluster and Slice mappings.
inline SpatialInput spatial_of(const TensorType& t) {
  return {t.mapping(Slot::Chip), t.mapping(Slot::Cluster), t.mapping(Slot::Slice)};
}

/// E-HW-001 ClusterSize (Cluster::SIZE ∈ {1, 2}), E-HW-002 SliceSize (∈ {64, 128, 256}).
std::optional<Diagnostic> check_spatial(const SpatialInput& in);

/// E-HW-003 DmExceedsCapacity: one slice's DM Element bytes ≤ 512 KiB (docs/datapath.md §3).
std::optional<Diagnostic> check_dm_capacity(ScalarType dtype, const Mapping& element);

/// E-HW-007 NotWholeBytes: `|M|·bits` must be a whole number of bytes (4-bit types, docs/scalars.md
/// §2). `what` names the mapping in the message ("Packet", "Element", …).
std::optional<Diagnostic> check_whole_bytes(ScalarType dtype, const Mapping& m,
                                            std::string_view what);

/// E-HW-004 PacketNotOneFlit: exactly 32 B (Collect output, compute engines, contract_lane).
std::optional<Diagnostic> check_packet_one_flit(ScalarType dtype, const Mapping& packet);

/// E-HW-005 PacketNotAligned: a whole number of 8 B words (Switch input, Fetch → Collect).
std::optional<Diagnostic> check_packet_aligned(ScalarType dtype, const Mapping& packet);

/// E-HW-006 PacketNotOneOrTwoFlits: 32 or 64 B (ContractOuterTensor packet).
std::optional<Diagnostic> check_packet_one_or_two_flits(ScalarType dtype, const Mapping& packet);

/// E-HW-008 SpatialMismatch: two tensors meeting in one stage (the TRF and the stream of
/// contract_outer, S7) must have identical Chip/Cluster/Slice (≡ after normalization).
std::optional<Diagnostic> check_same_spatial(const SpatialInput& a, const SpatialInput& b,
                                             std::string_view a_name, std::string_view b_name);

} // namespace tujit::ir::verify
