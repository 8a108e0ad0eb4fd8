// `tujit stage OP …` (docs/cli.md §11), run in-process. Accepted configurations and
// their derived values come from docs/contraction.md §11 (and docs/datapath.md §8 for Collect,
// which §11 does not cover); failing ones from docs/contraction.md §12 (docs/datapath.md §8 for
// Collect), with the rule name and code of the verifiers (docs/errors.md).
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using Run = tujit::testing::CliRun;
const tujit::testing::TujitCommand stage{"stage"};

// §12 fixture axes (negative/contract_outer_assertions.rs) and the reference unit-test axes of
// the *derived* entries.
const std::string kFixtureAxes = "A=8,B=64,C=128,D=64,E=32,F=6,R=8,T=5,U=3,V=2";
const std::string kUnitAxes = "A=4,B=2,C=4,D=32,K=64,M=4,N=8,O=2,P=16,X=2";

// A failing run with --json: exit 1, one error diagnostic with this code, stage and rule.
void require_rule_failure(const Run& r, const std::string& code, const std::string& stage_name,
                          const std::string& rule) {
  INFO(r.err);
  REQUIRE(r.status == 1);
  auto j = r.json();
  CHECK(j["ok"] == false);
  REQUIRE(j["diagnostics"].size() == 1);
  const auto& d = j["diagnostics"][0];
  CHECK(d["severity"] == "error");
  CHECK(d["code"] == code);
  CHECK(d["stage"] == stage_name);
  CHECK(d["rule"] == rule);
  CHECK(!d["message"].get<std::string>().empty());
  CHECK(d["notes"].is_array());
  // The human rendering goes to stderr too.
  CHECK(r.err.find("error[" + code + "]") != std::string::npos);
}

nlohmann::json require_ok(const Run& r, const std::string& op) {
  INFO(r.err);
  REQUIRE(r.status == 0);
  auto j = r.json();
  CHECK(j["ok"] == true);
  CHECK(j["op"] == op);
  REQUIRE(j["derived"].is_object());
  return j["derived"];
}

} // namespace

TEST_CASE("stage to_trf: §11 ex 11b and §12 #1 LaneSize", "[cli-stage]") {
  // store_bmatmul_trf, bf16: Time [N, K/16], Packet [K%16] -> Lane [N], Element [K]: FPL 2,
  // 64 B per lane.
  auto d =
      require_ok(stage({"to_trf", "--axes", "N=8,K=32", "--dtype", "bf16", "--time", "N, K / 16",
                        "--packet", "K % 16", "--lane", "N", "--element", "K", "--json"}),
                 "to_trf");
  CHECK(d["flits_per_lane"] == 2);
  CHECK(d["bytes_per_lane"] == 64);
  CHECK(d["lanes"] == 8);
  CHECK(d["total_bytes"] == 8 * 64);
  CHECK(d["time_outer"] == "N"); // split(Time, FPL).outer ≡ Lane

  require_rule_failure(
      stage({"to_trf", "--axes", kFixtureAxes, "--dtype", "i8", "--time", "R, B / 32", "--packet",
             "B % 32", "--lane", "1 # 3", "--element", "R, B", "--json"}),
      "E-TRF-001", "to_trf", "LaneSize");
}

TEST_CASE("stage to_vrf: 2048 i32 fits, 4096 i32 ExceedsCapacity (§12 #8)", "[cli-stage]") {
  auto d = require_ok(
      stage({"to_vrf", "--axes", "A=2048", "--dtype", "i32", "--element", "A", "--json"}),
      "to_vrf");
  CHECK(d["bytes"] == 2048 * 4);
  CHECK(d["capacity"] == 8192);

  require_rule_failure(
      stage({"to_vrf", "--axes", "A=4096", "--dtype", "i32", "--element", "A", "--json"}),
      "E-VRF-002", "to_vrf", "ExceedsCapacity");
}

TEST_CASE("stage collect: docs/datapath.md §8 C4 pads 56 B to two flits, a 64 B Packet2 fails",
          "[cli-stage]") {
  // C4: i8 [A] / [B], B=56 -> [A, B#64/32] / [B#64%32].
  auto d = require_ok(
      stage({"collect", "--axes", "A=8,B=56", "--dtype", "i8", "--time", "A", "--packet", "B",
             "--out-time", "A, B # 64 / 32", "--out-packet", "B # 64 % 32", "--json"}),
      "collect");
  CHECK(d["packet_bytes"] == 56);
  CHECK(d["flits_per_packet"] == 2);
  CHECK(d["pad_bytes"] == 8);
  CHECK(d["flit_elements"] == 32);

  // §12 has no Collect entry: docs/datapath.md §8 "Packet2 bytes == 32" — C3's bf16 [B] (B=32, 64
  // B) declared as Packet2 unchanged.
  require_rule_failure(stage({"collect", "--axes", "A=8,B=32", "--dtype", "bf16", "--time", "A",
                              "--packet", "B", "--out-time", "A", "--out-packet", "B", "--json"}),
                       "E-COLLECT-001", "collect", "OutputNotOneFlit");
}

