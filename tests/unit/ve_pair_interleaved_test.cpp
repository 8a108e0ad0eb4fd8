// `begin_interleaved` (docs/vector-engine.md §3.5; the book's page
// furiosa-opt docs/src/moving-tensors/fetch-engine.md, "Interleaving"): two DM tensors fetched
// as one stream whose Time holds the grouping axis I, the first tensor at I = 0. The reference's
// zip.rs kernels run bit for bit on both engines, every output element equal to the pass computed
// here from the two saved inputs; a bare interleaved fetch hands on each side's element at I = its
// index.
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

std::int32_t wrap(std::int64_t v) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
}

} // namespace

TEST_CASE("begin_interleaved: 2·lhs + 3·rhs, lhs at I = 0 (zip.rs preprocess_both)",
          "[vector][pair][interleaved][run]") {
  TempDir dir("ve_interleaved_both");
  auto a = run_saved("specs/kernels/ve_group_pair_preprocess_both.rs", dir, "11");
  const auto lhs = npy_values<std::int32_t>(a.at("lhs"));
  const auto rhs = npy_values<std::int32_t>(a.at("rhs"));
  const auto out = npy_values<std::int32_t>(a.at("out"));
  REQUIRE(lhs.size() == 512);
  REQUIRE(rhs.size() == 512);
  REQUIRE(out.size() == 512);
  for (std::size_t x = 0; x < 512; ++x) {
    INFO("a " << x << " lhs " << lhs[x] << " rhs " << rhs[x]);
    CHECK(out[x] ==
          wrap(std::int64_t{wrap(std::int64_t{lhs[x]} * 2)} + wrap(std::int64_t{rhs[x]} * 3)));
  }
}

TEST_CASE("begin_interleaved: lhs·rhs in f32 with the sides alternating packet by packet",
          "[vector][pair][interleaved][run]") {
  TempDir dir("ve_interleaved_multi");
  auto a = run_saved("specs/kernels/ve_group_pair_fp_multi_packet.rs", dir, "12");
  const auto lhs = npy_values<std::int32_t>(a.at("lhs"));
  const auto rhs = npy_values<std::int32_t>(a.at("rhs"));
  const auto out = npy_values<float>(a.at("out"));
  REQUIRE(lhs.size() == 512 * 2);
  REQUIRE(rhs.size() == 512 * 2);
  REQUIRE(out.size() == 512 * 2);
  for (std::size_t x = 0; x < lhs.size(); ++x) {
    // fxp_to_fp with 31 integer bits is the i32 → f32 conversion (docs/scalars.md); the zip one
    // binary32 product, which the host rounds the same way.
    const float want = static_cast<float>(lhs[x]) * static_cast<float>(rhs[x]);
    INFO("element " << x << " lhs " << lhs[x] << " rhs " << rhs[x]);
    CHECK(std::bit_cast<std::uint32_t>(out[x]) == std::bit_cast<std::uint32_t>(want));
  }
}

TEST_CASE("begin_interleaved: a bare interleaved fetch holds side g at I = g",
          "[vector][pair][interleaved][run]") {
  TempDir src("ve_interleaved_fetch_src");
  const std::string file = src.file("k.rs", R"(
axes![A = 64, B = 8, I = 2];
fn k<'l>(
    ctx: &'l mut Context,
    lhs: &'l DmTensor<i32, m![1], m![1 # 2], m![A / 2 # 256], m![A % 2, B]>,
    rhs: &'l DmTensor<i32, m![1], m![1 # 2], m![A / 2 # 256], m![A % 2, B]>,
) -> CollectTensor<'l, { Tu::Main }, i32, m![1], m![1 # 2], m![A / 2 # 256], m![A % 2, I], m![B]> {
    ctx.main
        .begin_interleaved::<I, _, _, _, _, _>(lhs.view(), rhs.view())
        .fetch::<m![A % 2, I], m![B]>()
        .collect::<m![A % 2, I], m![B]>()
}
)");
  TempDir dir("ve_interleaved_fetch");
  auto a = run_saved(file, dir, "13");
  const auto lhs = npy_values<std::int32_t>(a.at("lhs"));
  const auto rhs = npy_values<std::int32_t>(a.at("rhs"));
  const auto out = npy_values<std::int32_t>(a.at("out"));
  REQUIRE(lhs.size() == 64 * 8);
  REQUIRE(rhs.size() == 64 * 8);
  REQUIRE(out.size() == 64 * 8 * 2);
  // Declaration order: lhs / rhs are [A][B], the output [A][B][I].
  for (std::size_t x = 0; x < 64; ++x)
    for (std::size_t b = 0; b < 8; ++b) {
      INFO("a " << x << " b " << b);
      CHECK(out[(x * 8 + b) * 2 + 0] == lhs[x * 8 + b]);
      CHECK(out[(x * 8 + b) * 2 + 1] == rhs[x * 8 + b]);
    }
}
