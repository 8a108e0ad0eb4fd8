// The output path of the Tensor Unit (docs/output-path.md): the Cast Engine (`cast`), the Commit
// Adapter (`commit_trim`, `commit_cast`, `commit_cast_relu`) and the Commit Engine (`commit`),
// which write a stream that leaves the engines into a DmTensor. Each verifier is a pure function of
// the stage's element types and mappings, returning its derived parameters or the diagnostic that
// names the rule (E-CAST, E-COMMIT; docs/errors.md).
#pragma once

#include "ir/datapath/sequencer_config.h"
#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>

namespace tujit::ir::verify {

/// `.cast::<OutD, OutPacket>()` on a stream of `in` with packet `packet`.
struct CastInput {
  ScalarType in = ScalarType::F32;
  ScalarType out = ScalarType::BF16;
  Mapping packet;     // the input Packet
  Mapping out_packet; // the declared OutPacket
};

struct CastDerived {
  std::uint64_t elements = 0;   // live elements per flit (the packet without its top padding)
  std::uint64_t in_bytes = 32;  // bytes(D, Packet): one flit
  std::uint64_t out_bytes = 32; // bytes(OutD, OutPacket): one flit
  /// Keys: elements, in_bytes, out_bytes.
  DerivedTable to_table() const;
};

/// Rules, first failure wins: E-CAST-001 the type pair (docs/scalars.md §5.2), E-CAST-002 the input
/// packet is not one flit, E-CAST-003 OutPacket is not one flit of OutD, E-CAST-004 OutPacket does
/// not hold the input packet's elements in its order (the Cast Engine re-pads, it moves nothing).
Result<CastDerived> verify_cast(const CastInput& in);

/// `.commit_trim::<OutPacket>()`.
struct CommitTrimInput {
  ScalarType dtype = ScalarType::F32;
  Mapping packet;
  Mapping out_packet;
};

struct CommitTrimDerived {
  std::uint64_t valid_size = 0;  // elements kept per flit: |OutPacket|
  std::uint64_t valid_bytes = 0; // D[valid_size]
  std::uint64_t trimmed = 0;     // elements dropped per flit
  /// Keys: valid_size, valid_bytes, trimmed.
  DerivedTable to_table() const;
};

/// Rules: E-COMMIT-001 the input packet is not one flit, E-COMMIT-002 D[valid_size] is not 8, 16,
/// 24 or 32 bytes, E-COMMIT-003 OutPacket is not the leading |OutPacket| elements of the packet
/// (docs/output-path.md §2.1).
Result<CommitTrimDerived> verify_commit_trim(const CommitTrimInput& in);

/// `.commit_cast::<OutD>()` / `.commit_cast_relu::<OutD>()` on a trimmed packet.
struct CommitCastInput {
  ScalarType in = ScalarType::F32;
  ScalarType out = ScalarType::BF16;
  Mapping packet; // the trimmed packet
  bool relu = false;
};

struct CommitCastDerived {
  std::uint64_t in_bytes = 0;  // the trimmed packet in f32
  std::uint64_t out_bytes = 0; // the same elements in bf16
  bool relu = false;
  /// Keys: in_bytes, out_bytes, relu.
  DerivedTable to_table() const;
};

/// Rules: E-COMMIT-004 the type pair (f32 → bf16 only, docs/scalars.md §5.3), E-COMMIT-005 the
/// trimmed packet in f32 is not 16 or 32 bytes.
Result<CommitCastDerived> verify_commit_cast(const CommitCastInput& in);

/// `.commit::<Element>()`: the stream (Time, Packet) written into the DM tensor's Element.
struct CommitInput {
  ScalarType dtype = ScalarType::F32;
  Mapping time, packet; // the trimmed (and cast) stream
  Mapping element;      // the DmTensor's Element
  ContextKind context = ContextKind::Main;
};

struct CommitDerived {
  datapath::SequencerConfig sequencer; // the write sequencer, addresses in DM elements
  std::uint64_t valid_size = 0;        // elements per packet
  std::uint64_t access_size = 0;       // contiguous elements per sequencer access
  std::uint64_t write_size = 0;        // elements per DM write
  std::uint64_t writes_per_packet = 1; // valid_size / write_size
  std::uint64_t cycles = 0;            // |Time| · writes_per_packet
  std::uint64_t written = 0;           // live stream positions written
  /// Keys: sequencer, valid_size, access_size, write_size, writes_per_packet, cycles, written.
  DerivedTable to_table() const;
};

/// Rules: the write sequencer of docs/datapath.md §4 (E-FETCH-010 … E-FETCH-019), then
/// E-COMMIT-006 a Time stride that is not a whole number of 8-byte words (docs/output-path.md §3).
Result<CommitDerived> verify_commit(const CommitInput& in);

} // namespace tujit::ir::verify
