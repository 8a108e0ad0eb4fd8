// Three decisions taken from the reference implementation (docs/vector-engine.md has the
// others), each on a kernel that shows it:
//   - a padded axis cut into a Time and a Packet digit (`K #{0} 64 / 32`, `K #{0} 64 % 32`,
//     K = 54)
//     lays out by its normal form: the cells past K are padding, as the reference decodes a
//     composite digit only after summing it (furiosa-mapping-types `Index::add_term`,
//     `finalize`);
//   - the Packet Reducer's `strip` drops outer padding of every kind (furiosa-mapping-types
//     `Mapping::remove_padding`, used by furiosa-opt-lower `config_contract_packet`): for
//     `K #{0} 32` with K = 4 the tree depth is 2, and the output sums exactly the four live K;
//   - a padded K cut into two OutTime digits that walk every TRF row is sequenced in its padded
//     extent instead of being refused (the reference's TRF-side check is a stub,
//     engine/contraction/outer/trf_sequencer.rs).
// Each runs on both engines against the float64 oracle.
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <string>

namespace {

nlohmann::json run_verify(const tujit::testing::TempDir& dir, const std::string& text,
                          const char* engine = "interp") {
  const std::string file = dir.file("k.rs", text);
  const auto r = tujit::testing::run_tujit({"run", file, "--engine", engine, "--verify", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  return r.json();
}

nlohmann::json derived(const std::string& file, const std::string& op) {
  const auto r = tujit::testing::run_tujit({"check", file, "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const nlohmann::json j = r.json(); // the loop below must not range over a temporary's member
  for (const auto& s : j["kernels"][0]["stages"])
    if (s["op"] == op) return s["derived"];
  return {};
}

} // namespace

TEST_CASE("a padded K cut into Time and Packet lays out by its normal form", "[findings]") {
  tujit::testing::TempDir dir("finding_layout");
  const std::string text = R"(
axes![A = 4, K = 54, N = 8];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![1 # 256], m![A, K #{0} 64 / 32], m![K #{0} 64 % 32]>,
    trf: &TrfTensor<i8, m![1], m![1 # 2], m![1 # 256], m![N], m![K #{0} 64]>,
) -> ContractTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![A], m![N]> {
    input
        .contract_outer::<m![A, K #{0} 64 / 32], m![K #{0} 64 % 32], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![N]>(LaneMode::Interleaved)
}
)";
  for (const char* engine : {"interp", "jit"}) {
    INFO(engine);
    const auto j = run_verify(dir, text, engine);
    CHECK(j["verify"]["engines_bit_exact"] == true);
    CHECK(j["verify"]["oracle_ok"] == true);
    CHECK(j["verify"]["poisoned_outputs"] == 0);
  }
}

TEST_CASE("strip drops zero padding too: K #{0} 32 with K = 4 reduces at depth 2", "[findings]") {
  tujit::testing::TempDir dir("finding_strip");
  const std::string file = dir.file("k.rs", R"(
axes![A = 4, K = 4, N = 8];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![1 # 256], m![A], m![K #{0} 32]>,
    trf: &TrfTensor<i8, m![1], m![1 # 2], m![1 # 256], m![N], m![K #{0} 32]>,
) -> ContractTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![A], m![N]> {
    input
        .contract_outer::<m![A], m![K #{0} 32], _, _, _>(trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![A]>()
        .contract_lane::<m![A], m![N]>(LaneMode::Interleaved)
}
)");
  const auto d = derived(file, "contract_packet");
  // The smallest depth whose reduced packet, without its outer padding of any kind, is P2 = 1:
  // split(K #{0} 32, 4).outer = 1 #{0} 8 strips to 1.
  CHECK(d["depth"] == 2);
  const auto r = tujit::testing::run_tujit({"run", file, "--verify", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.json()["verify"]["oracle_ok"] == true);
  CHECK(r.json()["verify"]["engines_bit_exact"] == true);
}

TEST_CASE("a padded K cut into two OutTime digits is sequenced in its padded extent",
          "[findings]") {
  // K = 6 zero-padded to 32 in the TRF Element and the stream; OutTime walks it as
  // `K #{0} 32 / 4` and `K #{0} 32 / 2 % 2` around M: the 16 rows of `K #{0} 32 / 2` (3 of them
  // live) are each walked once. (With top padding the padded products reach every slot: all
  // outputs poisoned, as the hardware would make them.)
  tujit::testing::TempDir dir("finding_outer");
  const std::string file = dir.file("k.rs", R"(
axes![M = 2, J = 8, K = 6, N = 8];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![1 # 256], m![K #{0} 32 / 4, M, K #{0} 32 / 2 % 2], m![J, K #{0} 32 % 2]>,
    trf: &TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![K #{0} 32]>,
) -> ContractTensor<'l, T, f32, m![1], m![1 # 2], m![1 # 256], m![M, J], m![N]> {
    input
        .contract_outer::<m![K #{0} 32 / 4, M, K #{0} 32 / 2 % 2], m![J, K #{0} 32 % 2], _, _, _>(trf)
        .contract_packet::<m![J]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M, J], m![N]>(LaneMode::Interleaved)
}
)");
  const auto d = derived(file, "contract_outer");
  // ReadSize 2 (the TRF's `K #{0} 32 % 2` under the packet's), 16 rows, walked by the OutTime
  // digits `/ 4` (stride 4 elements) and `/ 2 % 2` (stride 2), M a broadcast.
  CHECK(d["read_size"] == 2);
  CHECK(d["rows_size"] == 16);
  CHECK(d["loops"] == "[8:4, 2:0, 2:2]");
  for (const char* engine : {"interp", "jit"}) {
    INFO(engine);
    const auto r =
        tujit::testing::run_tujit({"run", file, "--engine", engine, "--verify", "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    CHECK(r.json()["verify"]["engines_bit_exact"] == true);
    CHECK(r.json()["verify"]["oracle_ok"] == true);
    CHECK(r.json()["verify"]["poisoned_outputs"] == 0);
  }
}
