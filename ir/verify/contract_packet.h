// Packet Reducer verifier (`contract_packet`, docs/contraction.md §6): the input packet OP is one
// or two flits, the declared OutPacket P2 is a power of two within the 32 accumulator columns,
// and P2 is OP with its innermost 2^d cells summed (up to padding on the outer end).
#pragma once

#include "ir/mapping/factor.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>

namespace tujit::ir::verify {

/// What `contract_packet::<P2>()` reads: the stream storage type and the Outer stage's
/// OutPacket, plus the declared OutPacket.
struct ContractPacketInput {
  ScalarType dtype = ScalarType::BF16; // stream storage type D (sizes are in its wire bits)
  Mapping out_packet;                  // OP: the packet leaving the Outer stage
  Mapping p2;                          // P2: the declared OutPacket of contract_packet
};

/// Derived parameters of the Packet Reducer (docs/contraction.md §6).
struct ContractPacketDerived {
  std::uint32_t depth = 0;        // d: tree depth, the smallest qualifying one ([MODEL])
  std::uint64_t group = 1;        // 2^d: adjacent OP cells summed into one column
  FactorList reduce_packet;       // RP = split(OP, 2^d).outer
  std::uint64_t live_columns = 0; // L = |strip(RP)|: the live column prefix
  std::uint64_t out_columns = 0;  // |P2|
  std::uint32_t tree_latency = 0; // cycles: 7 (4-bit), 6 (8-bit), 5 (bf16) (§10)

  /// Keys: depth, group, reduce_packet, live_columns, out_columns, tree_latency.
  DerivedTable to_table() const;
};

/// Runs the rules of docs/contraction.md §6 in order (first failure wins). Codes:
/// E-PACKET-001 InvalidPacketSize, -002 OutPacketTooWide, -003 OutPacketNotPow2,
/// -004 NotAContraction, -005 NotAContractionOperand (a type the Multiplier has no MAC for;
/// checked first, normally caught by contract_outer).
Result<ContractPacketDerived> verify_contract_packet(const ContractPacketInput& in);

} // namespace tujit::ir::verify
