// The element types a tujit kernel can name, and the static facts the stage verifiers need about
// them: bit widths on the wire / host / TRF, kind, the capability sets, the Contraction operand
// table and every legal conversion pair of the Fetch Adapter, Cast Engine and Commit Adapter
// (docs/scalars.md §1, §2, §5, §6; docs/contraction.md §2). The arithmetic itself lives in
// runtime/scalar/ (ir/ may not depend on runtime/).
#pragma once

#include "ir/target/rngd.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace tujit::ir {

/// How an element's bits encode its value. Every conversion of runtime/scalar/ and every
/// per-type branch of the engines switches on this (never on ScalarType with a `default:`), so a
/// new type must name its encoding in the table below.
enum class Encoding : std::uint8_t {
  TwosComplement, // signed integers; a host container holds the value sign-extended
  Unsigned,       // u8
  Bf16,           // bfloat16 (1-8-7)
  F8E4M3,         // 1-4-3, no infinity, one NaN code per sign
  F8E5M2,         // 1-5-2, IEEE-like
  F4E2M1,         // 1-2-1, decoded only by table lookups
  F32             // IEEE binary32
};

/// Signed integers (two's complement), the unsigned u8, and the float formats.
enum class ScalarKind : std::uint8_t { SignedInteger, UnsignedInteger, Float };

/// The MAC family an operand belongs to; raw and zero-point-subtracted forms share one family.
enum class ContractionFamily : std::uint8_t { None, Int4, Int8, F8E4M3, F8E5M2, BF16 };

/// What the all-ones exponent of a float format means.
enum class FloatSpecials : std::uint8_t {
  Ieee,       // ±inf (fraction 0) and NaN (fraction ≠ 0): bf16, f8e5m2, f32
  AllOnesNaN, // no infinity; only S.1111.111 is NaN: f8e4m3
  None        // every code is a finite value: f4e2m1
};

/// A float format (docs/scalars.md §3): exponent and fraction bits, exponent bias, its special
/// values, the NaN code a conversion produces, and the code of the largest finite magnitude.
struct FloatFormat {
  std::uint8_t exponent_bits = 0;
  std::uint8_t fraction_bits = 0;
  std::int16_t bias = 0;
  FloatSpecials specials = FloatSpecials::Ieee;
  std::uint32_t nan_code = 0;
  std::uint32_t max_finite_code = 0;
};

