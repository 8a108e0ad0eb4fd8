// The Fetch Adapter's value conversions on one element container (runtime/device/device_image.h
// form: integers sign-extended in 32 bits, bf16 / f8 / f4e2m1 codes in the low bits, f32 bits):
// the table lookup (docs/scalars.md §4.5), fetch_cast (§5.1) and zero-point subtraction (§6), and
// the three in the adapter's fixed order. Both engines' data paths and the oracle's view of a
// DM-fed stream use fetch_adapter_bits.
#pragma once

#include "ir/types/scalar_type.h"
#include "runtime/scalar/integer.h"
#include "runtime/scalar/table_lookup.h"
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

/// The Fetch Adapter's stages on one element, in the hardware's order (docs/scalars.md §5.1): the
/// table lookup to `lookup_to`, the cast to `cast_to`, the zero-point subtraction; each optional,
/// each reading the type the one before produced (the verifier accepted the pairs).
constexpr std::uint32_t fetch_adapter_bits(ir::ScalarType source,
                                           std::optional<ir::ScalarType> lookup_to,
                                           std::optional<ir::ScalarType> cast_to,
                                           std::optional<std::int64_t> zero_point,
                                           std::uint32_t bits) {
  ir::ScalarType t = source;
  if (lookup_to) {
    bits = table_lookup_bits(t, *lookup_to, bits);
    t = *lookup_to;
  }
  if (cast_to) {
    bits = fetch_cast_bits(t, *cast_to, bits);
    t = *cast_to;
  }
  return zero_point ? zero_point_sub_bits(t, bits, *zero_point) : bits;
}

} // namespace tujit::runtime
