// The reference's Vector Engine reduce examples as it writes them
// (tests/data/reference/src/vector_engine/reduce.rs, from furiosa-opt-examples/src/): every
// intra-slice reduce kernel runs with --verify, the engines bit for bit and the oracle agreeing;
// the inter-slice reducer kernels are refused with E-VE-013 until tujit simulates it
// (docs/vector-engine.md §3.1, §3.6).
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tujit;

namespace {

const std::string kFile = "tests/data/reference/src/vector_engine/reduce.rs";

void runs_verified(const std::string& kernel) {
  INFO(kFile << " --kernel " << kernel);
  const testing::CliRun r = testing::run_tujit(
      {"run", testing::source_path(kFile), "--kernel", kernel, "--verify", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
}

} // namespace

TEST_CASE("reference kernels: every intra-slice reduce of reduce.rs runs with --verify",
          "[reference][vector][reduce]") {
  for (const char* k : {"ve_intra_slice_reduce_add_fxp_sat", "ve_intra_slice_reduce_max_i32",
                        "ve_intra_slice_reduce_min_i32", "ve_intra_slice_reduce_add_f32",
                        "ve_intra_slice_reduce_max_f32", "ve_intra_slice_reduce_min_f32",
                        "ve_intra_slice_reduce_split_time_packet"})
    runs_verified(k);
}

TEST_CASE("reference kernels: reduce.rs's inter-slice reducer kernels are refused by name",
          "[reference][vector][reduce]") {
  const testing::CliRun r = testing::run_tujit({"check", testing::source_path(kFile)});
  INFO(r.out << r.err);
  // The seven intra-slice kernels check; the five that use vector_inter_slice_reduce are refused
  // with E-VE-013 (the inter-slice reducer is not simulated, docs/vector-engine.md §3.1).
  CHECK(r.out.find("12 kernels: 7 ok, 5 refused") != std::string::npos);
  for (const char* k : {"ve_inter_slice_reduce_add_sat_i32", "ve_inter_slice_reduce_max_i32",
                        "ve_inter_slice_reduce_add_f32", "ve_vru_then_vau_i32",
                        "ve_inter_slice_reduce_promote_f32"})
    CHECK(r.out.find(std::string(k) + ": refused (E-VE-013)") != std::string::npos);
}