TEST_CASE("stage stream_adapter: §11 ex 4 and §12 #9 FlitMismatch", "[cli-stage]") {
  // M=32 N=8 K=16 L=2 B=5, bf16: stream [M, L] / [K], Lane [N], OT=[M, B], OP=[L, K]:
  // PS 2 (packed L), TB [B] = 5, LB 8.
  auto d = require_ok(stage({"stream_adapter", "--axes", "M=32,N=8,K=16,L=2,B=5", "--dtype", "bf16",
                             "--lane", "N", "--time", "M, L", "--packet", "K", "--out-time", "M, B",
                             "--out-packet", "L, K", "--json"}),
                      "stream_adapter");
  CHECK(d["pack_size"] == 2);
  CHECK(d["time_broadcast"] == "B");
  CHECK(d["time_broadcast_size"] == 5);
  CHECK(d["lane_broadcast"] == 8);
  CHECK(d["packed_time"] == "L");
  CHECK(d["out_packet_bytes"] == 64);

  // Stream [A, B/32] / [B%32] (i8), OP=[D].
  require_rule_failure(
      stage({"stream_adapter", "--axes", kFixtureAxes, "--dtype", "i8", "--lane", "R", "--time",
             "A, B / 32", "--packet", "B % 32", "--out-time", "A", "--out-packet", "D", "--json"}),
      "E-OUTER-004", "contract_outer", "FlitMismatch");
}

TEST_CASE("stage trf_sequencer: §11 ex 6 and §12 #27 TrfElementNotSequenced", "[cli-stage]") {
  // K=16 L=2 O=2 (M=4 N=8 from the unit-test axes), bf16: TRF [N] / [O, K], OT=[O, M],
  // OP=[L, K]: RS 16 (32 B, narrow), PB [L], Rows [O], loops O: 16, M: 0.
  auto d = require_ok(
      stage({"trf_sequencer", "--axes", "K=16,L=2,O=2,M=4,N=8", "--dtype", "bf16", "--lane", "N",
             "--element", "O, K", "--out-time", "O, M", "--out-packet", "L, K", "--json"}),
      "trf_sequencer");
  CHECK(d["read_size"] == 16);
  CHECK(d["read_bytes"] == 32);
  CHECK(d["read_width"] == "narrow");
  CHECK(d["wide"] == false);
  CHECK(d["packet_broadcast"] == "L");
  CHECK(d["rows"] == "O");
  CHECK(d["loops"] == "[2:16, 4:0]");

  // bf16 K=16: TRF [N] / [O, K], OT=[M], OP=[K].
  require_rule_failure(
      stage({"trf_sequencer", "--axes", "K=16,M=4,N=8,O=2", "--dtype", "bf16", "--lane", "N",
             "--element", "O, K", "--out-time", "M", "--out-packet", "K", "--json"}),
      "E-OUTER-011", "contract_outer", "TrfElementNotSequenced");
}

TEST_CASE("stage contract_outer: §11 ex 4 whole stage and §12 #12 TimeIndivisible", "[cli-stage]") {
  auto d = require_ok(stage({"contract_outer", "--axes", "M=32,N=8,K=16,L=2,B=5", "--dtype", "bf16",
                             "--lane", "N", "--time", "M, L", "--packet", "K", "--element",
                             "B, L, K", "--out-time", "M, B", "--out-packet", "L, K", "--json"}),
                      "contract_outer");
  CHECK(d["pack_size"] == 2);
  CHECK(d["time_broadcast_size"] == 5);
  CHECK(d["lane_broadcast"] == 8);
  CHECK(d["read_size"] == 32); // RS 32 (64 B, wide), PB 1, Rows [B] (loops M: 0, B: 32)
  CHECK(d["read_width"] == "wide");
  CHECK(d["rows"] == "B");
  CHECK(d["loops"] == "[32:0, 5:32]");
  CHECK(d["accumulator"] == "f32"); // bf16 × bf16 accumulates in f32 (§2.1)

  // --weight-dtype: i4 stream × i8 TRF is not an operand pair (§12 #26).
  require_rule_failure(stage({"contract_outer",
                              "--axes",
                              "M=32,N=8,K=64",
                              "--dtype",
                              "i4",
                              "--weight-dtype",
                              "i8",
                              "--lane",
                              "N",
                              "--time",
                              "M",
                              "--packet",
                              "K",
                              "--element",
                              "K",
                              "--out-time",
                              "M",
                              "--out-packet",
                              "K",
                              "--json"}),
                       "E-OUTER-001", "contract_outer", "OperandPair");

  // Stream [A] / [E] (i8), OT=[F]: 6 is not a multiple of 8.
  require_rule_failure(stage({"contract_outer", "--axes", kFixtureAxes, "--dtype", "i8", "--lane",
                              "R", "--time", "A", "--packet", "E", "--element", "E", "--out-time",
                              "F", "--out-packet", "E", "--json"}),
                       "E-OUTER-006", "contract_outer", "TimeIndivisible");
}

