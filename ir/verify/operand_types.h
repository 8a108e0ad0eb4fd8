// The Multiplier's operand pairs (docs/contraction.md §2.1, docs/scalars.md §5.4): which stream
// (activation) × TRF (weight) element types `contract_outer` accepts and the accumulator the
// stream type selects.
#pragma once

#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

namespace tujit::ir::verify {

struct OperandTypesInput {
  ScalarType stream = ScalarType::BF16; // the Collect stream's element type
  ScalarType weight = ScalarType::BF16; // the TRF tensor's element type
};

struct OperandTypesDerived {
  ScalarType accumulator = ScalarType::F32; // Acc: i32 for integer pairs, f32 for float pairs
  std::uint32_t stream_bits = 0;            // wire bits of the stream type
  std::uint32_t weight_bits = 0;
  /// Keys: accumulator, stream_type, weight_type.
  DerivedTable to_table(const OperandTypesInput& in) const;
};

/// E-OUTER-001 OperandPair: the pair is not in the table of §2.1 (non-operand type, int × float,
/// i4 × i8, different float formats).
Result<OperandTypesDerived> verify_operand_types(const OperandTypesInput& in);

} // namespace tujit::ir::verify
