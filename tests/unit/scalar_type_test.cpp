// ir/types/scalar_type.h: names, widths, capability sets, the Contraction operand table and the
// conversion pairs, each checked against tables written here from docs/scalars.md §1, §4.5, §5,
// §6 and docs/contraction.md §2.
#include "ir/types/scalar_type.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>

using namespace tujit::ir;
using ST = ScalarType;

namespace {

struct Row {
  ST type;
  const char* name;
  unsigned wire, staging;
  bool is_float, materializable, byte_addressable, ve_scalar, operand, accumulator;
};

// docs/scalars.md §1 catalogue and capability table.
const Row kCatalogue[] = {
    {ST::I4, "i4", 4, 4, false, true, false, false, true, false},
    {ST::I5, "i5", 4, 8, false, false, false, false, true, false},
    {ST::I8, "i8", 8, 8, false, true, true, false, true, false},
    {ST::I9, "i9", 8, 16, false, false, false, false, true, false},
    {ST::I16, "i16", 16, 16, false, true, true, false, false, false},
    {ST::I32, "i32", 32, 32, false, true, true, true, false, true},
    {ST::U8, "u8", 8, 8, false, true, true, false, false, false},
    {ST::BF16, "bf16", 16, 16, true, true, true, false, true, false},
    {ST::F8E4M3, "f8e4m3", 8, 8, true, true, true, false, true, false},
    {ST::F8E5M2, "f8e5m2", 8, 8, true, true, true, false, true, false},
    {ST::F32, "f32", 32, 32, true, true, true, true, false, true},
    {ST::F4E2M1, "f4e2m1", 4, 4, true, true, false, false, false, false},
};

} // namespace

TEST_CASE("scalar catalogue: names, widths and capability sets (docs/scalars.md §1)", "[scalar]") {
  REQUIRE(std::size(kCatalogue) == kAllScalarTypes.size());
  for (const Row& r : kCatalogue) {
    INFO(r.name);
    CHECK(name(r.type) == r.name);
    CHECK(parse_scalar_type(r.name, ScalarNameSet::All) == r.type);
    CHECK(wire_bits(r.type) == r.wire);
    CHECK(host_staging_bits(r.type) == r.staging);
    CHECK(is_float(r.type) == r.is_float);
    CHECK(is_integer(r.type) == !r.is_float);
    CHECK(is_signed(r.type) == (r.type != ST::U8));
    CHECK(is_materializable(r.type) == r.materializable);
    CHECK(is_byte_addressable(r.type) == r.byte_addressable);
    CHECK(is_vector_engine_scalar(r.type) == r.ve_scalar);
    CHECK(is_contraction_operand(r.type) == r.operand);
    CHECK(is_contraction_accumulator(r.type) == r.accumulator);
    CHECK(is_staging(r.type) == (r.type == ST::I5 || r.type == ST::I9));
    CHECK(flit_elements(r.type) == 256 / r.wire); // FE(D) = 256 / BITS
  }
  CHECK(flit_elements(ST::I5) == 64); // a flit carries 64 i5 or 32 i9 (§2)
  CHECK(flit_elements(ST::I9) == 32);
}

