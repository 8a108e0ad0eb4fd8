// Pair mode of the Vector Engine (docs/vector-engine.md §3.5): each rule of the chain (E-VE-023 …
// E-VE-026, the shared ALUs) refuses its case; the book's pair kernels (specs/ve_pair_*.rs) run bit
// for bit on both engines, every output element equal to the book's definition computed here from
// the saved inputs: group g is the input at I = g, a per-group op runs on its group, the zip is
// op(group0, group1) with its mode choosing the two.
#include "runtime/tensor/sha256.h"
#include "tests/support/error_codes.h"
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const auto codes = testing::error_codes;

/// An i32 pair pass over [A = 16][I] on one slice: `unzip` (the entry), then `calls`.
std::string
i32_pair(const std::string& calls,
         const std::string& unzip = ".vector_intra_slice_unzip::<I, m![1 # 2], m![1]>()",
         const std::string& time = "m![I]") {
  return fmt::format(R"(
axes![A = 16, I = 2];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 8 # 64], {}, m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 8 # 64], m![1], m![A % 8]> {{
    input.vector_init(){}{}.vector_final()
}}
)",
                     time, unzip, calls);
}

/// The input element at (a, b, group) of an [A][B][I] input (declaration order).
std::size_t at(std::size_t a, std::size_t b, std::size_t g, std::size_t nb) {
  return (a * nb + b) * 2 + g;
}

std::int32_t wrap(std::int64_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
}

} // namespace

TEST_CASE("pair mode: the book's pair kernels check clean", "[vector][pair]") {
  for (const char* f : {"specs/ve_pair_add.rs", "specs/ve_pair_preprocess_one_side.rs",
                        "specs/ve_pair_fp_mul_zip.rs", "specs/ve_pair_asymmetric_preprocess.rs",
                        "specs/ve_pair_sub_reverse.rs"}) {
    const auto r = run_tujit({"check", source_path(f)});
    INFO(f << r.out << r.err);
    CHECK(r.status == 0);
  }
  CHECK(codes(i32_pair(
                  ".vector_fxp(FxpBinaryOp::AddFxp, 1, 2).vector_clip_zip(ClipBinaryOpI32::Max)"))
            .empty());
}

TEST_CASE("pair mode: each rule refuses its case", "[vector][pair]") {
  const std::string zip = ".vector_clip_zip(ClipBinaryOpI32::AddFxp)";
  // E-VE-023: the unzip after the tag; TileTime and SplitTime not Time cut / without I; an axis of
  // 4; I not in Time.
  CHECK(codes(i32_pair(zip, ".vector_intra_slice_tag(TagMode::Zero).vector_intra_slice_unzip::<I, "
                            "m![1 # 2], m![1]>()"))
            .count("E-VE-023"));
  CHECK(codes(i32_pair(zip, ".vector_intra_slice_unzip::<I, m![1], m![1]>()")).count("E-VE-023"));
  CHECK(codes(i32_pair(zip, ".vector_intra_slice_unzip::<I, m![1 # 2], m![1 # 2]>()"))
            .count("E-VE-023"));
  CHECK(
      codes(i32_pair(zip, ".vector_intra_slice_unzip::<A, m![1 # 2], m![1]>()")).count("E-VE-023"));
  // E-VE-024: one operand for both groups, a unary op without flags, trim, final before the zip.
  CHECK(codes(i32_pair(".vector_fxp(FxpBinaryOp::MulInt, 3)" + zip)).count("E-VE-024"));
  CHECK(codes(i32_pair("")).count("E-VE-024"));
  CHECK(codes(i32_pair(".vector_fxp_to_fp(31).vector_narrow_trim::<m![A % 8 / 4 # 4]>()"))
                .count("E-VE-024") +
            codes(i32_pair(".vector_fxp_to_fp(31).vector_narrow_trim::<m![A % 4]>()"))
                .count("E-VE-024") >=
        1);
  // E-VE-025: a zip of a stream that is no pair (after the tag; a second zip).
  CHECK(codes(i32_pair(zip, ".vector_intra_slice_tag(TagMode::Zero)", "m![1]")).count("E-VE-025"));
  CHECK(codes(i32_pair(zip + ".vector_clip_zip(ClipBinaryOpI32::Max)")).count("E-VE-025"));
  // E-VE-026: the stash, before or after the zip.
  CHECK(codes(i32_pair(zip + ".vector_stash()")).count("E-VE-026"));
  CHECK(codes(i32_pair(".vector_fxp(FxpBinaryOp::AddFxp, Stash, ())" + zip)).count("E-VE-026"));
  // E-VE-005: an ALU a group used is used for both: MulInt per group, then a MulInt zip.
  CHECK(
      codes(i32_pair(".vector_fxp(FxpBinaryOp::MulInt, (), 3).vector_fxp_zip(FxpBinaryOp::MulInt)"))
          .count("E-VE-005"));
  // A skipped op on both groups claims no ALU.
  CHECK(codes(i32_pair(
                  ".vector_fxp(FxpBinaryOp::MulInt, (), ()).vector_fxp_zip(FxpBinaryOp::MulInt)"))
            .empty());
}

