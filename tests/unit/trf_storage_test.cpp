// The physical TRF figures `tujit explain` / `check --json` report (furiosa-opt
// docs/src/computing-tensors/register-files.md "Architecture" and "To Contraction Engine"): the
// 320-bit row, the per-lane read of 640 (wide) or 320 (narrow) bits, the stored integer width
// (i4 → i5, i8 → i9) and the elements per row of the page's table (i4/i5 64, i8/i9 32, bf16 16).
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

nlohmann::json stage(const nlohmann::json& kernel, const std::string& op) {
  for (const auto& s : kernel["stages"])
    if (s["op"] == op) return s["derived"];
  return {};
}

} // namespace

TEST_CASE("TRF storage and read widths in the derived values", "[kernel-check][trf]") {
  struct Row {
    const char* spec;
    const char* stored_type;
    std::uint64_t stored_bits, per_row, lane_read_bits;
  };
  // bmatmul_m_in_time: bf16, a wide 64 B read (both banks); i8 / i4 contractions: narrow reads.
  const Row rows[] = {
      {"specs/bmatmul_m_in_time.rs", "bf16", 16, 16, 640},
      {"specs/derived/i8_contract.rs", "i9", 9, 32, 0},
      {"specs/derived/i4_contract.rs", "i5", 5, 64, 320},
  };
  for (const Row& r : rows) {
    INFO(r.spec);
    const auto run =
        tujit::testing::run_tujit({"check", tujit::testing::source_path(r.spec), "--json"});
    REQUIRE(run.status == 0);
    const auto k = run.json()["kernels"][0];
    const auto outer = stage(k, "contract_outer");
    REQUIRE(!outer.is_null());
    CHECK(outer["row_bits"] == 320);
    CHECK(outer["stored_type"] == r.stored_type);
    CHECK(outer["stored_bits"] == r.stored_bits);
    CHECK(outer["elements_per_row"] == r.per_row);
    if (r.lane_read_bits != 0) CHECK(outer["lane_read_bits"] == r.lane_read_bits);
    // The wide flag and the physical read agree: 640 bits exactly for a wide read.
    CHECK((outer["lane_read_bits"] == 640) == (outer["wide"] == true));
    const auto store = stage(k, "to_trf");
    if (!store.is_null()) {
      CHECK(store["stored_type"] == r.stored_type);
      CHECK(store["elements_per_row"] == r.per_row);
    }
  }
  // explain prints them with the stage.
  const auto ex = tujit::testing::run_tujit(
      {"explain", tujit::testing::source_path("specs/derived/i4_contract.rs")});
  REQUIRE(ex.status == 0);
  CHECK(ex.out.find("stored_type") != std::string::npos);
  CHECK(ex.out.find("i5") != std::string::npos);
}