TEST_CASE("scalar table: one row per type, formats and in-place widening (docs/scalars.md §3)",
          "[scalar]") {
  for (std::size_t i = 0; i < kScalarTable.size(); ++i)
    CHECK(static_cast<std::size_t>(kScalarTable[i].type) == i);
  // The container of every integer and of f32 already holds the accumulator value; bf16, f8 and
  // f4e2m1 are codes that must be decoded.
  const std::set<ST> in_place = {ST::I4, ST::I5, ST::I8, ST::I9, ST::I16, ST::I32, ST::U8, ST::F32};
  for (ST t : kAllScalarTypes) {
    INFO(name(t));
    CHECK(widens_in_place(t) == (in_place.count(t) == 1));
    CHECK(float_format(t).has_value() == is_float(t));
  }
  // Field widths and biases of §3.2-§3.6 (sign + exponent + fraction = the wire width).
  struct Fmt {
    ST t;
    unsigned e, m;
    int bias;
  };
  for (const Fmt& f :
       {Fmt{ST::BF16, 8, 7, 127}, Fmt{ST::F8E4M3, 4, 3, 7}, Fmt{ST::F8E5M2, 5, 2, 15},
        Fmt{ST::F32, 8, 23, 127}, Fmt{ST::F4E2M1, 2, 1, 1}}) {
    INFO(name(f.t));
    const FloatFormat ff = *float_format(f.t);
    CHECK(ff.exponent_bits == f.e);
    CHECK(ff.fraction_bits == f.m);
    CHECK(ff.bias == f.bias);
    CHECK(1 + f.e + f.m == wire_bits(f.t));
  }
  CHECK(float_format(ST::F8E4M3)->specials == FloatSpecials::AllOnesNaN); // no infinity
  CHECK(float_format(ST::F8E5M2)->max_finite_code == 0x7Bu);              // 57344
  CHECK(zero_point_staging_type(ST::I4) == ST::I5);
  CHECK(zero_point_staging_type(ST::I8) == ST::I9);
  CHECK_FALSE(zero_point_staging_type(ST::I16).has_value());
}

TEST_CASE("kernel-language scalar names (docs/kernel-language.md)", "[scalar]") {
  const std::set<std::string> names = {"i4", "i5",   "i8",     "i9",     "i16", "i32",
                                       "u8", "bf16", "f8e4m3", "f8e5m2", "f32", "f4e2m1"};
  for (ST t : kAllScalarTypes) {
    std::string n(name(t));
    INFO(n);
    CHECK(parse_scalar_type(n).has_value() == (names.count(n) == 1));
  }
  // f4e2m1 is named by kernels since its table lookup is simulated (docs/kernel-language.md §4).
  CHECK(parse_scalar_type("f4e2m1") == ST::F4E2M1);
  CHECK(parse_scalar_type("f4e2m1", ScalarNameSet::All) == ST::F4E2M1);
  CHECK_FALSE(parse_scalar_type("f16").has_value());
  CHECK_FALSE(parse_scalar_type("I8").has_value());
  CHECK_FALSE(parse_scalar_type("").has_value());
  CHECK(allowed_scalar_names() ==
        "i4, i5, i8, i9, i16, i32, u8, bf16, f8e4m3, f8e5m2, f32, f4e2m1");
  CHECK(allowed_scalar_names(ScalarNameSet::All) ==
        "i4, i5, i8, i9, i16, i32, u8, bf16, f8e4m3, f8e5m2, f32, f4e2m1");
}

TEST_CASE("integer ranges and TRF stored bits (docs/scalars.md §1, §5.5)", "[scalar]") {
  using R = std::pair<std::int64_t, std::int64_t>;
  CHECK(integer_range(ST::I4) == R{-8, 7});
  CHECK(integer_range(ST::I5) == R{-16, 15});
  CHECK(integer_range(ST::I8) == R{-128, 127});
  CHECK(integer_range(ST::I9) == R{-256, 255});
  CHECK(integer_range(ST::I16) == R{-32768, 32767});
  CHECK(integer_range(ST::I32) == R{-2147483648LL, 2147483647LL});
  CHECK(integer_range(ST::U8) == R{0, 255});
  CHECK_FALSE(integer_range(ST::BF16).has_value());
  CHECK(trf_stored_bits(ST::I4) == 5u);
  CHECK(trf_stored_bits(ST::I5) == 5u);
  CHECK(trf_stored_bits(ST::I8) == 9u);
  CHECK(trf_stored_bits(ST::I9) == 9u);
  CHECK(trf_stored_bits(ST::F8E4M3) == 8u);
  CHECK(trf_stored_bits(ST::F8E5M2) == 8u);
  CHECK(trf_stored_bits(ST::BF16) == 16u);
  for (ST t : {ST::I16, ST::I32, ST::U8, ST::F32, ST::F4E2M1})
    CHECK_FALSE(trf_stored_bits(t).has_value());
  // A 320-bit TRF row holds 64 i4/i5, 32 i8/i9, 32 f8, 16 bf16 (§5.5).
  CHECK(320 / *trf_stored_bits(ST::I4) == 64);
  CHECK(320 / *trf_stored_bits(ST::I9) >= 32);
}

