// Names, parsing and refusal explanations of the scalar types (docs/scalars.md §1, §5, §6;
// docs/kernel-language.md §4).
#include "ir/types/scalar_type.h"

#include <fmt/format.h>

namespace tujit::ir {
namespace {

// The types a kernel may name: the table's rows marked kernel_language, in catalogue order.
constexpr std::size_t kKernelLanguageCount = [] {
  std::size_t n = 0;
  for (const ScalarInfo& row : kScalarTable) n += row.kernel_language ? 1 : 0;
  return n;
}();

constexpr auto kKernelLanguageTypes = [] {
  std::array<ScalarType, kKernelLanguageCount> out{};
  std::size_t n = 0;
  for (const ScalarInfo& row : kScalarTable)
    if (row.kernel_language) out[n++] = row.type;
  return out;
}();

} // namespace

std::span<const ScalarType> scalar_types_in(ScalarNameSet set) {
  if (set == ScalarNameSet::KernelLanguage) return kKernelLanguageTypes;
  return kAllScalarTypes;
}

std::optional<ScalarType> parse_scalar_type(std::string_view text, ScalarNameSet set) {
  for (ScalarType t : scalar_types_in(set))
    if (name(t) == text) return t;
  return std::nullopt;
}

std::string allowed_scalar_names(ScalarNameSet set) {
  std::string out;
  for (ScalarType t : scalar_types_in(set)) {
    if (!out.empty()) out += ", ";
    out += name(t);
  }
  return out;
}

std::string explain_contraction_refusal(ScalarType stream, ScalarType weight) {
  constexpr std::string_view kTable = "the Multiplier multiplies i4|i5 × i4|i5 and i8|i9 × i8|i9 "
                                      "(into i32), f8e4m3 × f8e4m3, f8e5m2 × f8e5m2 and "
                                      "bf16 × bf16 (into f32) (docs/scalars.md §5.4)";
  switch (contraction_refusal(stream, weight)) {
  case ContractionRefusal::None:
    return {};
  case ContractionRefusal::StreamNotOperand:
  case ContractionRefusal::WeightNotOperand: {
    bool is_stream = contraction_refusal(stream, weight) == ContractionRefusal::StreamNotOperand;
    ScalarType t = is_stream ? stream : weight;
    std::string hint =
        t == ScalarType::F4E2M1
            ? "decode it first with fetch_table_lookup to f8e4m3 or f8e5m2"
            : "write it as a Vector-Engine multiply followed by an Intra-Slice Reduce";
    return fmt::format("{} {} is not a contraction operand: {}; {}",
                       is_stream ? "stream" : "weight", name(t), kTable, hint);
  }
  case ContractionRefusal::IntegerTimesFloat:
    return fmt::format("stream {} × weight {} mixes an integer and a float operand: {}",
                       name(stream), name(weight), kTable);
  case ContractionRefusal::CrossIntegerFamily:
    return fmt::format("stream {} × weight {} crosses integer families (4-bit × 8-bit): {}",
                       name(stream), name(weight), kTable);
  case ContractionRefusal::DifferentFloatFormats:
    return fmt::format("stream {} × weight {} are different float formats; both operands must "
                       "have the same format: {}",
                       name(stream), name(weight), kTable);
  }
  return {};
}

std::string explain_fetch_cast_refusal(ScalarType in, ScalarType out) {
  if (is_fetch_cast(in, out)) return {};
  constexpr std::string_view kPairs =
      "fetch_cast converts i4, i8, i16 → i32, f8e4m3, f8e5m2, bf16 → f32, f32 → bf16, or keeps "
      "the type (docs/scalars.md §5.1)";
  std::string hint;
  if (is_table_lookup(in, out))
    hint = fmt::format("; {} → {} is a table lookup: use fetch_table_lookup", name(in), name(out));
  else if (is_zero_point_sub(in, out))
    hint = fmt::format("; {} → {} is produced only by fetch_zero_point_sub", name(in), name(out));
  else if (is_cast_engine_cast(in, out))
    hint =
        fmt::format("; narrowing {} → {} is done by the Cast Engine (.cast)", name(in), name(out));
  return fmt::format("the Fetch Adapter cannot cast {} to {}: {}{}", name(in), name(out), kPairs,
                     hint);
}

std::string explain_table_lookup_refusal(ScalarType in, ScalarType out) {
  if (is_table_lookup(in, out)) return {};
  std::string hint;
  if (in != out && is_fetch_cast(in, out))
    hint = fmt::format("; {} → {} is a type cast: use fetch_cast", name(in), name(out));
  return fmt::format("the Fetch Adapter has no {} → {} decode table: the tables are f4e2m1 → "
                     "f8e4m3, f4e2m1 → f8e5m2, f8e4m3 → bf16 and f8e5m2 → bf16 "
                     "(docs/scalars.md §4.5){}",
                     name(in), name(out), hint);
}

std::string explain_zero_point_refusal(ScalarType in, ScalarType out, std::int64_t zp) {
  if (!is_zero_point_sub(in, out))
    return fmt::format("fetch_zero_point_sub cannot take {} to {}: it widens exactly i4 → i5 and "
                       "i8 → i9 (docs/scalars.md §6)",
                       name(in), name(out));
  if (zero_point_in_range(in, out, zp)) return {};
  auto range = integer_range(in);
  return fmt::format("zero point {} is outside the {} range [{}, {}]: the zero point of "
                     "{} → {} must be a value of the source type, so that every residual fits "
                     "{} (docs/scalars.md §6)",
                     zp, name(in), range->first, range->second, name(in), name(out), name(out));
}

std::string explain_cast_engine_refusal(ScalarType in, ScalarType out) {
  if (is_cast_engine_cast(in, out)) return {};
  constexpr std::string_view kPairs = "the Cast Engine narrows i32 → i4, i8, i16 and f32 → "
                                      "f8e4m3, f8e5m2, bf16 (docs/scalars.md §5.2)";
  std::string hint;
  if (in == out)
    hint = "; there is no identity cast: drop the .cast";
  else if (!is_vector_engine_scalar(in))
    hint = fmt::format("; its input must be an i32 or f32 stream, not {}", name(in));
  else if (is_fetch_cast(out, in) || is_fetch_cast(in, out))
    hint = fmt::format("; widenings belong to the Fetch Adapter: .fetch_cast::<{}>()", name(out));
  return fmt::format("the Cast Engine cannot cast {} to {}: {}{}", name(in), name(out), kPairs,
                     hint);
}

std::string explain_commit_cast_refusal(ScalarType in, ScalarType out) {
  if (is_commit_cast(in, out)) return {};
  std::string hint;
  if (is_cast_engine_cast(in, out))
    hint = fmt::format("; narrow {} → {} in the Cast Engine (.cast) before committing", name(in),
                       name(out));
  return fmt::format("the Commit Adapter cannot cast {} to {}: commit_cast converts only f32 → "
                     "bf16 (docs/scalars.md §5.3){}",
                     name(in), name(out), hint);
}

} // namespace tujit::ir
