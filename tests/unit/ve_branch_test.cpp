// The Vector Engine's tags, guards and branches (docs/vector-engine.md §3.4): the reference's
// branch.rs kernels run on both engines and the oracle with inputs chosen here, each output equal
// to a value worked out by hand from the book's rules (comparison i sets tag bit i, the first slot
// whose guard admits the tag computes, an element no slot admits keeps its value); comparisons on
// adversarial inputs (NaN payloads, ±0, infinities, subnormals, i32 extremes) give the tags
// worked out by hand; every slot-layout rule refuses its case.
#include "runtime/npy/npy.h"
#include "tests/support/error_codes.h"
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const auto codes = testing::error_codes;

/// Writes `values` (32-bit patterns) as a .npy of `dtype` and `shape` into `dir`.
std::string write_npy(const TempDir& dir, const std::string& name, runtime::NpyDtype dtype,
                      std::vector<std::uint64_t> shape, const std::vector<std::uint32_t>& values) {
  runtime::NpyArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.data.resize(values.size() * 4);
  std::memcpy(a.data.data(), values.data(), a.data.size());
  const std::string path = dir.file(name + ".npy");
  const auto bytes = runtime::serialize_npy(a);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return path;
}

/// A pass on a 16-element stream [A / 8][A % 8] of `dtype` on one slice: `calls` after the tag.
std::string pass(const std::string& dtype, const std::string& tag, const std::string& calls,
                 const std::string& out = "") {
  return fmt::format(R"(
use furiosa_opt_std::prelude::*;
use furiosa_opt_std::prelude::BitReq::{{Ignore, One, Zero}};
axes![A = 16];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, {0}, m![1], m![1 # 2], m![1 # 256], m![A / 8], m![A % 8]>,
) -> VectorFinalTensor<'l, T, {1}, m![1], m![1 # 2], m![1 # 256], m![A / 8], m![A % 8]> {{
    input.vector_init().vector_intra_slice_tag({2}){3}.vector_final()
}}
)",
                     dtype, out.empty() ? dtype : out, tag, calls);
}

/// Calls that turn the tag into the output: 0, then one guarded op per tag bit adds 2^i (each on
/// its own ALU, so one element collects every bit its tag has).
constexpr const char* kTagToValue =
    ".vector_logic(LogicBinaryOpI32::BitAnd, 0)"
    ".vector_logic(LogicBinaryOpI32::BitOr, Branched::imm(TagGuard::matches([One, Ignore, Ignore, "
    "Ignore]), 1))"
    ".vector_logic(LogicBinaryOpI32::BitXor, Branched::imm(TagGuard::matches([Ignore, One, Ignore, "
    "Ignore]), 2))"
    ".vector_fxp(FxpBinaryOp::AddFxp, Branched::imm(TagGuard::matches([Ignore, Ignore, One, "
    "Ignore]), 4))"
    ".vector_clip(ClipBinaryOpI32::AddFxp, Branched::imm(TagGuard::matches([Ignore, Ignore, "
    "Ignore, One]), 8))";

/// Runs `text` (kernel `k`, input `input`) on `in`, both engines bit for bit and the oracle ok;
/// the output's 32-bit patterns.
std::vector<std::uint32_t> run_on(const std::string& name, const std::string& text,
                                  runtime::NpyDtype dtype, const std::vector<std::uint32_t>& in) {
  TempDir src(name + "_src");
  const std::string file = src.file("k.rs", text);
  const std::string input = write_npy(src, "in", dtype, {in.size()}, in);
  TempDir dir(name);
  auto a = run_saved(file, dir, "0", {"--input", "input=" + input});
  return npy_values<std::uint32_t>(a.at("out"));
}

std::uint32_t f32_bits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}
std::uint32_t i32_bits(std::int32_t i) {
  return static_cast<std::uint32_t>(i);
}

} // namespace

