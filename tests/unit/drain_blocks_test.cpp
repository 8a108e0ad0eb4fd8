// codegen/drain_blocks.h: which output cells the JIT drains as 8-lane blocks. Expected runs are
// written out by hand from the tables each case builds.
#include "codegen/drain_blocks.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using tujit::codegen::drain_runs;
using tujit::codegen::DrainRun;

namespace {

constexpr std::uint32_t kNoAcc = ~0u;
constexpr std::uint64_t kNoOut = ~std::uint64_t{0};

} // namespace

TEST_CASE("drain blocks: an identity drain into contiguous elements is one run", "[drain]") {
  std::vector<std::uint32_t> acc(32);
  std::vector<std::uint64_t> out(32);
  for (std::uint32_t o = 0; o < 32; ++o) {
    acc[o] = o;
    out[o] = 100 + o;
  }
  const std::vector<DrainRun> runs = drain_runs(acc, kNoAcc, out, kNoOut, 4);
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].first_cell == 0);
  CHECK(runs[0].blocks == 4);
  CHECK(runs[0].out == 100);
  CHECK(runs[0].out_step == 8);
  CHECK(runs[0].acc == 0);
  CHECK(runs[0].acc_step == 8);
}

TEST_CASE("drain blocks: strided blocks and a break in the stride make two runs", "[drain]") {
  // Blocks of 8 cells at output elements 0, 16, 32, then 40; accumulator cells 8 apart.
  const std::uint64_t starts[4] = {0, 16, 32, 40};
  std::vector<std::uint32_t> acc(32);
  std::vector<std::uint64_t> out(32);
  for (std::uint32_t o = 0; o < 32; ++o) {
    acc[o] = o;
    out[o] = starts[o / 8] + o % 8;
  }
  const std::vector<DrainRun> runs = drain_runs(acc, kNoAcc, out, kNoOut, 4);
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].blocks == 3);
  CHECK(runs[0].out_step == 16);
  CHECK(runs[1].first_cell == 24);
  CHECK(runs[1].blocks == 1);
  CHECK(runs[1].out == 40);
  CHECK(runs[1].acc == 24);
  CHECK(drain_runs(acc, kNoAcc, out, kNoOut, 1).empty()); // over the limit
}

TEST_CASE("drain blocks: padding, unwritten or permuted cells fall back to the cell drain",
          "[drain]") {
  std::vector<std::uint32_t> acc(16);
  std::vector<std::uint64_t> out(16);
  for (std::uint32_t o = 0; o < 16; ++o) {
    acc[o] = o;
    out[o] = o;
  }
  CHECK(drain_runs(acc, kNoAcc, out, kNoOut, 4).size() == 1);
  auto padded = acc;
  padded[3] = kNoAcc;
  CHECK(drain_runs(padded, kNoAcc, out, kNoOut, 4).empty());
  auto unwritten = out;
  unwritten[12] = kNoOut;
  CHECK(drain_runs(acc, kNoAcc, unwritten, kNoOut, 4).empty());
  auto swapped = acc;
  std::swap(swapped[0], swapped[1]);
  CHECK(drain_runs(swapped, kNoAcc, out, kNoOut, 4).empty());
  const std::vector<std::uint32_t> ragged(12, 0);
  CHECK(drain_runs(ragged, kNoAcc, std::vector<std::uint64_t>(12, 0), kNoOut, 4).empty());
}
