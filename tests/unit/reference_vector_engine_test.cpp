// The reference's Vector Engine examples as it writes them (tests/data/reference/src/vector_engine/
// {normal,zip,branch}.rs, from furiosa-opt-examples/src/, their axes in vector_engine.rs): every
// `#[device]` kernel runs with --verify, the engines bit for bit and the oracle agreeing
// (docs/vector-engine.md §3). reduce.rs has its own test (reference_reduce_test.cpp).
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tujit;

namespace {

const std::string kDir = "tests/data/reference/src/vector_engine/";

/// Each kernel of `file` runs verified, and the file holds no other.
void all_run_verified(const std::string& file, const std::vector<std::string>& kernels) {
  for (const std::string& k : kernels) testing::require_runs_verified(kDir + file, k);
  const testing::CliRun listed = testing::run_tujit({"check", testing::source_path(kDir + file)});
  const std::string n = std::to_string(kernels.size());
  CHECK(listed.out.find(n + " kernels: " + n + " ok") != std::string::npos);
}

} // namespace

TEST_CASE("reference kernels: every kernel of vector_engine/normal.rs runs with --verify",
          "[reference][vector]") {
  // The file's 21 `#[device]` functions, in file order (ve_elementwise_neg_offset_f32 negates a
  // `let` constant, docs/kernel-language.md §3).
  all_run_verified("normal.rs", {"ve_elementwise_fxp_const",
                                 "ve_elementwise_full_pipeline",
                                 "ve_elementwise_neg_offset_f32",
                                 "ve_elementwise_reinterpret_abs_f32",
                                 "ve_elementwise_reinterpret_chain_f32",
                                 "ve_elementwise_stash_f32",
                                 "ve_elementwise_stash_i32",
                                 "ve_elementwise_fp_unary",
                                 "ve_elementwise_fp_binary_with_mode",
                                 "ve_elementwise_fp_ternary_with_mode",
                                 "ve_elementwise_logic_with_mode",
                                 "ve_elementwise_fxp_with_mode",
                                 "ve_elementwise_fp_div_with_mode",
                                 "ve_elementwise_clip_with_mode",
                                 "ve_group_pair_fp_zip_with_mode",
                                 "ve_stash_fxp_fxp",
                                 "ve_stash_after_reinterpret_f32",
                                 "ve_stash_after_widen_f32",
                                 "ve_elementwise_logic",
                                 "ve_elementwise_vrf",
                                 "ve_elementwise_multi_vrf"});
}

TEST_CASE("reference kernels: every kernel of vector_engine/zip.rs runs with --verify",
          "[reference][vector][pair]") {
  all_run_verified("zip.rs",
                   {"ve_group_pair_add", "ve_group_pair_reinterpret_scale_f32",
                    "ve_group_pair_logic_abs_add_f32", "ve_group_pair_preprocess_both",
                    "ve_group_pair_preprocess_g0", "ve_group_pair_preprocess_g1",
                    "ve_group_pair_post_zip", "ve_group_pair_chain", "ve_group_pair_fxp",
                    "ve_group_pair_logic", "ve_group_pair_fp", "ve_group_pair_fp_multi_packet",
                    "ve_group_pair_unary", "ve_group_pair_unary_selective",
                    "ve_elementwise_ternary", "ve_elementwise_ternary_stash",
                    "ve_group_pair_ternary", "ve_group_pair_ternary_selective"});
}

TEST_CASE("reference kernels: every kernel of vector_engine/branch.rs runs with --verify",
          "[reference][vector][branch]") {
  all_run_verified("branch.rs", {"ve_elementwise_branched", "ve_branch_bit_order"});
}

TEST_CASE("reference kernels: the negative Vector Engine fixture is refused by its ALU rule",
          "[reference][vector]") {
  // negative/vector_engine.rs: AddFxp, MulInt, then SubFxp, which wants AddFxp's ALU again
  // (docs/vector-engine.md §2, E-VE-005); its axis A comes from vector_engine.rs by `use crate::`.
  const testing::CliRun r = testing::run_tujit(
      {"check", testing::source_path("tests/data/reference/src/negative/vector_engine.rs")});
  INFO(r.out << r.err);
  CHECK(r.status == 1);
  CHECK(r.out.find("ve_elementwise_fxp_chain: refused (E-VE-005)") != std::string::npos);
  CHECK(r.err.find("SubFxp") != std::string::npos);
}