// The scalar-type table (docs/scalars.md §1): one row per element type, the only place a fact
// about one type is written. Columns, in order: the enumerator, its spelling in kernels and
// diagnostics, then ScalarInfo's fields after `name` as designated initializers.
// clang-format off
#define TUJIT_SCALAR_TYPES(X)                                                                      \
  X(I4, .name = "i4", .encoding = Encoding::TwosComplement, .wire_bits = 4, .host_bits = 4,        \
    .value_bits = 4, .kernel_language = true, .family = ContractionFamily::Int4)                   \
  X(I5, .name = "i5", .encoding = Encoding::TwosComplement, .wire_bits = 4, .host_bits = 8,        \
    .value_bits = 5, .kernel_language = true, .family = ContractionFamily::Int4,                   \
    .staging_source = ScalarType::I4)                                                              \
  X(I8, .name = "i8", .encoding = Encoding::TwosComplement, .wire_bits = 8, .host_bits = 8,        \
    .value_bits = 8, .kernel_language = true, .family = ContractionFamily::Int8)                   \
  X(I9, .name = "i9", .encoding = Encoding::TwosComplement, .wire_bits = 8, .host_bits = 16,       \
    .value_bits = 9, .kernel_language = true, .family = ContractionFamily::Int8,                   \
    .staging_source = ScalarType::I8)                                                              \
  X(I16, .name = "i16", .encoding = Encoding::TwosComplement, .wire_bits = 16, .host_bits = 16,    \
    .value_bits = 16, .kernel_language = true)                                                     \
  X(I32, .name = "i32", .encoding = Encoding::TwosComplement, .wire_bits = 32, .host_bits = 32,    \
    .value_bits = 32, .kernel_language = true, .vector_engine = true)                              \
  X(U8, .name = "u8", .encoding = Encoding::Unsigned, .wire_bits = 8, .host_bits = 8,              \
    .value_bits = 8, .kernel_language = true)                                                      \
  X(BF16, .name = "bf16", .encoding = Encoding::Bf16, .wire_bits = 16, .host_bits = 16,            \
    .value_bits = 16, .kernel_language = true, .family = ContractionFamily::BF16,                  \
    .format = {8, 7, 127, FloatSpecials::Ieee, 0x7FC0u, 0x7F7Fu})                                  \
  X(F8E4M3, .name = "f8e4m3", .encoding = Encoding::F8E4M3, .wire_bits = 8, .host_bits = 8,        \
    .value_bits = 8, .kernel_language = true, .family = ContractionFamily::F8E4M3,                 \
    .format = {4, 3, 7, FloatSpecials::AllOnesNaN, 0x7Fu, 0x7Eu})                                  \
  X(F8E5M2, .name = "f8e5m2", .encoding = Encoding::F8E5M2, .wire_bits = 8, .host_bits = 8,        \
    .value_bits = 8, .kernel_language = true, .family = ContractionFamily::F8E5M2,                 \
    .format = {5, 2, 15, FloatSpecials::Ieee, 0x7Eu, 0x7Bu})                                       \
  X(F32, .name = "f32", .encoding = Encoding::F32, .wire_bits = 32, .host_bits = 32,               \
    .value_bits = 32, .kernel_language = true, .vector_engine = true,                              \
    .format = {8, 23, 127, FloatSpecials::Ieee, 0x7FC00000u, 0x7F7FFFFFu})                         \
  X(F4E2M1, .name = "f4e2m1", .encoding = Encoding::F4E2M1, .wire_bits = 4, .host_bits = 4,        \
    .value_bits = 4, .kernel_language = true,                                                      \
    .format = {2, 1, 1, FloatSpecials::None, 0u, 0x7u})
// clang-format on

enum class ScalarType : std::uint8_t {
#define TUJIT_SCALAR_ENUMERATOR(id, ...) id,
  TUJIT_SCALAR_TYPES(TUJIT_SCALAR_ENUMERATOR)
#undef TUJIT_SCALAR_ENUMERATOR
};

/// One row of the table.
struct ScalarInfo {
  ScalarType type{};
  std::string_view name{};
  Encoding encoding{};
  /// BITS: the width on the wire, in DM/HBM and for every stream size computation. The staging
  /// types count at the width they came from: i5 as 4, i9 as 8 (docs/scalars.md §2).
  std::uint8_t wire_bits = 0;
  /// What one element occupies in a host buffer: i4/f4e2m1 packed (4), i5 one byte, i9 two.
  std::uint8_t host_bits = 0;
  /// Bits of the value itself: the Wrap(k) width of an integer (i5 5, i9 9).
  std::uint8_t value_bits = 0;
  /// Named by the kernel language (docs/kernel-language.md §4): every type of the table.
  bool kernel_language = false;
  /// i32 and f32: VRF contents, Vector Engine streams, Cast Engine inputs, accumulators.
  bool vector_engine = false;
  /// The Multiplier's operand family; None for a type the Multiplier has no MAC for.
  ContractionFamily family = ContractionFamily::None;
  /// The staging types of zero-point subtraction name the type they are made from.
  std::optional<ScalarType> staging_source{};
  /// Floats only.
  FloatFormat format{};
};

inline constexpr std::array kScalarTable = {
#define TUJIT_SCALAR_ROW(id, ...) ScalarInfo{.type = ScalarType::id, __VA_ARGS__},
    TUJIT_SCALAR_TYPES(TUJIT_SCALAR_ROW)
#undef TUJIT_SCALAR_ROW
};