TEST_CASE("ve_branch: f32 comparisons give the tags worked out by hand", "[vector][branch][run]") {
  // bit 0 Equal(0.0), bit 1 Less(-1.5), bit 2 GreaterUnsigned(f32::MAX, 0x7f7fffff: +inf, a
  // positive NaN or any negative), bit 3 LessUnsigned(-0.0, 0x80000000: the sign bit clear).
  const std::string tag = "TagMode::Comparison([Cmp::Equal(0.0), Cmp::Less(-1.5), "
                          "Cmp::GreaterUnsigned(3.4028235e38), Cmp::LessUnsigned(-0.0)])";
  const std::string text =
      pass("f32", tag, std::string(".vector_reinterpret::<i32>()") + kTagToValue, "i32");
  // input bits → tag (bit i of the comment's list above)
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> cases = {
      {0x00000000u, 0b1001}, // +0: equal, sign clear
      {0x80000000u, 0b0101}, // -0: equal (IEEE), sign set so above 0x7f7fffff
      {0x3F800000u, 0b1000}, // 1.0
      {0xBF800000u, 0b0100}, // -1.0
      {0xBFC00000u, 0b0100}, // -1.5: not less than itself
      {0xC0000000u, 0b0110}, // -2.0
      {0x7F800000u, 0b1100}, // +inf
      {0xFF800000u, 0b0110}, // -inf
      {0x7FC00000u, 0b1100}, // quiet NaN: no ordered comparison holds
      {0x7F800001u, 0b1100}, // signalling NaN
      {0x7FA5A5A5u, 0b1100}, // NaN with a payload
      {0xFFC00001u, 0b0100}, // negative NaN
      {0x00000001u, 0b1000}, // the least subnormal
      {0x80000001u, 0b0100}, // its negative: not zero, not below -1.5
      {0x7F7FFFFFu, 0b1000}, // f32::MAX: not above itself
      {0xFF7FFFFFu, 0b0110}, // -f32::MAX
  };
  std::vector<std::uint32_t> in;
  for (const auto& c : cases) in.push_back(c.first);
  const auto out = run_on("ve_branch_cmp_f32", text, runtime::NpyDtype::F4, in);
  REQUIRE(out.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO(fmt::format("input {:#010x}", cases[i].first));
    CHECK(out[i] == cases[i].second);
  }
}

TEST_CASE("ve_branch: i32 comparisons at the extremes give the tags worked out by hand",
          "[vector][branch][run]") {
  const std::string tag = "TagMode::Comparison([Cmp::Equal(-2147483648), Cmp::Less(-2147483647), "
                          "Cmp::Greater(2147483646), Cmp::LessUnsigned(-2147483648)])";
  const std::string text = pass("i32", tag, kTagToValue);
  constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  const std::vector<std::pair<std::int32_t, std::uint32_t>> cases = {
      {kMin, 0b0011},     {kMin + 1, 0b0000}, {-1, 0b0000}, {0, 0b1000},       {1, 0b1000},
      {kMax - 1, 0b1000}, {kMax, 0b1100},     {-2, 0b0000}, {1 << 30, 0b1000}, {-(1 << 30), 0},
      {kMin + 2, 0},      {kMax - 2, 0b1000}, {7, 0b1000},  {-7, 0},           {0x7FFF, 0b1000},
      {-0x8000, 0},
  };
  std::vector<std::uint32_t> in;
  for (const auto& c : cases) in.push_back(i32_bits(c.first));
  const auto out = run_on("ve_branch_cmp_i32", text, runtime::NpyDtype::I4, in);
  REQUIRE(out.size() == cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("input " << cases[i].first);
    CHECK(out[i] == cases[i].second);
  }
}

