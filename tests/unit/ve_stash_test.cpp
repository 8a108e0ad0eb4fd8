// The Vector Engine's stash (docs/vector-engine.md §3.3): vector_stash() snapshots the running
// tensor and one later call reads it as its `Stash` operand. Each placement and read rule
// (E-VE-019, E-VE-020) refuses its case; the book's residual_max (`specs/ve_stash.rs`, max(2x, x))
// and an i32 pass run bit for bit on both engines, each output equal to a brute-force computation
// over the inputs the run saved.
#include "tests/support/error_codes.h"
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const auto codes = testing::error_codes;

/// A pass over an i32 stream [A / 8][A % 8] on one slice: `calls` after the tag.
std::string i32_pass(const std::string& calls) {
  return fmt::format(R"(
axes![A = 64];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![A / 8], m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![A / 8], m![A % 8]> {{
    input.vector_init().vector_intra_slice_tag(TagMode::Zero){}.vector_final()
}}
)",
                     calls);
}

} // namespace

TEST_CASE("stash: a snapshot read once at its own scalar checks clean", "[vector][stash]") {
  CHECK(codes(i32_pass(".vector_stash().vector_fxp(FxpBinaryOp::MulInt, 3)"
                       ".vector_clip(ClipBinaryOpI32::Max, Stash)"))
            .empty());
  // Taken at an Fxp stage, read by a Clip with the operands swapped.
  CHECK(codes(i32_pass(".vector_fxp(FxpBinaryOp::AddFxp, 1).vector_stash()"
                       ".vector_clip_with_mode(ClipBinaryOpI32::Min, BinaryArgMode::Mode10, "
                       "Stash)"))
            .empty());
  const auto r = run_tujit({"check", source_path("specs/ve_stash.rs")});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
}

TEST_CASE("stash: each rule refuses its case", "[vector][stash]") {
  // E-VE-019: a second stash; a stash after a conversion (no port to the stash).
  CHECK(codes(i32_pass(".vector_stash().vector_fxp(FxpBinaryOp::AddFxp, 1).vector_stash()"
                       ".vector_clip(ClipBinaryOpI32::Max, Stash)"))
            .count("E-VE-019"));
  CHECK(codes(i32_pass(".vector_fxp_to_fp(31).vector_stash().vector_fp_to_fxp(31)"))
            .count("E-VE-019"));
  // E-VE-020: no stash before the read; a second read; a read on the other scalar.
  CHECK(codes(i32_pass(".vector_clip(ClipBinaryOpI32::Max, Stash)")).count("E-VE-020"));
  CHECK(codes(i32_pass(".vector_stash().vector_fxp(FxpBinaryOp::AddFxp, Stash)"
                       ".vector_clip(ClipBinaryOpI32::Max, Stash)"))
            .count("E-VE-020"));
  CHECK(codes(i32_pass(".vector_stash().vector_fxp_to_fp(31).vector_narrow_split::<m![A / 8, A "
                       "% 8 / 4], m![A % 4]>().vector_fp_binary(FpBinaryOp::AddF, Stash)"
                       ".vector_widen_concat::<m![A / 8], m![A % 8 / 4, A % 4]>()"
                       ".vector_fp_to_fxp(31)"))
            .count("E-VE-020"));
}

TEST_CASE("stash: the book's residual_max gives max(2x, x) on both engines",
          "[vector][stash][run]") {
  TempDir dir("ve_stash");
  auto a = run_saved("specs/ve_stash.rs", dir, "6");
  const auto in = npy_values<float>(a.at("input"));
  const auto out = npy_values<float>(a.at("out"));
  REQUIRE(in.size() == out.size());
  REQUIRE(in.size() == 2 * 512);
  std::size_t negative = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    // 2x is exact in binary32 here (inputs in [-1, 1)); max is IEEE maxNum.
    const float want = std::fmax(2.0f * in[i], in[i]);
    negative += in[i] < 0;
    INFO("element " << i << ": x " << in[i]);
    CHECK(std::bit_cast<std::uint32_t>(out[i]) == std::bit_cast<std::uint32_t>(want));
  }
  CHECK(negative > 0); // both branches of the max are taken
}

TEST_CASE("stash: an i32 pass reads the value where it was stashed", "[vector][stash][run]") {
  // x + 1, stashed; · 3; then Min(stash, stream) by Mode10: min(x + 1, 3(x + 1)), wrapping.
  TempDir src("ve_stash_i32_src");
  const std::string file =
      src.file("k.rs", i32_pass(".vector_fxp(FxpBinaryOp::AddFxp, 1).vector_stash()"
                                ".vector_fxp(FxpBinaryOp::MulInt, 3)"
                                ".vector_clip_with_mode(ClipBinaryOpI32::Min, "
                                "BinaryArgMode::Mode10, Stash)"));
  TempDir dir("ve_stash_i32");
  auto a = run_saved(file, dir, "2");
  const auto in = npy_values<std::int32_t>(a.at("input"));
  const auto out = npy_values<std::int32_t>(a.at("out"));
  REQUIRE(in.size() == 64);
  REQUIRE(out.size() == 64);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto x1 = static_cast<std::int32_t>(static_cast<std::uint32_t>(in[i]) + 1u);
    const auto x3 = static_cast<std::int32_t>(static_cast<std::uint32_t>(x1) * 3u);
    INFO("element " << i);
    CHECK(out[i] == std::min(x1, x3));
  }
}
