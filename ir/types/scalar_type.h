// The element types a tujit kernel can name, and the static facts the stage verifiers need about
// them: bit widths on the wire / host / TRF, kind, the capability sets, the Contraction operand
// table and every legal conversion pair of the Fetch Adapter, Cast Engine and Commit Adapter
// (spec/scalars.md §1, §2, §5, §6; spec/contraction.md §2). The arithmetic itself lives in
// runtime/scalar/ (ir/ may not depend on runtime/).
#pragma once

#include "ir/target/rngd.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace tujit::ir {

enum class ScalarType : std::uint8_t {
  I4,
  I5,
  I8,
  I9,
  I16,
  I32,
  U8,
  BF16,
  F8E4M3,
  F8E5M2,
  F32,
  F4E2M1
};

inline constexpr std::array<ScalarType, 12> kAllScalarTypes = {
    ScalarType::I4,     ScalarType::I5,     ScalarType::I8,  ScalarType::I9,
    ScalarType::I16,    ScalarType::I32,    ScalarType::U8,  ScalarType::BF16,
    ScalarType::F8E4M3, ScalarType::F8E5M2, ScalarType::F32, ScalarType::F4E2M1};

/// The spelling in kernels and diagnostics: "i4", "bf16", "f8e4m3", "f4e2m1", ...
std::string_view name(ScalarType t);

/// Which names parse_scalar_type accepts.
/// - KernelLanguage: exactly the list of spec/kernel-language.md "Scalars" (i4 i5 i8 i9 i16 i32 u8
///   bf16 f8e4m3 f8e5m2 f32). `f4e2m1` is NOT accepted there: that list is normative and omits it
///   (so a kernel cannot name the e2m1 table lookups yet; reported as a spec gap).
/// - All: every ScalarType, including `f4e2m1` (host-side tools: npy dtypes, --dtype, tests).
enum class ScalarNameSet : std::uint8_t { KernelLanguage, All };

std::optional<ScalarType> parse_scalar_type(std::string_view text,
                                            ScalarNameSet set = ScalarNameSet::KernelLanguage);

/// The types `set` accepts, in catalogue order.
std::span<const ScalarType> scalar_types_in(ScalarNameSet set);

/// "i4, i5, i8, i9, i16, i32, u8, bf16, f8e4m3, f8e5m2, f32" — for "expected one of ..." notes.
std::string allowed_scalar_names(ScalarNameSet set = ScalarNameSet::KernelLanguage);

// ---------------------------------------------------------------------------------------------
// Widths (scalars.md §1, §2, §5.5)
// ---------------------------------------------------------------------------------------------

/// BITS: the width on the wire, in DM/HBM and for every stream size computation. The staging
/// types count at the width they came from: i5 as 4, i9 as 8 (scalars.md §2).
constexpr std::uint32_t wire_bits(ScalarType t) {
  switch (t) {
  case ScalarType::I4:
  case ScalarType::I5:
  case ScalarType::F4E2M1:
    return 4;
  case ScalarType::I8:
  case ScalarType::I9:
  case ScalarType::U8:
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
    return 8;
  case ScalarType::I16:
  case ScalarType::BF16:
    return 16;
  case ScalarType::I32:
  case ScalarType::F32:
    return 32;
  }
  return 0;
}

/// Host staging bits: what one element occupies in a host buffer (scalars.md §1). i4/f4e2m1 are
/// packed two per byte (4); i5 is held in one byte (8) and i9 in two (16), sign-extended.
constexpr std::uint32_t host_staging_bits(ScalarType t) {
  switch (t) {
  case ScalarType::I5:
    return 8;
  case ScalarType::I9:
    return 16;
  default:
    return wire_bits(t);
  }
}

/// Signed integers (two's complement), the unsigned u8, and the float formats.
enum class ScalarKind : std::uint8_t { SignedInteger, UnsignedInteger, Float };

constexpr ScalarKind kind(ScalarType t) {
  switch (t) {
  case ScalarType::I4:
  case ScalarType::I5:
  case ScalarType::I8:
  case ScalarType::I9:
  case ScalarType::I16:
  case ScalarType::I32:
    return ScalarKind::SignedInteger;
  case ScalarType::U8:
    return ScalarKind::UnsignedInteger;
  default:
    return ScalarKind::Float;
  }
}

