// The reference's Vector Engine reduce examples as it writes them
// (tests/data/reference/src/vector_engine/reduce.rs, from furiosa-opt-examples/src/): every
// kernel, the intra-slice reduces and the inter-slice reducer's, runs with --verify, the engines
// bit for bit and the oracle agreeing (docs/vector-engine.md §3.6, §3.7).
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace tujit;

namespace {

const std::string kFile = "tests/data/reference/src/vector_engine/reduce.rs";

void runs_verified(const std::string& kernel) {
  testing::require_runs_verified(kFile, kernel);
}

} // namespace

TEST_CASE("reference kernels: every kernel of reduce.rs runs with --verify",
          "[reference][vector][reduce]") {
  // The seven intra-slice reduces (docs/vector-engine.md §3.6) and the five inter-slice reducer
  // kernels (§3.7): three reducer-only, one followed by the intra-slice chain, one promoting T.
  for (const char* k :
       {"ve_intra_slice_reduce_add_fxp_sat", "ve_intra_slice_reduce_max_i32",
        "ve_intra_slice_reduce_min_i32", "ve_intra_slice_reduce_add_f32",
        "ve_intra_slice_reduce_max_f32", "ve_intra_slice_reduce_min_f32",
        "ve_intra_slice_reduce_split_time_packet", "ve_inter_slice_reduce_add_sat_i32",
        "ve_inter_slice_reduce_max_i32", "ve_inter_slice_reduce_add_f32", "ve_vru_then_vau_i32",
        "ve_inter_slice_reduce_promote_f32"})
    runs_verified(k);
  // No other kernel in the file goes unrun.
  const testing::CliRun listed = testing::run_tujit({"check", testing::source_path(kFile)});
  CHECK(listed.out.find("12 kernels: 12 ok") != std::string::npos);
}

TEST_CASE("reference kernels: the inter-slice reducer ends one ring traversal after its flits",
          "[reference][vector][reduce][cycles]") {
  // docs/cycle-model.md §7, A10: a reduce pass takes the entering flits one per cycle; the
  // inter-slice reducer adds r cycles, r the slices of its reduction group. Both kernels fetch 4
  // flits through a fetch_cast; the promoting reducer's group is R, 4 slices.
  const auto data_path = [](const char* kernel) {
    const testing::CliRun r =
        testing::run_tujit({"cycles", testing::source_path(kFile), "--kernel", kernel, "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    // The kernel's Tensor Unit command (its DMA transfers are timed apart).
    const auto j = r.json();
    CHECK(j["analytic"]["total"] == j["trace"]["total"]);
    return j["analytic"]["total"].get<std::uint64_t>();
  };
  const std::uint64_t intra = data_path("ve_intra_slice_reduce_max_i32");
  const std::uint64_t inter = data_path("ve_inter_slice_reduce_promote_f32");
  CHECK(inter == intra + 4);
}