TEST_CASE("pair mode: 10·x[I=0] + x[I=1] (Pair Per-Side Preprocessing)", "[vector][pair][run]") {
  TempDir dir("ve_pair_one_side");
  auto a = run_saved("specs/ve_pair_preprocess_one_side.rs", dir, "3");
  const auto in = npy_values<std::int32_t>(a.at("input"));
  const auto out = npy_values<std::int32_t>(a.at("out"));
  REQUIRE(in.size() == 2048 * 2 * 2);
  REQUIRE(out.size() == 2048 * 2);
  for (std::size_t x = 0; x < 2048; ++x)
    for (std::size_t b = 0; b < 2; ++b) {
      INFO("a " << x << " b " << b);
      CHECK(out[x * 2 + b] ==
            wrap(std::int64_t{10} * in[at(x, b, 0, 2)] + std::int64_t{in[at(x, b, 1, 2)]}));
    }
}

TEST_CASE("pair mode: x[I=1] − x[I=0] (Pair Zip Argument Mode, Mode10) and x[I=0]·x[I=1]",
          "[vector][pair][run]") {
  for (const bool sub : {true, false}) {
    TempDir dir(sub ? "ve_pair_sub" : "ve_pair_mul");
    auto a =
        run_saved(sub ? "specs/ve_pair_sub_reverse.rs" : "specs/ve_pair_fp_mul_zip.rs", dir, "5");
    const auto in = npy_values<float>(a.at("input"));
    const auto out = npy_values<float>(a.at("out"));
    REQUIRE(in.size() == 512 * 2 * 2);
    REQUIRE(out.size() == 512 * 2);
    for (std::size_t x = 0; x < 512; ++x)
      for (std::size_t b = 0; b < 2; ++b) {
        // One IEEE binary32 operation: the host's float arithmetic rounds it the same way.
        const float g0 = in[at(x, b, 0, 2)], g1 = in[at(x, b, 1, 2)];
        const float want = sub ? g1 - g0 : g0 * g1;
        INFO("a " << x << " b " << b << " groups " << g0 << ", " << g1);
        CHECK(std::bit_cast<std::uint32_t>(out[x * 2 + b]) == std::bit_cast<std::uint32_t>(want));
      }
  }
}

TEST_CASE("pair mode: a zip's mode names the groups, per-group operands and a common conversion",
          "[vector][pair][run]") {
  // Group 1 · 3 (group 0 skips the per-group call); then the zip SubFxp by Mode10 (group1 −
  // group0) and a later Max with a constant. Each ALU once (E-VE-005): MulInt, the zip's SubFxp
  // and the clip.
  TempDir src("ve_pair_modes_src");
  const std::string file = src.file(
      "k.rs", i32_pair(".vector_fxp(FxpBinaryOp::MulInt, (), 3)"
                       ".vector_fxp_zip_with_mode(FxpBinaryOp::SubFxp, BinaryArgMode::Mode10)"
                       ".vector_clip(ClipBinaryOpI32::Max, -5)"));
  TempDir dir("ve_pair_modes");
  auto a = run_saved(file, dir, "9");
  const auto in = npy_values<std::int32_t>(a.at("input"));
  const auto out = npy_values<std::int32_t>(a.at("out"));
  REQUIRE(in.size() == 32);
  REQUIRE(out.size() == 16);
  for (std::size_t x = 0; x < 16; ++x) {
    const std::int32_t g0 = in[x * 2];
    const std::int32_t g1 = wrap(std::int64_t{in[x * 2 + 1]} * 3);
    INFO("a " << x);
    CHECK(out[x] == std::max(wrap(std::int64_t{g1} - g0), -5));
  }
}