TEST_CASE("contraction operand table: all 144 pairs (docs/scalars.md §5.4)", "[scalar]") {
  const std::map<std::pair<ST, ST>, ST> accepted = {
      {{ST::I4, ST::I4}, ST::I32},         {{ST::I4, ST::I5}, ST::I32},
      {{ST::I5, ST::I4}, ST::I32},         {{ST::I5, ST::I5}, ST::I32},
      {{ST::I8, ST::I8}, ST::I32},         {{ST::I8, ST::I9}, ST::I32},
      {{ST::I9, ST::I8}, ST::I32},         {{ST::I9, ST::I9}, ST::I32},
      {{ST::F8E4M3, ST::F8E4M3}, ST::F32}, {{ST::F8E5M2, ST::F8E5M2}, ST::F32},
      {{ST::BF16, ST::BF16}, ST::F32},
  };
  int refused = 0;
  for (ST s : kAllScalarTypes) {
    for (ST w : kAllScalarTypes) {
      INFO("stream " << name(s) << " × weight " << name(w));
      auto it = accepted.find({s, w});
      if (it != accepted.end()) {
        CHECK(contraction_accumulator(s, w) == it->second);
        CHECK(contraction_refusal(s, w) == ContractionRefusal::None);
        CHECK(explain_contraction_refusal(s, w).empty());
      } else {
        CHECK_FALSE(contraction_accumulator(s, w).has_value());
        CHECK(contraction_refusal(s, w) != ContractionRefusal::None);
        CHECK_FALSE(explain_contraction_refusal(s, w).empty());
        ++refused;
      }
    }
  }
  CHECK(refused == 144 - 11);
  // Refusal reasons, one per kind.
  CHECK(contraction_refusal(ST::I4, ST::I8) == ContractionRefusal::CrossIntegerFamily);
  CHECK(contraction_refusal(ST::I9, ST::I5) == ContractionRefusal::CrossIntegerFamily);
  CHECK(contraction_refusal(ST::I8, ST::BF16) == ContractionRefusal::IntegerTimesFloat);
  CHECK(contraction_refusal(ST::F8E4M3, ST::I4) == ContractionRefusal::IntegerTimesFloat);
  CHECK(contraction_refusal(ST::F8E4M3, ST::F8E5M2) == ContractionRefusal::DifferentFloatFormats);
  CHECK(contraction_refusal(ST::BF16, ST::F8E4M3) == ContractionRefusal::DifferentFloatFormats);
  CHECK(contraction_refusal(ST::F32, ST::F32) == ContractionRefusal::StreamNotOperand);
  CHECK(contraction_refusal(ST::BF16, ST::F32) == ContractionRefusal::WeightNotOperand);
  CHECK(contraction_refusal(ST::I16, ST::I16) == ContractionRefusal::StreamNotOperand);
  CHECK(contraction_refusal(ST::U8, ST::U8) == ContractionRefusal::StreamNotOperand);
  CHECK(contraction_refusal(ST::F4E2M1, ST::F4E2M1) == ContractionRefusal::StreamNotOperand);
  // The message names the types and cites the rule.
  std::string why = explain_contraction_refusal(ST::I4, ST::I8);
  CHECK(why.find("i4") != std::string::npos);
  CHECK(why.find("i8") != std::string::npos);
  CHECK(why.find("§5.4") != std::string::npos);
  // The accumulator is selected by the stream type.
  CHECK(contraction_accumulator(ST::I5) == ST::I32);
  CHECK(contraction_accumulator(ST::BF16) == ST::F32);
  CHECK_FALSE(contraction_accumulator(ST::F32).has_value());
}

