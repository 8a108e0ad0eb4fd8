// How the Tensor Register File holds one element (docs/contraction.md §4.1, the book's
// furiosa-opt docs/src/computing-tensors/register-files.md "Architecture"): a row is 320 bits per
// bank; integers widen by one bit on store (i4 → i5, i8 → i9) to leave room for the fetch adapter's
// zero-point subtraction, f8 and bf16 keep their width, so a row holds 64 i4/i5, 32 i8/i9/f8 or 16
// bf16 elements (the 256-bit payload of a flit; the widening bits use the row's slack: 64·5 = 320,
// 32·9 = 288).
#pragma once

#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>

namespace tujit::ir::verify {

struct TrfStorage {
  std::uint32_t row_bits = 320;              // one bank's row
  std::uint32_t stored_bits = 16;            // bits one element takes in the row
  ScalarType stored_type = ScalarType::BF16; // i5 for i4, i9 for i8, else the type itself
  std::uint64_t elements_per_row = 16;
};

TrfStorage trf_storage(ScalarType element);

/// Adds row_bits, stored_type, stored_bits, elements_per_row to a derived table.
void add_trf_storage(DerivedTable& t, ScalarType element);

} // namespace tujit::ir::verify