TEST_CASE("stage contract_packet: §11 ex 8 depth 4 and §12 #16 OutPacketTooWide", "[cli-stage]") {
  // reduce_b: bf16 OP=[B%16] summed to P2=[1]: d 4.
  auto d = require_ok(stage({"contract_packet", "--axes", "A=2048,B=32", "--dtype", "bf16",
                             "--packet", "B % 16", "--out-packet", "1", "--json"}),
                      "contract_packet");
  CHECK(d["depth"] == 4);
  CHECK(d["group"] == 16);
  CHECK(d["out_columns"] == 1);

  require_rule_failure(stage({"contract_packet", "--axes", kUnitAxes, "--dtype", "i8", "--packet",
                              "K", "--out-packet", "K", "--json"}),
                       "E-PACKET-002", "contract_packet", "OutPacketTooWide");
}

TEST_CASE("stage contract_time: §11 ex 8 inner_time 8 and §12 #18 OrderNotPreserved",
          "[cli-stage]") {
  // OT=[B/16, A%8], T2=[A%8]: B/16 outermost reduced -> IT 8.
  auto d = require_ok(stage({"contract_time", "--axes", "A=2048,B=32", "--time", "B / 16, A % 8",
                             "--out-time", "A % 8", "--json"}),
                      "contract_time");
  CHECK(d["inner_time"] == 8);
  CHECK(d["slots_needed"] == 8);

  require_rule_failure(stage({"contract_time", "--axes", kUnitAxes, "--time", "A, B", "--out-time",
                              "B, A", "--json"}),
                       "E-TIME-002", "contract_time", "OrderNotPreserved");
}

TEST_CASE("stage contract_lane: §11 ex 10 Sequential and §12 #21 OutPacketSize", "[cli-stage]") {
  // N=8 M=4 P=16: T2=[M], P2=[P], T3=[M, N, P/8] (64 flits), P3=[P%8]; 8·1·32 = 256 cells,
  // capacity 4 slots.
  auto d = require_ok(stage({"contract_lane", "--axes", "N=8,M=4,P=16", "--mode", "sequential",
                             "--lane", "N", "--time", "M", "--packet", "P", "--out-time",
                             "M, N, P / 8", "--out-packet", "P % 8", "--pre-time", "M", "--json"}),
                      "contract_lane");
  CHECK(d["mode"] == "Sequential");
  CHECK(d["inner_time"] == 1);
  CHECK(d["accumulator_cells"] == 256);
  CHECK(d["slot_capacity"] == 4);
  CHECK(d["output_flits"] == 64);

  // Interleaved, Lane [M] (4), P3=[M]: needs [M # 8].
  require_rule_failure(
      stage({"contract_lane", "--axes", kUnitAxes, "--mode", "interleaved", "--lane", "M", "--time",
             "A", "--packet", "1", "--out-time", "A, 1", "--out-packet", "M", "--json"}),
      "E-LANE-002", "contract_lane", "OutPacketSize");
}