constexpr bool is_float(ScalarType t) {
  return kind(t) == ScalarKind::Float;
}
constexpr bool is_integer(ScalarType t) {
  return !is_float(t);
}
/// Floats are sign-magnitude and count as signed; only u8 is unsigned.
constexpr bool is_signed(ScalarType t) {
  return kind(t) != ScalarKind::UnsignedInteger;
}

/// Value range of an integer type (the width of its value, not its wire width: i5 is [-16, 15]).
/// nullopt for floats.
constexpr std::optional<std::pair<std::int64_t, std::int64_t>> integer_range(ScalarType t) {
  switch (t) {
  case ScalarType::I4:
    return std::pair<std::int64_t, std::int64_t>{-8, 7};
  case ScalarType::I5:
    return std::pair<std::int64_t, std::int64_t>{-16, 15};
  case ScalarType::I8:
    return std::pair<std::int64_t, std::int64_t>{-128, 127};
  case ScalarType::I9:
    return std::pair<std::int64_t, std::int64_t>{-256, 255};
  case ScalarType::I16:
    return std::pair<std::int64_t, std::int64_t>{-32768, 32767};
  case ScalarType::I32:
    return std::pair<std::int64_t, std::int64_t>{-2147483648LL, 2147483647LL};
  case ScalarType::U8:
    return std::pair<std::int64_t, std::int64_t>{0, 255};
  default:
    return std::nullopt;
  }
}

/// Bits of the value itself for signed integers (Wrap(k) width): i4 4, i5 5, i8 8, i9 9, ...
constexpr std::optional<std::uint32_t> integer_value_bits(ScalarType t) {
  switch (t) {
  case ScalarType::I5:
    return 5;
  case ScalarType::I9:
    return 9;
  default:
    if (kind(t) == ScalarKind::SignedInteger) return wire_bits(t);
    return std::nullopt;
  }
}

/// FE(D): elements of D in one 32-byte flit = flit bits / BITS (i4 64, i8/f8 32, bf16 16, f32 8).
constexpr std::uint32_t flit_elements(ScalarType t,
                                      const target::TensorUnitDescription& tu = target::kRngd) {
  return tu.flit_bits() / wire_bits(t);
}

// ---------------------------------------------------------------------------------------------
// Capability sets (scalars.md §1)
// ---------------------------------------------------------------------------------------------

/// The in-flight staging types of zero-point subtraction (§2, §6).
constexpr bool is_staging(ScalarType t) {
  return t == ScalarType::I5 || t == ScalarType::I9;
}

/// May live in host/HBM/DM, be committed, transposed, uploaded/downloaded: all but i5, i9.
constexpr bool is_materializable(ScalarType t) {
  return !is_staging(t);
}

/// One element occupies whole bytes (safetensors-loadable).
constexpr bool is_byte_addressable(ScalarType t) {
  switch (t) {
  case ScalarType::I8:
  case ScalarType::U8:
  case ScalarType::I16:
  case ScalarType::I32:
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
  case ScalarType::BF16:
  case ScalarType::F32:
    return true;
  default:
    return false;
  }
}

/// VRF contents, Vector Engine streams, Cast Engine inputs.
constexpr bool is_vector_engine_scalar(ScalarType t) {
  return t == ScalarType::I32 || t == ScalarType::F32;
}

/// The Multiplier has a MAC for it (§5.4). u8, i16, i32, f32 and f4e2m1 are not operands.
constexpr bool is_contraction_operand(ScalarType t) {
  switch (t) {
  case ScalarType::I4:
  case ScalarType::I5:
  case ScalarType::I8:
  case ScalarType::I9:
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
  case ScalarType::BF16:
    return true;
  default:
    return false;
  }
}

/// What a contraction sums in.
constexpr bool is_contraction_accumulator(ScalarType t) {
  return is_vector_engine_scalar(t);
}