TEST_CASE("ve_branch: the reference's ve_branch_bit_order gives the values worked out by hand",
          "[vector][branch][run]") {
  // Tag bits: 0 x == 0, 1 x == 5, 2 x < 10, 3 x > 1000. BitOr takes the first of bit 0 → 0x100,
  // bit 2 → 0x200, bit 3 → 0x400; then Min with the stashed input where bit 1 is set.
  const std::vector<std::pair<std::int32_t, std::int32_t>> by_hand = {
      {0, 0x100},           // bits 0, 2: the first slot wins
      {5, 5},               // bits 1, 2: 5 | 0x200 = 517, then min(517, 5)
      {3, 0x203},           // bit 2
      {9, 0x209},           // bit 2
      {10, 10},             // no bit: unchanged by both ops
      {1000, 1000},         // no bit
      {1001, 1001 | 0x400}, // bit 3: 2025
      {2000, 2000},         // bit 3, 0x400 already set in 2000
      {std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::max()},
      {std::numeric_limits<std::int32_t>::min(), -2147483136}, // bit 2: 0x80000200
      {-1, -1},                                                // bit 2, every bit already set
      {-1024, -512},                                           // bit 2: 0xfffffc00 | 0x200
      {500, 500},                                              // no bit
      {1024, 1024},                                            // bit 3, already set
      {6, 0x206},                                              // bit 2
      {256, 256},                                              // no bit
  };
  // The kernel's input is [BP = 64, BA = 4, BT = 8]: the sixteen values repeated.
  std::vector<std::uint32_t> in(64 * 4 * 8);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = i32_bits(by_hand[i % by_hand.size()].first);
  TempDir src("ve_branch_bit_order_src");
  const std::string input = write_npy(src, "in", runtime::NpyDtype::I4, {64, 4, 8}, in);
  TempDir dir("ve_branch_bit_order");
  auto a =
      run_saved("specs/kernels/ve_branch_bit_order.rs", dir, "0", {"--input", "input=" + input});
  const auto out = npy_values<std::int32_t>(a.at("out"));
  REQUIRE(out.size() == in.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    INFO("element " << i << ": input " << by_hand[i % by_hand.size()].first);
    CHECK(out[i] == by_hand[i % by_hand.size()].second);
  }
}

TEST_CASE("ve_branch: the reference's ve_elementwise_branched gives the values worked out by hand",
          "[vector][branch][run]") {
  // Tag bits: 0 x == 0, 1 x > 0, 2 x < 0, 3 sign bit clear (bits < 0x80000000). Negative x: the
  // mask makes +0, FmaF (x ≠ 0) gives 0 · -2 + 10 = 10, Clip takes max(10, 1) = 10. Zero: no FmaF
  // (bit 0 set), max with the scale. Positive or NaN: fma(x, -2, 10), then max with the scale
  // (maxNum: a NaN yields the scale).
  const std::vector<float> scale_row = {-2.25f, -1.5f, -0.75f, 0.0f, 0.75f, 1.5f, 2.25f, 3.0f};
  const float nan = std::bit_cast<float>(0x7FA5A5A5u), neg_nan = std::bit_cast<float>(0xFFC00001u);
  const float inf = std::numeric_limits<float>::infinity();
  const float tiny = std::bit_cast<float>(0x00000001u);
  // [x, s index (bt), output] by hand.
  struct Row {
    float x;
    std::size_t bt;
    std::uint32_t want;
  };
  const std::vector<Row> by_hand = {
      {-3.0f, 0, f32_bits(10.0f)}, {-inf, 5, f32_bits(10.0f)},   {-tiny, 7, f32_bits(10.0f)},
      {0.0f, 3, f32_bits(0.0f)},   {-0.0f, 3, f32_bits(0.0f)},   {-0.0f, 0, f32_bits(-0.0f)},
      {0.0f, 0, f32_bits(0.0f)},   {1.0f, 4, f32_bits(8.0f)},    {7.0f, 6, f32_bits(2.25f)},
      {5.5f, 0, f32_bits(-1.0f)},  {4.75f, 2, f32_bits(0.5f)},   {inf, 1, f32_bits(-1.5f)},
      {nan, 4, f32_bits(0.75f)},   {neg_nan, 7, f32_bits(3.0f)}, {tiny, 2, f32_bits(10.0f)},
      {0.25f, 7, f32_bits(9.5f)},
  };
  // Input [BP, BA, BT]: element (bp, ba, bt) at ((bp·4 + ba)·8 + bt); each row placed at its bt.
  std::vector<std::uint32_t> in(64 * 4 * 8, f32_bits(1.0f)), scale(64 * 8);
  for (std::size_t bp = 0; bp < 64; ++bp)
    for (std::size_t bt = 0; bt < 8; ++bt) scale[bp * 8 + bt] = f32_bits(scale_row[bt]);
  std::vector<std::pair<std::size_t, std::uint32_t>> expect;
  for (std::size_t r = 0; r < by_hand.size(); ++r) {
    const std::size_t bp = r % 64, ba = r % 4;
    const std::size_t at = (bp * 4 + ba) * 8 + by_hand[r].bt;
    in[at] = f32_bits(by_hand[r].x);
    expect.emplace_back(at, by_hand[r].want);
  }
  TempDir src("ve_branch_elementwise_src");
  const std::string input = write_npy(src, "in", runtime::NpyDtype::F4, {64, 4, 8}, in);
  const std::string scales = write_npy(src, "scale", runtime::NpyDtype::F4, {64, 8}, scale);
  TempDir dir("ve_branch_elementwise");
  auto a = run_saved("specs/kernels/ve_branch_elementwise.rs", dir, "0",
                     {"--input", "input=" + input, "--input", "scale=" + scales});
  const auto out = npy_values<std::uint32_t>(a.at("out"));
  REQUIRE(out.size() == in.size());
  for (const auto& [at, want] : expect) {
    INFO(fmt::format("element {}: input {:#010x}", at, in[at]));
    CHECK(out[at] == want);
  }
  // Every other element is 1.0: positive, fma(1, -2, 10) = 8 ≥ every scale.
  for (std::size_t i = 0; i < out.size(); ++i)
    if (in[i] == f32_bits(1.0f)) CHECK(out[i] == f32_bits(8.0f));
}