constexpr bool scalar_table_is_indexed_by_type() {
  for (std::size_t i = 0; i < kScalarTable.size(); ++i)
    if (static_cast<std::size_t>(kScalarTable[i].type) != i) return false;
  return true;
}
static_assert(scalar_table_is_indexed_by_type(), "row i of kScalarTable describes ScalarType i");

constexpr const ScalarInfo& info(ScalarType t) {
  return kScalarTable[static_cast<std::size_t>(t)];
}

/// Every type, in catalogue order.
inline constexpr auto kAllScalarTypes = [] {
  std::array<ScalarType, kScalarTable.size()> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = kScalarTable[i].type;
  return out;
}();

/// The spelling in kernels and diagnostics: "i4", "bf16", "f8e4m3", "f4e2m1", ...
constexpr std::string_view name(ScalarType t) {
  return info(t).name;
}

/// Which names parse_scalar_type accepts.
/// - KernelLanguage: the types a kernel may name (docs/kernel-language.md §4), the rows marked
///   `kernel_language` (today every row; `f4e2m1` since the Fetch Adapter's table lookup that
///   decodes it is simulated).
/// - All: every ScalarType (host-side tools: npy dtypes, --dtype, tests).
enum class ScalarNameSet : std::uint8_t { KernelLanguage, All };

std::optional<ScalarType> parse_scalar_type(std::string_view text,
                                            ScalarNameSet set = ScalarNameSet::KernelLanguage);

/// The types `set` accepts, in catalogue order.
std::span<const ScalarType> scalar_types_in(ScalarNameSet set);

/// "i4, i5, i8, i9, i16, i32, u8, bf16, f8e4m3, f8e5m2, f32" — for "expected one of ..." notes.
std::string allowed_scalar_names(ScalarNameSet set = ScalarNameSet::KernelLanguage);

// ---------------------------------------------------------------------------------------------
// Widths and kinds (docs/scalars.md §1, §2, §5.5)
// ---------------------------------------------------------------------------------------------

constexpr Encoding encoding(ScalarType t) {
  return info(t).encoding;
}

constexpr std::uint32_t wire_bits(ScalarType t) {
  return info(t).wire_bits;
}

constexpr std::uint32_t host_staging_bits(ScalarType t) {
  return info(t).host_bits;
}

