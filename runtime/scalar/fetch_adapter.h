// The Fetch Adapter's value conversions on one element container (runtime/device/device_image.h
// form: integers sign-extended in 32 bits, bf16 / f8 codes in the low bits, f32 bits):
// fetch_cast (docs/scalars.md §5.1) and zero-point subtraction (§6). Both engines' data paths and
// the oracle's view of a DM-fed stream use this one function.
#pragma once

#include "ir/types/scalar_type.h"
#include "runtime/scalar/integer.h"
#include "runtime/scalar/widen.h"

#include <cstdint>
#include <optional>

namespace tujit::runtime {

/// fetch_cast `in` → `out` (the identity or a legal ir::is_fetch_cast pair). Integer widenings
/// keep the container: it already holds the sign-extended value.
constexpr std::uint32_t fetch_cast_bits(ir::ScalarType in, ir::ScalarType out, std::uint32_t bits) {
  return convert_bits(in, out, bits);
}

/// fetch_zero_point_sub of an i4 (→ i5) or i8 (→ i9) container; the zero point lies in the
/// source range (checked at verification).
constexpr std::uint32_t zero_point_sub_bits(ir::ScalarType in, std::uint32_t bits,
                                            std::int64_t zero_point) {
  const auto v = static_cast<std::int8_t>(static_cast<std::int32_t>(bits));
  const auto zp = static_cast<std::int32_t>(zero_point);
  const std::int32_t r =
      in == ir::ScalarType::I4 ? zero_point_sub_i4_to_i5(v, zp) : zero_point_sub_i8_to_i9(v, zp);
  return static_cast<std::uint32_t>(r);
}

} // namespace tujit::runtime