TEST_CASE("stage: human output lists the derived table aligned", "[cli-stage]") {
  auto r = stage({"to_vrf", "--axes", "A=2048", "--dtype", "f32", "--element", "A"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "ok: to_vrf\n  bytes     8192\n  capacity  8192\n");
}

TEST_CASE("stage: a bad mapping exits 1 with a caret under its column, named by option",
          "[cli-stage]") {
  const std::vector<std::string> args = {"contract_time", "--axes",     "A=4,B=2", "--time",
                                         "A, B",          "--out-time", "A + B"};
  auto r = stage(args);
  REQUIRE(r.status == 1);
  CHECK(r.out.empty());
  // `+` is at offset 2 of "A + B": column 3, the caret two places right of the text's start.
  CHECK(r.err.find("--out-time:1:3: error[E-PARSE-") != std::string::npos);
  CHECK(r.err.find("  A + B\n    ^") != std::string::npos);

  auto with_json = args;
  with_json.push_back("--json");
  auto j = stage(with_json);
  REQUIRE(j.status == 1);
  auto doc = j.json();
  CHECK(doc["ok"] == false);
  REQUIRE(doc["diagnostics"].size() == 1);
  CHECK(doc["diagnostics"][0]["file"] == "--out-time");
  CHECK(doc["diagnostics"][0]["col"] == 3);
  CHECK(doc["diagnostics"][0]["stage"] == "parse");

  // An unknown axis in a mapping, and bad --axes text.
  auto unknown = stage({"to_vrf", "--axes", "A=8", "--dtype", "i32", "--element", "A, Q"});
  CHECK(unknown.status == 1);
  CHECK(unknown.err.find("--element:1:4:") != std::string::npos);
  auto bad_axes = stage({"to_vrf", "--axes", "A=8,B", "--dtype", "i32", "--element", "A"});
  CHECK(bad_axes.status == 1);
  CHECK(bad_axes.err.find("--axes:1:") != std::string::npos);
}

TEST_CASE("stage: usage errors exit 2 naming the option", "[cli-stage]") {
  // Missing option.
  auto missing = stage({"to_vrf", "--axes", "A=8", "--dtype", "i32"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("missing --element") != std::string::npos);
  auto no_mode = stage({"contract_lane", "--axes", "N=8,M=4,P=16", "--lane", "N", "--time", "M",
                        "--packet", "P", "--out-time", "M, P", "--out-packet", "N"});
  CHECK(no_mode.status == 2);
  CHECK(no_mode.err.find("missing --mode") != std::string::npos);
  auto no_axes = stage({"to_vrf", "--dtype", "i32", "--element", "A"});
  CHECK(no_axes.status == 2);
  CHECK(no_axes.err.find("missing --axes") != std::string::npos);

  // An option of another OP is not silently ignored.
  auto foreign = stage({"contract_time", "--axes", "A=4,B=2", "--time", "A, B", "--out-time", "A",
                        "--dtype", "bf16"});
  CHECK(foreign.status == 2);
  CHECK(foreign.err.find("--dtype is not read by contract_time") != std::string::npos);
  auto weight = stage({"stream_adapter", "--axes", "A=8", "--weight-dtype", "i8"});
  CHECK(weight.status == 2);
  CHECK(weight.err.find("--weight-dtype is not read by stream_adapter") != std::string::npos);

  // Unknown options, including abbreviations of real ones.
  auto typo = stage({"to_vrf", "--axes", "A=8", "--dtype", "i32", "--elemnt", "A"});
  CHECK(typo.status == 2);
  CHECK(typo.err.find("--elemnt") != std::string::npos);
  auto prefix = stage({"to_vrf", "--axes", "A=8", "--dtype", "i32", "--elem", "A"});
  CHECK(prefix.status == 2);

  // Unknown or missing OP, bad type and mode words.
  CHECK(stage({"to_xrf", "--axes", "A=8"}).status == 2);
  CHECK(stage({"--axes", "A=8"}).status == 2);
  auto bad_type = stage({"to_vrf", "--axes", "A=8", "--dtype", "i33", "--element", "A"});
  CHECK(bad_type.status == 2);
  CHECK(bad_type.err.find("--dtype 'i33'") != std::string::npos);
  auto bad_mode =
      stage({"contract_lane", "--axes", "N=8,M=4,P=16", "--mode", "diagonal", "--lane", "N",
             "--time", "M", "--packet", "P", "--out-time", "M, P", "--out-packet", "N"});
  CHECK(bad_mode.status == 2);
  CHECK(bad_mode.err.find("--mode 'diagonal'") != std::string::npos);

  // --help exits 0 and lists every OP.
  auto help = stage({"--help"});
  CHECK(help.status == 0);
  for (const char* op : {"to_trf", "to_vrf", "collect", "stream_adapter", "trf_sequencer",
                         "contract_outer", "contract_packet", "contract_time", "contract_lane"})
    CHECK(help.out.find(op) != std::string::npos);
}

TEST_CASE("stage: without --json a failed rule is rendered on stderr only", "[cli-stage]") {
  auto r = stage({"contract_time", "--axes", kUnitAxes, "--time", "A, B", "--out-time", "B, A"});
  CHECK(r.status == 1);
  CHECK(r.out.empty());
  CHECK(r.err.find("error[E-TIME-002]") != std::string::npos);
  CHECK(r.err.find("rule: OrderNotPreserved") != std::string::npos);
}