constexpr ScalarKind kind(ScalarType t) {
  switch (encoding(t)) {
  case Encoding::TwosComplement:
    return ScalarKind::SignedInteger;
  case Encoding::Unsigned:
    return ScalarKind::UnsignedInteger;
  case Encoding::Bf16:
  case Encoding::F8E4M3:
  case Encoding::F8E5M2:
  case Encoding::F4E2M1:
  case Encoding::F32:
    return ScalarKind::Float;
  }
  return ScalarKind::Float;
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

/// A 32-bit element container (runtime/device/) already holds the value the Multiplier and the
/// accumulator work on: integers are stored sign-extended and f32 as its bits, so widening is
/// the identity. False for the encoded floats (bf16, f8), which must be decoded.
constexpr bool widens_in_place(ScalarType t) {
  switch (encoding(t)) {
  case Encoding::TwosComplement:
  case Encoding::Unsigned:
  case Encoding::F32:
    return true;
  case Encoding::Bf16:
  case Encoding::F8E4M3:
  case Encoding::F8E5M2:
  case Encoding::F4E2M1:
    return false;
  }
  return false;
}

/// Value range of an integer type (the width of its value, not its wire width: i5 is [-16, 15]).
/// nullopt for floats.
constexpr std::optional<std::pair<std::int64_t, std::int64_t>> integer_range(ScalarType t) {
  const std::int64_t k = info(t).value_bits;
  switch (kind(t)) {
  case ScalarKind::SignedInteger:
    return std::pair<std::int64_t, std::int64_t>{-(std::int64_t{1} << (k - 1)),
                                                 (std::int64_t{1} << (k - 1)) - 1};
  case ScalarKind::UnsignedInteger:
    return std::pair<std::int64_t, std::int64_t>{0, (std::int64_t{1} << k) - 1};
  case ScalarKind::Float:
    return std::nullopt;
  }
  return std::nullopt;
}

/// Bits of the value itself for signed integers (Wrap(k) width): i4 4, i5 5, i8 8, i9 9, ...
constexpr std::optional<std::uint32_t> integer_value_bits(ScalarType t) {
  if (kind(t) != ScalarKind::SignedInteger) return std::nullopt;
  return info(t).value_bits;
}

/// The float format of a float type; nullopt for integers.
constexpr std::optional<FloatFormat> float_format(ScalarType t) {
  if (!is_float(t)) return std::nullopt;
  return info(t).format;
}

/// FE(D): elements of D in one 32-byte flit = flit bits / BITS (i4 64, i8/f8 32, bf16 16, f32 8).
constexpr std::uint32_t flit_elements(ScalarType t,
                                      const target::TensorUnitDescription& tu = target::kRngd) {
  return tu.flit_bits() / wire_bits(t);
}

// ---------------------------------------------------------------------------------------------
// Capability sets (docs/scalars.md §1)
// ---------------------------------------------------------------------------------------------

/// The in-flight staging types of zero-point subtraction (§2, §6).
constexpr bool is_staging(ScalarType t) {
  return info(t).staging_source.has_value();
}

/// May live in host/HBM/DM, be committed, transposed, uploaded/downloaded: all but i5, i9.
constexpr bool is_materializable(ScalarType t) {
  return !is_staging(t);
}

/// One element occupies whole bytes (safetensors-loadable): a materializable type of 8, 16 or
/// 32 bits.
constexpr bool is_byte_addressable(ScalarType t) {
  return is_materializable(t) && wire_bits(t) % 8 == 0;
}

/// VRF contents, Vector Engine streams, Cast Engine inputs.
constexpr bool is_vector_engine_scalar(ScalarType t) {
  return info(t).vector_engine;
}

constexpr ContractionFamily contraction_family(ScalarType t) {
  return info(t).family;
}

/// The Multiplier has a MAC for it (§5.4). u8, i16, i32, f32 and f4e2m1 are not operands.
constexpr bool is_contraction_operand(ScalarType t) {
  return contraction_family(t) != ContractionFamily::None;
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
// Contraction operand table (docs/scalars.md §5.4, docs/contraction.md §2.1)
// ---------------------------------------------------------------------------------------------

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
// Conversion legality (docs/scalars.md §4.5, §5.1–§5.3, §6)
// ---------------------------------------------------------------------------------------------

/// Fetch Adapter type cast (`fetch_cast`, §5.1): identity for every type, i4/i8/i16 → i32,
/// f8e4m3/f8e5m2/bf16 → f32, f32 → bf16. The output of one fetch read must fit one flit, i.e.
/// at most flit_elements(out) elements per read.
constexpr bool is_fetch_cast(ScalarType in, ScalarType out) {
  if (in == out) return true;
  switch (encoding(in)) {
  case Encoding::TwosComplement: // i4, i8, i16 sign-extend; a staging type is never re-cast
    return out == ScalarType::I32 && !is_staging(in);
  case Encoding::Bf16:
  case Encoding::F8E4M3:
  case Encoding::F8E5M2:
    return out == ScalarType::F32;
  case Encoding::F32:
    return out == ScalarType::BF16;
  case Encoding::Unsigned:
  case Encoding::F4E2M1:
    return false;
  }
  return false;
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
  return info(out).staging_source == in;
}

/// The staging type zero-point subtraction produces from `in` (i4 → i5, i8 → i9).
constexpr std::optional<ScalarType> zero_point_staging_type(ScalarType in) {
  for (const ScalarInfo& row : kScalarTable)
    if (row.staging_source == in) return row.type;
  return std::nullopt;
}

/// The type a staging type came from, whose width it counts at on the wire (i5 → i4, i9 → i8).
constexpr std::optional<ScalarType> staging_source(ScalarType t) {
  return info(t).staging_source;
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
