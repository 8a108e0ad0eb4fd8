// The TRF Sequencer of `contract_outer` (docs/contraction.md §5.2, docs/datapath.md §8.2): each
// packet cycle reads ReadSize elements per lane from the TRF and replicates them into the
// OutPacket:
//   OP = [PB, Element % RS] (PacketBroadcast), OT = nested loops over Element / RS (Rows) plus
//   stride-0 broadcast loops.
// The reference leaves this side unchecked (a TODO); rules S1–S7 are tujit's [PROP]
// rules (docs/contraction.md §5.2).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::verify {

struct TrfSequencerInput {
  ScalarType weight = ScalarType::BF16; // TRF element type Dw (ReadSize and bytes use its bits)
  Mapping lane;                         // TRF Lane
  Mapping element;                      // TRF Element (E)
  Mapping out_time;                     // declared OT of contract_outer
  Mapping out_packet;                   // declared OP of contract_outer
  /// S7: Chip/Cluster/Slice of the TRF tensor and of the stream; checked when both are given.
  std::optional<SpatialInput> trf_spatial;
  std::optional<SpatialInput> stream_spatial;
};

/// One loop of the TRF read address generator, outermost first (§5.2 "Loop configuration"):
/// `size` iterations, `stride` in TRF elements (0 = broadcast, re-read the same address).
struct TrfLoopEntry {
  std::uint64_t size = 1;
  std::uint64_t stride = 0;
  friend bool operator==(const TrfLoopEntry&, const TrfLoopEntry&) = default;
};

struct TrfSequencerDerived {
  std::uint64_t read_size = 1; // RS, elements per lane per read
  std::uint64_t read_bits = 0; // RS · bits(Dw)
  bool wide = false;           // 64 B read over both banks; else narrow (one 32 B bank)
  Mapping packet_broadcast;    // PB = split(OP, RS).outer, normal form
  std::uint64_t packet_broadcast_size = 1;
  Mapping rows;                           // Rows = split(E, RS).outer, normal form
  std::uint64_t rows_size = 1;            // |Rows|: reads needed to exhaust the tensor
  std::vector<TrfLoopEntry> loops;        // one entry per OT digit (outer→inner), before merging
  std::vector<TrfLoopEntry> merged_loops; // after merging memory-contiguous neighbours (S5)
  ScalarType weight = ScalarType::BF16;   // the TRF's element type
  /// Keys: read_size, read_bytes (only when whole bytes), read_bits, read_width ("wide" |
  /// "narrow"), wide, packet_broadcast, packet_broadcast_size, rows, rows_size, loops
  /// (text "[size:stride, …]"), loop_entries (merged count); the physical read:
  /// lane_read_bits (640 wide / 320 narrow), row_bits, stored_type, stored_bits,
  /// elements_per_row.
  DerivedTable to_table() const;
};

/// "[32:0, 4:64, 2:32]" (outer→inner).
std::string loops_text(const std::vector<TrfLoopEntry>& loops);

/// ReadSize derivation (§5.2): the largest power of two r ≤ 512 / bits(Dw) with r | |E|,
/// r | |OP| and split(E, r).inner ≡ split(OP, r).inner.
std::uint64_t derive_read_size(ScalarType weight, const Mapping& element,
                               const Mapping& out_packet);

/// Adjacent entries (n1:s1) outer, (n2:s2) inner with s1 = n2·s2 become (n1·n2 : s2)
/// (docs/datapath.md §4 merging; stride-0 neighbours merge too).
std::vector<TrfLoopEntry> merge_loops(const std::vector<TrfLoopEntry>& loops);

/// S6 on a loop configuration: wide reads need every non-zero stride to be a multiple of 64 B;
/// narrow reads a multiple of RS elements with the RS-element read inside one 32 B bank word.
/// (For configurations derived by verify_trf_sequencer this always holds, see
/// docs/errors.md, E-OUTER-015.)
std::optional<Diagnostic> check_trf_alignment(ScalarType weight, std::uint64_t read_size,
                                              const std::vector<TrfLoopEntry>& loops);

/// Derivation, then S1–S7 in order, first failure wins:
///   E-OUTER-010 TrfPacketBroadcastDependsOnTrf (S1), E-OUTER-011 TrfElementNotSequenced (S2),
///   E-OUTER-012 TrfElementRepeated (S3), E-OUTER-013 TrfBroadcastOverlap (S4),
///   E-OUTER-017 TrfOutTimePaddingNotSequenceable ([MODEL] a padding of OT the loops cannot
///   express), E-OUTER-014 TrfSequencerTooManyLoops (S5), E-OUTER-015 TrfMisaligned (S6),
///   E-OUTER-016 TrfSpatialMismatch (S7).
Result<TrfSequencerDerived> verify_trf_sequencer(const TrfSequencerInput& in);

} // namespace tujit::ir::verify