TEST_CASE("ve_branch: every ternary argument mode places the stream and the operands",
          "[vector][branch][run]") {
  // fma(a, b, c) = a · b + c with x = 3, operand0 = 5, operand1 = 7, all exact.
  const std::vector<std::pair<std::string, float>> modes = {
      {"Mode012", 22}, {"Mode002", 16}, {"Mode102", 22}, {"Mode112", 32},
      {"Mode020", 24}, {"Mode021", 26}, {"Mode120", 38},
  };
  for (const auto& [mode, want] : modes) {
    const std::string text =
        pass("f32", "TagMode::Zero",
             fmt::format(".vector_narrow_split::<m![A / 8, A % 8 / 4], m![A % 4]>()"
                         ".vector_fp_ternary_with_mode(FpTernaryOp::FmaF, TernaryArgMode::{}, "
                         "(5.0f32, 7.0f32))"
                         ".vector_widen_concat::<m![A / 8], m![A % 8 / 4, A % 4]>()",
                         mode));
    const auto out = run_on("ve_ternary_" + mode, text, runtime::NpyDtype::F4,
                            std::vector<std::uint32_t>(16, f32_bits(3.0f)));
    INFO(mode);
    for (std::uint32_t o : out) CHECK(o == f32_bits(want));
  }
}

TEST_CASE("ve_branch: a guarded unary op runs where its guard admits the tag only",
          "[vector][branch][run]") {
  // Sqrt where x > 0; elsewhere x stays (a NaN, -4 and -0 pass through untouched).
  const std::string text =
      pass("f32", "TagMode::Comparison([Cmp::Greater(0.0), Cmp::False, Cmp::False, Cmp::False])",
           ".vector_narrow_split::<m![A / 8, A % 8 / 4], m![A % 4]>()"
           ".vector_fp_unary((TagGuard::matches([One, Ignore, Ignore, Ignore]), FpUnaryOp::Sqrt))"
           ".vector_widen_concat::<m![A / 8], m![A % 8 / 4, A % 4]>()");
  std::vector<std::uint32_t> in(16, f32_bits(16.0f));
  in[1] = f32_bits(-4.0f);
  in[2] = 0x7FA5A5A5u;
  in[3] = f32_bits(-0.0f);
  in[4] = f32_bits(2.25f);
  const auto out = run_on("ve_branch_unary", text, runtime::NpyDtype::F4, in);
  REQUIRE(out.size() == 16);
  CHECK(out[0] == f32_bits(4.0f));
  CHECK(out[1] == f32_bits(-4.0f));
  CHECK(out[2] == 0x7FA5A5A5u); // not admitted: the payload survives
  CHECK(out[3] == f32_bits(-0.0f));
  CHECK(out[4] == f32_bits(1.5f));
}

TEST_CASE("ve_branch: the reference's branch kernels and the ternary kernel check clean",
          "[vector][branch]") {
  for (const char* spec :
       {"specs/kernels/ve_branch_elementwise.rs", "specs/kernels/ve_branch_bit_order.rs",
        "specs/kernels/ve_elementwise_fp_ternary_with_mode.rs"}) {
    const auto r = run_tujit({"check", source_path(spec)});
    INFO(spec << r.out << r.err);
    CHECK(r.status == 0);
  }
}

