// A `&vrf` operand of a Vector Engine call (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Operands" and
// furiosa-opt docs/src/computing-tensors/register-files.md "Vector Register File"): the port
// reads, for each element of the stream, the VRF element with the same coordinates on the axes
// the VRF holds; along the stream's other axes the operand is broadcast, as the reference's
// `transpose::<Mapping>(true)` of the operand to the op's tensor. Which Chip / Cluster / Slice the
// operand sits in is a type rule (E-VE-017, sema); this is the per-slice rule: every live element
// of the stream finds its VRF element (docs/vector-engine.md §3.2).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <vector>

namespace tujit::ir::verify {

struct VrfOperandInput {
  Mapping time, packet; // the stream entering the call
  Mapping element;      // the VRF operand's Element
};

struct VrfOperandDerived {
  /// Per stream cell t·|Packet| + e: the VRF element it reads, or -1 for a padding cell.
  std::vector<std::int64_t> element_of;
  std::uint64_t reads = 0;        // live stream cells (each reads one VRF element)
  std::uint64_t vrf_elements = 0; // distinct VRF elements read
  /// Keys: vrf_reads, vrf_elements_read (reads / vrf_elements_read is the broadcast factor).
  DerivedTable to_table() const;
};

/// E-VE-018 when the VRF names an axis the stream's Time and Packet do not hold, or a live element
/// of the stream has no live VRF element with its coordinates.
Result<VrfOperandDerived> verify_vrf_operand(const VrfOperandInput& in);

} // namespace tujit::ir::verify