/// TRF stored bits per element (§5.5): integers get one extra bit for zero-point subtraction
/// (i4/i5 5, i8/i9 9), floats are stored as is (f8 8, bf16 16). nullopt for non-operands, which
/// cannot be TRF weights.
constexpr std::optional<std::uint32_t>
trf_stored_bits(ScalarType t, const target::TensorUnitDescription& tu = target::kRngd) {
  if (!is_contraction_operand(t)) return std::nullopt;
  if (is_integer(t)) return wire_bits(t) + tu.trf_integer_widening_bits;
  return wire_bits(t);
}

// ---------------------------------------------------------------------------------------------
// Contraction operand table (scalars.md §5.4, contraction.md §2.1)
// ---------------------------------------------------------------------------------------------

/// The MAC family an operand belongs to; raw and zero-point-subtracted forms share one family.
enum class ContractionFamily : std::uint8_t { None, Int4, Int8, F8E4M3, F8E5M2, BF16 };

constexpr ContractionFamily contraction_family(ScalarType t) {
  switch (t) {
  case ScalarType::I4:
  case ScalarType::I5:
    return ContractionFamily::Int4;
  case ScalarType::I8:
  case ScalarType::I9:
    return ContractionFamily::Int8;
  case ScalarType::F8E4M3:
    return ContractionFamily::F8E4M3;
  case ScalarType::F8E5M2:
    return ContractionFamily::F8E5M2;
  case ScalarType::BF16:
    return ContractionFamily::BF16;
  default:
    return ContractionFamily::None;
  }
}

/// The accumulator a stream type selects (i32 for integers, f32 for floats); nullopt if the type
/// is not a contraction operand.
constexpr std::optional<ScalarType> contraction_accumulator(ScalarType stream) {
  if (!is_contraction_operand(stream)) return std::nullopt;
  return is_integer(stream) ? ScalarType::I32 : ScalarType::F32;
}

/// The accumulator of `stream` × `weight`, or nullopt when the Multiplier refuses the pair.
constexpr std::optional<ScalarType> contraction_accumulator(ScalarType stream, ScalarType weight) {
  ContractionFamily fs = contraction_family(stream);
  if (fs == ContractionFamily::None || fs != contraction_family(weight)) return std::nullopt;
  return contraction_accumulator(stream);
}

/// Why a pair is refused, most specific reason first.
enum class ContractionRefusal : std::uint8_t {
  None,                 // accepted
  StreamNotOperand,     // e.g. i16, i32, u8, f32, f4e2m1 as the stream
  WeightNotOperand,     // same, as the TRF weight
  IntegerTimesFloat,    // i8 × bf16
  CrossIntegerFamily,   // i4 × i8
  DifferentFloatFormats // f8e4m3 × bf16
};

constexpr ContractionRefusal contraction_refusal(ScalarType stream, ScalarType weight) {
  if (!is_contraction_operand(stream)) return ContractionRefusal::StreamNotOperand;
  if (!is_contraction_operand(weight)) return ContractionRefusal::WeightNotOperand;
  if (is_integer(stream) != is_integer(weight)) return ContractionRefusal::IntegerTimesFloat;
  if (contraction_family(stream) == contraction_family(weight)) return ContractionRefusal::None;
  return is_integer(stream) ? ContractionRefusal::CrossIntegerFamily
                            : ContractionRefusal::DifferentFloatFormats;
}

/// The refusal in a kernel author's words (with the rule and what to do instead); empty when the
/// pair is accepted.
std::string explain_contraction_refusal(ScalarType stream, ScalarType weight);

// ---------------------------------------------------------------------------------------------
// Conversion legality (scalars.md §4.5, §5.1–§5.3, §6)
// ---------------------------------------------------------------------------------------------