TEST_CASE("Fetch Adapter, Cast Engine and Commit Adapter pairs: all 144 pairs", "[scalar]") {
  // docs/scalars.md §5.1 (plus identity), §4.5, §6, §5.2, §5.3.
  const std::set<std::pair<ST, ST>> fetch_cast = {
      {ST::I4, ST::I32},     {ST::I8, ST::I32},   {ST::I16, ST::I32}, {ST::F8E4M3, ST::F32},
      {ST::F8E5M2, ST::F32}, {ST::BF16, ST::F32}, {ST::F32, ST::BF16}};
  const std::set<std::pair<ST, ST>> table = {{ST::F4E2M1, ST::F8E4M3},
                                             {ST::F4E2M1, ST::F8E5M2},
                                             {ST::F8E4M3, ST::BF16},
                                             {ST::F8E5M2, ST::BF16}};
  const std::set<std::pair<ST, ST>> zero_point = {{ST::I4, ST::I5}, {ST::I8, ST::I9}};
  const std::set<std::pair<ST, ST>> cast_engine = {{ST::I32, ST::I4},     {ST::I32, ST::I8},
                                                   {ST::I32, ST::I16},    {ST::F32, ST::F8E4M3},
                                                   {ST::F32, ST::F8E5M2}, {ST::F32, ST::BF16}};
  for (ST in : kAllScalarTypes) {
    for (ST out : kAllScalarTypes) {
      INFO(name(in) << " -> " << name(out));
      const std::pair<ST, ST> p{in, out};
      const bool fc = in == out || fetch_cast.count(p) == 1;
      CHECK(is_fetch_cast(in, out) == fc);
      CHECK(explain_fetch_cast_refusal(in, out).empty() == fc);
      CHECK(is_table_lookup(in, out) == (table.count(p) == 1));
      CHECK(explain_table_lookup_refusal(in, out).empty() == (table.count(p) == 1));
      CHECK(is_paired_table_lookup(in, out) == (table.count(p) == 1 && in == ST::F4E2M1));
      CHECK(is_zero_point_sub(in, out) == (zero_point.count(p) == 1));
      CHECK(is_cast_engine_cast(in, out) == (cast_engine.count(p) == 1));
      CHECK(explain_cast_engine_refusal(in, out).empty() == (cast_engine.count(p) == 1));
      const bool commit = in == ST::F32 && out == ST::BF16;
      CHECK(is_commit_cast(in, out) == commit);
      CHECK(explain_commit_cast_refusal(in, out).empty() == commit);
    }
  }
  // Hints point at the stage that does the conversion.
  CHECK(explain_fetch_cast_refusal(ST::F8E4M3, ST::BF16).find("fetch_table_lookup") !=
        std::string::npos);
  CHECK(explain_fetch_cast_refusal(ST::I4, ST::I5).find("fetch_zero_point_sub") !=
        std::string::npos);
  CHECK(explain_fetch_cast_refusal(ST::F32, ST::F8E4M3).find("Cast Engine") != std::string::npos);
  CHECK(explain_cast_engine_refusal(ST::F32, ST::F32).find("identity") != std::string::npos);
}

TEST_CASE("zero-point range is the source type's range (docs/scalars.md §6)", "[scalar]") {
  for (std::int64_t zp = -300; zp <= 300; ++zp) {
    INFO("zp " << zp);
    CHECK(zero_point_in_range(ST::I4, ST::I5, zp) == (zp >= -8 && zp <= 7));
    CHECK(zero_point_in_range(ST::I8, ST::I9, zp) == (zp >= -128 && zp <= 127));
    CHECK_FALSE(zero_point_in_range(ST::I8, ST::I5, zp)); // illegal pairs are never in range
    CHECK_FALSE(zero_point_in_range(ST::I4, ST::I9, zp));
  }
  CHECK(explain_zero_point_refusal(ST::I4, ST::I5, 0).empty());
  std::string why = explain_zero_point_refusal(ST::I8, ST::I9, 128);
  CHECK(why.find("128") != std::string::npos);
  CHECK(why.find("[-128, 127]") != std::string::npos);
  CHECK(explain_zero_point_refusal(ST::I8, ST::I5, 0).find("i4 → i5") != std::string::npos);
  CHECK(zero_point_staging_type(ST::I4) == ST::I5);
  CHECK(zero_point_staging_type(ST::I8) == ST::I9);
  CHECK_FALSE(zero_point_staging_type(ST::I16).has_value());
  CHECK(staging_source(ST::I5) == ST::I4);
  CHECK(staging_source(ST::I9) == ST::I8);
}
