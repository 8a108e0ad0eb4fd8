// Widening an element container to 32 bits and narrowing it back, for every scalar type
// (docs/scalars.md §4, §5): the one implementation the Fetch Adapter's cast, the Multiplier's
// operand widening and the oracle use. Containers are the runtime/device/ form: integers hold
// their value sign-extended in 32 bits, bf16 / f8 / f4e2m1 their code in the low bits, f32 its
// bits. Each function switches on the type's Encoding (ir/types/scalar_type.h), so a new type
// cannot reach a conversion without saying how it is encoded.
#pragma once

#include "ir/types/scalar_type.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/integer.h"

#include <cstdint>

namespace tujit::runtime {

/// The exact 32-bit value of a container: i32 two's complement for the integers, f32 bits for the
/// floats. bf16 widens the hardware way (a subnormal becomes a signed zero, a NaN the canonical
/// NaN, §4.1); f8 and f4e2m1 decode exactly, and an f8e5m2 NaN keeps its sign (§4.4).
constexpr std::uint32_t widen_bits(ir::ScalarType t, std::uint32_t bits) {
  switch (ir::encoding(t)) {
  case ir::Encoding::TwosComplement: // already sign-extended in the container
  case ir::Encoding::Unsigned:
  case ir::Encoding::F32:
    return bits;
  case ir::Encoding::Bf16:
    return widen_bf16(static_cast<std::uint16_t>(bits & 0xFFFFu));
  case ir::Encoding::F8E4M3:
    return dec_e4m3(static_cast<std::uint8_t>(bits & 0xFFu));
  case ir::Encoding::F8E5M2:
    return dec_e5m2(static_cast<std::uint8_t>(bits & 0xFFu));
  case ir::Encoding::F4E2M1:
    return dec_e2m1(static_cast<std::uint8_t>(bits & 0xFu));
  }
  return bits;
}

/// The Multiplier's widening of one operand to its accumulator (docs/contraction.md §2.1,
/// docs/scalars.md §5.4): widen_bits with every float NaN made the canonical 0x7FC00000.
constexpr std::uint32_t widen_to_accumulator(ir::ScalarType t, std::uint32_t bits) {
  const std::uint32_t w = widen_bits(t, bits);
  return ir::is_float(t) && f32_is_nan(w) ? kF32CanonicalNaN : w;
}

/// A 32-bit value (i32 for the integer types, f32 bits for the floats) narrowed to `t` the way
/// the hardware does (§4.1–§4.3, §4.6): integers wrap to their value width and stay
/// sign-extended in the container, bf16 rounds with subnormals flushed, f8e4m3 saturates, f8e5m2
/// rounds as the reference does. No stage narrows to u8 or f4e2m1 (ir::is_fetch_cast and
/// ir::is_cast_engine_cast refuse both): they keep the low bits of their container.
constexpr std::uint32_t narrow_bits(ir::ScalarType t, std::uint32_t value) {
  switch (ir::encoding(t)) {
  case ir::Encoding::TwosComplement:
    return static_cast<std::uint32_t>(
        wrap(static_cast<std::int32_t>(value), ir::info(t).value_bits));
  case ir::Encoding::Unsigned:
    return value & 0xFFu;
  case ir::Encoding::F32:
    return value;
  case ir::Encoding::Bf16:
    return narrow_bf16(value);
  case ir::Encoding::F8E4M3:
    return enc_e4m3(value);
  case ir::Encoding::F8E5M2:
    return enc_e5m2(value);
  case ir::Encoding::F4E2M1:
    return value & 0xFu;
  }
  return value;
}

/// The output path's conversion of one element leaving the engines (docs/output-path.md §1, §2.2):
/// the Cast Engine narrows to `to` (narrow_bits), the Commit Adapter's commit_cast_relu narrows
/// f32 to bf16 with the fused ReLU.
constexpr std::uint32_t output_cast_bits(ir::ScalarType to, bool relu, std::uint32_t value) {
  return relu ? relu_narrow_bf16(value) : narrow_bits(to, value);
}

/// One conversion of a legal pair (`ir::is_fetch_cast`, `ir::is_cast_engine_cast`): the identity
/// when the types are equal, else widen `in` to 32 bits and narrow to `out`.
constexpr std::uint32_t convert_bits(ir::ScalarType in, ir::ScalarType out, std::uint32_t bits) {
  return in == out ? bits : narrow_bits(out, widen_bits(in, bits));
}

} // namespace tujit::runtime