/// Fetch Adapter type cast (`fetch_cast`, §5.1): identity for every type, i4/i8/i16 → i32,
/// f8e4m3/f8e5m2/bf16 → f32, f32 → bf16. The output of one fetch read must fit one flit, i.e.
/// at most flit_elements(out) elements per read.
constexpr bool is_fetch_cast(ScalarType in, ScalarType out) {
  if (in == out) return true;
  switch (in) {
  case ScalarType::I4:
  case ScalarType::I8:
  case ScalarType::I16:
    return out == ScalarType::I32;
  case ScalarType::F8E4M3:
  case ScalarType::F8E5M2:
  case ScalarType::BF16:
    return out == ScalarType::F32;
  case ScalarType::F32:
    return out == ScalarType::BF16;
  default:
    return false;
  }
}

/// Fetch Adapter table lookup (§4.5, main context only): f4e2m1 → f8e4m3 | f8e5m2 (paired),
/// f8e4m3 | f8e5m2 → bf16 (non-paired).
constexpr bool is_table_lookup(ScalarType in, ScalarType out) {
  if (in == ScalarType::F4E2M1) return out == ScalarType::F8E4M3 || out == ScalarType::F8E5M2;
  if (in == ScalarType::F8E4M3 || in == ScalarType::F8E5M2) return out == ScalarType::BF16;
  return false;
}

/// Paired tables index a 256-entry table with a whole byte and emit two outputs (low nibble
/// first); the 8-bit tables emit one.
constexpr bool is_paired_table_lookup(ScalarType in, ScalarType out) {
  return is_table_lookup(in, out) && wire_bits(in) == 4;
}

/// Zero-point subtraction (§6): exactly i4 → i5 and i8 → i9.
constexpr bool is_zero_point_sub(ScalarType in, ScalarType out) {
  return (in == ScalarType::I4 && out == ScalarType::I5) ||
         (in == ScalarType::I8 && out == ScalarType::I9);
}

/// The staging type zero-point subtraction produces from `in` (i4 → i5, i8 → i9).
constexpr std::optional<ScalarType> zero_point_staging_type(ScalarType in) {
  if (in == ScalarType::I4) return ScalarType::I5;
  if (in == ScalarType::I8) return ScalarType::I9;
  return std::nullopt;
}

/// The type a staging type came from, whose width it counts at on the wire (i5 → i4, i9 → i8).
constexpr std::optional<ScalarType> staging_source(ScalarType t) {
  if (t == ScalarType::I5) return ScalarType::I4;
  if (t == ScalarType::I9) return ScalarType::I8;
  return std::nullopt;
}

/// zp must lie in the SOURCE type's range (i4 [-8, 7], i8 [-128, 127]); data-independent, so it
/// is checked once at verification. False for an illegal pair.
constexpr bool zero_point_in_range(ScalarType in, ScalarType out, std::int64_t zp) {
  if (!is_zero_point_sub(in, out)) return false;
  auto range = integer_range(in);
  return zp >= range->first && zp <= range->second;
}

/// Cast Engine (§5.2): i32 → i4 | i8 | i16, f32 → f8e4m3 | f8e5m2 | bf16. No identity cast.
constexpr bool is_cast_engine_cast(ScalarType in, ScalarType out) {
  if (in == ScalarType::I32)
    return out == ScalarType::I4 || out == ScalarType::I8 || out == ScalarType::I16;
  if (in == ScalarType::F32)
    return out == ScalarType::F8E4M3 || out == ScalarType::F8E5M2 || out == ScalarType::BF16;
  return false;
}

/// Commit Adapter (§5.3, main context only): exactly f32 → bf16 (optionally with fused ReLU).
constexpr bool is_commit_cast(ScalarType in, ScalarType out) {
  return in == ScalarType::F32 && out == ScalarType::BF16;
}

/// Explanations of a refused conversion in a kernel author's words, naming the legal pairs and
/// the stage that does the requested conversion instead. Empty when the conversion is legal.
std::string explain_fetch_cast_refusal(ScalarType in, ScalarType out);
std::string explain_table_lookup_refusal(ScalarType in, ScalarType out);
/// Covers both an illegal pair and an out-of-range zp.
std::string explain_zero_point_refusal(ScalarType in, ScalarType out, std::int64_t zp);
std::string explain_cast_engine_refusal(ScalarType in, ScalarType out);
std::string explain_commit_cast_refusal(ScalarType in, ScalarType out);

} // namespace tujit::ir
