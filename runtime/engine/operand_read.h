// The element a run's operand reads, as its consumer sees it: the Fetch Adapter's table lookup,
// cast or zero-point subtraction (docs/datapath.md §6) applied to the logical tensor's element.
// Both engines read operands through it (the JIT also to build its widening tables).
#pragma once

#include "ir/seq/address_stream.h"
#include "ir/types/scalar_type.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>

namespace tujit::runtime {

/// An element of `source` type (its 32-bit container) as the consumer of `operand` sees it: the
/// Fetch Adapter's table lookup, cast and zero-point subtraction applied (docs/datapath.md §6).
std::uint32_t adapt_element(const ir::seq::OperandStreams& operand, ir::ScalarType source,
                            std::uint32_t bits);

/// The element an operand reads at a live cell (logical offset), adapted.
std::uint32_t read_operand(const ir::seq::OperandStreams& operand, const LogicalTensor& tensor,
                           std::uint64_t offset);

/// The `&vrf` operand a Vector Engine call reads at a cell of its view (ir/seq/run_program.h
/// vrf_operands): the adapted element at a live cell, 0 at a VRF element no store wrote (the VRF is
/// zero-initialised, docs/contraction.md §4.3; lowering refuses a read of padding).
inline std::uint32_t read_vrf_operand(const ir::seq::OperandStreams& operand,
                                      const LogicalTensor& tensor, ir::seq::CellAddress cell) {
  return cell.state == ir::CellState::Live ? read_operand(operand, tensor, cell.offset) : 0u;
}

} // namespace tujit::runtime