TEST_CASE("ve_branch: each slot-layout and tag rule refuses its case", "[vector][branch]") {
  const std::string cmp = "TagMode::Comparison([Cmp::Equal(0), Cmp::Less(0), Cmp::True, "
                          "Cmp::False])";
  const auto i32 = [&](const std::string& calls) { return codes(pass("i32", cmp, calls)); };
  const std::string g = "TagGuard::matches([One, Ignore, Ignore, Ignore])";
  // A guarded layout checks clean.
  CHECK(i32(fmt::format(".vector_fxp(FxpBinaryOp::AddFxp, Branched::imm({0}, 1).imm({0}, 2)"
                        ".imm(TagGuard::all(), 3))",
                        g))
            .empty());
  // E-VE-021: a fourth imm; imm after rf; a second rf; a guard that admits nothing; a slot after
  // an unconditional one; a guarded unary op that can never run.
  CHECK(i32(fmt::format(".vector_fxp(FxpBinaryOp::AddFxp, Branched::imm({0}, 1).imm({0}, 2)"
                        ".imm({0}, 3).imm({0}, 4))",
                        g))
            .count("E-VE-021"));
  CHECK(i32(".vector_stash().vector_fxp(FxpBinaryOp::AddFxp, Branched::rf(" + g + ", Stash).imm(" +
            g + ", 1))")
            .count("E-VE-021"));
  CHECK(i32(".vector_stash().vector_fxp(FxpBinaryOp::AddFxp, Branched::rf(" + g + ", Stash).rf(" +
            g + ", Stash))")
            .count("E-VE-021"));
  CHECK(i32(".vector_fxp(FxpBinaryOp::AddFxp, Branched::imm(TagGuard::not_matches([Ignore, "
            "Ignore, Ignore, Ignore]), 1))")
            .count("E-VE-021"));
  CHECK(i32(".vector_fxp(FxpBinaryOp::AddFxp, Branched::imm(TagGuard::all(), 1).imm(" + g + ", 2))")
            .count("E-VE-021"));
  CHECK(codes(pass("f32", "TagMode::Zero",
                   ".vector_narrow_split::<m![A / 8, A % 8 / 4], m![A % 4]>()"
                   ".vector_fp_unary((TagGuard::not_matches([Ignore, Ignore, Ignore, Ignore]), "
                   "FpUnaryOp::Sqrt))"
                   ".vector_widen_concat::<m![A / 8], m![A % 8 / 4, A % 4]>()"))
            .count("E-VE-021"));
  // E-VE-022: AxisToggle does not compile for the device.
  CHECK(codes(pass("i32", "TagMode::AxisToggle { axis: Ident::A }", "")).count("E-VE-022"));
  // E-VE-015: a boundary of the other scalar; a pattern of three; a constant in the rf slot.
  CHECK(
      codes(pass("f32", "TagMode::Comparison([Cmp::Less(0), Cmp::True, Cmp::True, Cmp::True])", ""))
          .count("E-VE-015"));
  CHECK(codes(pass("i32", "TagMode::Comparison([Cmp::Less(0.5), Cmp::True, Cmp::True, Cmp::True])",
                   ""))
            .count("E-VE-015"));
  CHECK(i32(".vector_fxp(FxpBinaryOp::AddFxp, Branched::imm(TagGuard::matches([One, Ignore, "
            "Ignore]), 1))")
            .count("E-VE-015"));
  CHECK(i32(".vector_fxp(FxpBinaryOp::AddFxp, Branched::rf(" + g + ", 1))").count("E-VE-015"));
  // E-VE-020: an rf slot reading a stash no vector_stash() wrote, or read a second time.
  CHECK(i32(".vector_fxp(FxpBinaryOp::AddFxp, Branched::rf(" + g + ", Stash))").count("E-VE-020"));
  CHECK(i32(".vector_stash().vector_fxp(FxpBinaryOp::AddFxp, Branched::rf(" + g +
            ", Stash)).vector_clip(ClipBinaryOpI32::Max, Stash)")
            .count("E-VE-020"));
}
