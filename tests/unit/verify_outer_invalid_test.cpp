// Invalid configurations of the outer stages (docs/contraction.md §12 rows 1–15 and 26–28) and one
// failing case for every rule of to_trf, to_vrf, collect, the Stream Adapter, the TRF Sequencer,
// operand pairs and the hardware limits. Each asserts the stable code, the reference's rule name
// and the values the spec says broke the rule.
#include "ir/verify/collect.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/operand_types.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"

#include "verify_outer_support.h"

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;
using tujit::testing::verify_outer::Axes;
using tujit::testing::verify_outer::contains;
using tujit::testing::verify_outer::expect_rule;
using tujit::testing::verify_outer::why;

namespace {

// §12 fixture axes (furiosa-opt-examples negative/contract_outer_assertions.rs), type i8.
const char* kFixture = "A=8, B=64, C=128, D=64, E=32, F=6, R=8, T=5, U=3, V=2";

Result<ToTrfDerived> to_trf(const Axes& ax, ScalarType d, std::string_view time,
                            std::string_view packet, std::string_view lane,
                            std::string_view element) {
  return verify_to_trf(ToTrfInput{d, ax(time), ax(packet), ax(lane), ax(element)});
}

Result<StreamAdapterDerived> adapter(const Axes& ax, ScalarType d, std::string_view lane,
                                     std::string_view time, std::string_view packet,
                                     std::string_view ot, std::string_view op) {
  return verify_stream_adapter(
      StreamAdapterInput{d, ax(lane), ax(time), ax(packet), ax(ot), ax(op)});
}

Result<ContractOuterDerived> outer(const Axes& ax, ScalarType d, ScalarType dw,
                                   std::string_view time, std::string_view packet,
                                   std::string_view lane, std::string_view element,
                                   std::string_view ot, std::string_view op) {
  ContractOuterInput in;
  in.stream_dtype = d;
  in.weight_dtype = dw;
  in.time = ax(time);
  in.packet = ax(packet);
  in.lane = ax(lane);
  in.element = ax(element);
  in.out_time = ax(ot);
  in.out_packet = ax(op);
  return verify_contract_outer(in);
}

} // namespace

// ---- to_trf ------------------------------------------------------------------------------

TEST_CASE("§12.1–2 to_trf LaneSize(3), LaneSize(16)", "[verify-outer]") {
  Axes ax(kFixture);
  auto r3 = to_trf(ax, ScalarType::I8, "R, B / 32", "B % 32", "1 # 3", "R, B");
  Diagnostic d = expect_rule(r3, "E-TRF-001", "LaneSize");
  CHECK(d.stage == "to_trf");
  CHECK(contains(d.message, "3 lanes"));
  auto r16 = to_trf(ax, ScalarType::I8, "R, B / 32", "B % 32", "1 # 16", "R, B");
  d = expect_rule(r16, "E-TRF-001", "LaneSize");
  CHECK(contains(d.message, "16 lanes"));
}

TEST_CASE("§12.3 to_trf ExceedsCapacity{524288, 8, 65536, 65536}", "[verify-outer]") {
  Axes ax(kFixture);
  auto r = to_trf(ax, ScalarType::I8, "A, B / 32", "B % 32", "A", "A, B, C");
  Diagnostic d = expect_rule(r, "E-TRF-002", "ExceedsCapacity");
  CHECK(std::find(d.notes.begin(), d.notes.end(),
                  "total_bytes = 524288, lanes = 8, per_lane_bytes = 65536, capacity = 65536") !=
        d.notes.end());
}

TEST_CASE("to_trf at exactly 64 KiB passes, one byte-row more fails", "[verify-outer]") {
  Axes ax("N=8, K=4096, P=32, X=2");
  // 8 lanes × 4096 i8 = 32 KiB: fits a half.
  auto half = to_trf(ax, ScalarType::I8, "N, K / 32", "K % 32", "N", "K");
  REQUIRE(half.ok());
  CHECK(half->fits_half);
  auto full = to_trf(ax, ScalarType::I8, "N, X, K / 32", "K % 32", "N", "X, K");
  REQUIRE(full.ok());
  CHECK(full->total_bytes == 65536);
  CHECK_FALSE(full->fits_half);
  auto over = to_trf(ax, ScalarType::I8, "N, X, K / 32, 1 # 2", "K % 32", "N", "1 # 2, X, K");
  expect_rule(over, "E-TRF-002", "ExceedsCapacity");
}

TEST_CASE("§12.4–5 to_trf LaneDoesNotDivideTime{4, 6}, {4, 2}", "[verify-outer]") {
  Axes ax(kFixture);
  auto r6 = to_trf(ax, ScalarType::I8, "F", "E", "R / 2", "E");
  Diagnostic d = expect_rule(r6, "E-TRF-003", "LaneDoesNotDivideTime");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "lane = 4, time = 6") != d.notes.end());
  auto r2 = to_trf(ax, ScalarType::I8, "A / 4", "E", "R / 2", "E");
  d = expect_rule(r2, "E-TRF-003", "LaneDoesNotDivideTime");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "lane = 4, time = 2") != d.notes.end());
}

TEST_CASE("§12.6 to_trf LaneMismatch{[A], [E/4]}", "[verify-outer]") {
  Axes ax(kFixture);
  auto r = to_trf(ax, ScalarType::I8, "A, B / 32", "B % 32", "E / 4", "B");
  Diagnostic d = expect_rule(r, "E-TRF-004", "LaneMismatch");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "time_outer = m![A], lane = m![E / 4]") !=
        d.notes.end());
}

TEST_CASE("§12.7 to_trf ElementMismatch{[B], [A, C]}", "[verify-outer]") {
  Axes ax(kFixture);
  auto r = to_trf(ax, ScalarType::I8, "R, B / 32", "B % 32", "R", "A, C");
  Diagnostic d = expect_rule(r, "E-TRF-005", "ElementMismatch");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "expected = m![B], got = m![A, C]") !=
        d.notes.end());
}

TEST_CASE("to_trf reads a collected stream: PacketNotOneFlit", "[verify-outer]") {
  Axes ax(kFixture);
  auto r = to_trf(ax, ScalarType::BF16, "R", "B", "R", "B"); // 64 bf16 = 128 B
  expect_rule(r, "E-TRF-006", "PacketNotOneFlit");
}

// ---- to_vrf ------------------------------------------------------------------------------

TEST_CASE("§12.8 to_vrf ExceedsCapacity{16384, 8192}, ElementType", "[verify-outer]") {
  Axes ax("A=4096, B=2048");
  Diagnostic d = expect_rule(verify_to_vrf(ToVrfInput{ScalarType::I32, ax("A")}), "E-VRF-002",
                             "ExceedsCapacity");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "bytes = 16384, capacity = 8192") !=
        d.notes.end());
  d = expect_rule(verify_to_vrf(ToVrfInput{ScalarType::BF16, ax("B")}), "E-VRF-001", "ElementType");
  CHECK(d.stage == "to_vrf");
  expect_rule(verify_to_vrf(ToVrfInput{ScalarType::I9, ax("B")}), "E-VRF-001", "ElementType");
}

// ---- collect -----------------------------------------------------------------------------

TEST_CASE("collect rules: OutputNotOneFlit, PacketMismatch, TimeMismatch, alignment",
          "[verify-outer]") {
  Axes ax("A=4, B=56, C=32, X=3");
  auto collect = [&](ScalarType d, std::string_view t, std::string_view p, std::string_view t2,
                     std::string_view p2) {
    return verify_collect(CollectInput{d, ax(t), ax(p), ax(t2), ax(p2)});
  };
  expect_rule(collect(ScalarType::I8, "A", "B", "A, B # 64 / 32", "B # 64"), "E-COLLECT-001",
              "OutputNotOneFlit");
  // The outer flit is not the innermost 32 elements.
  expect_rule(collect(ScalarType::I8, "A", "B", "A, B # 64 % 2", "B # 64 / 2"), "E-COLLECT-002",
              "PacketMismatch");
  // The new flit digit must go innermost in Time.
  Diagnostic d = expect_rule(collect(ScalarType::I8, "A", "B", "B # 64 / 32, A", "B # 64 % 32"),
                             "E-COLLECT-003", "TimeMismatch");
  CHECK(contains(d.message, "m![B # 64 / 32, A]"));
  // 3 bf16 = 6 B: not a whole 8 B word.
  expect_rule(collect(ScalarType::BF16, "A", "X", "A", "X # 16"), "E-COLLECT-004",
              "InputPacketNotAligned");
}

// ---- Stream Adapter ----------------------------------------------------------------------

TEST_CASE("§12.9–11 FlitMismatch and PackedCellsMismatch(2)", "[verify-outer]") {
  Axes ax(kFixture);
  expect_rule(adapter(ax, ScalarType::I8, "R", "A, B / 32", "B % 32", "A", "D"), "E-OUTER-004",
              "FlitMismatch");
  Diagnostic d =
      expect_rule(adapter(ax, ScalarType::I8, "R", "A, B / 32", "B % 32", "A", "A / 4, B % 32"),
                  "E-OUTER-005", "PackedCellsMismatch");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "pack size = 2") != d.notes.end());
  d = expect_rule(adapter(ax, ScalarType::I8, "R", "A, B / 32", "B % 32", "A", "B % 32, A / 4"),
                  "E-OUTER-004", "FlitMismatch");
  // The inner 32 cells of [B%32, A/4] are [B%16, A/4].
  CHECK(contains(d.message, "m![B % 16, A / 4]"));
}

TEST_CASE("§12.12 TimeIndivisible (6 not a multiple of 8)", "[verify-outer]") {
  Axes ax(kFixture);
  Diagnostic d = expect_rule(adapter(ax, ScalarType::I8, "R", "A", "E", "F", "E"), "E-OUTER-006",
                             "TimeIndivisible");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "|OutTime| = 6, |Time / PackSize| = 8") !=
        d.notes.end());
}

TEST_CASE("§12.13–14 OutTimeMismatch: reordered, broadcast not innermost", "[verify-outer]") {
  Axes ax(kFixture);
  Diagnostic d = expect_rule(adapter(ax, ScalarType::I8, "R", "A, V", "E", "V, A, T", "E"),
                             "E-OUTER-007", "OutTimeMismatch");
  CHECK(contains(d.message, "m![V, A]"));
  CHECK(contains(d.message, "m![A, V]"));
  expect_rule(adapter(ax, ScalarType::I8, "R", "A", "E", "T, A", "E"), "E-OUTER-007",
              "OutTimeMismatch");
}

TEST_CASE("§12.15 OutPacketFlits(16), LaneSize", "[verify-outer]") {
  Axes ax("K=64, M=4, N=8");
  Diagnostic d =
      expect_rule(adapter(ax, ScalarType::BF16, "N", "M, K / 16", "K % 16", "M", "K % 8"),
                  "E-OUTER-003", "OutPacketFlits");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "out packet bytes = 16") != d.notes.end());
  // Three flits is too many as well.
  expect_rule(adapter(ax, ScalarType::I8, "N", "M", "K % 32", "M", "K # 96"), "E-OUTER-003",
              "OutPacketFlits");
  expect_rule(adapter(ax, ScalarType::BF16, "N # 12", "M, K / 16", "K % 16", "M", "K % 16"),
              "E-OUTER-002", "LaneSize");
}

TEST_CASE("Stream Adapter: PackSize 2 over an odd Time ([MODEL] PackedCellsMismatch)",
          "[verify-outer]") {
  Axes ax("K=16, M=5, N=8");
  expect_rule(adapter(ax, ScalarType::BF16, "N", "M", "K", "M", "1 # 2, K"), "E-OUTER-005",
              "PackedCellsMismatch");
}

TEST_CASE("Stream Adapter [PROP] LaneAxisReused", "[verify-outer]") {
  Axes ax("K=32, N=8, M=4");
  Diagnostic d =
      expect_rule(adapter(ax, ScalarType::BF16, "N", "N, K / 16", "K % 16", "N, K / 16", "K % 16"),
                  "E-OUTER-008", "LaneAxisReused");
  CHECK(contains(d.message, "Time"));
  // A lane digit disjoint from the stream's digits of the same axis is fine.
  auto fine = adapter(ax, ScalarType::I8, "N % 4", "M, N / 4", "K", "M, N / 4", "K");
  INFO(why(fine));
  CHECK(fine.ok());
}

// ---- operand pairs -----------------------------------------------------------------------

TEST_CASE("§12.26 OperandPair: i4 × i8, bf16 × f8e4m3, f32 stream", "[verify-outer]") {
  Axes ax("M=4, N=8, K=16");
  Diagnostic d = expect_rule(verify_operand_types({ScalarType::I4, ScalarType::I8}), "E-OUTER-001",
                             "OperandPair");
  CHECK(d.stage == "contract_outer");
  expect_rule(verify_operand_types({ScalarType::BF16, ScalarType::F8E4M3}), "E-OUTER-001",
              "OperandPair");
  expect_rule(verify_operand_types({ScalarType::F32, ScalarType::F32}), "E-OUTER-001",
              "OperandPair");
  expect_rule(verify_operand_types({ScalarType::I8, ScalarType::BF16}), "E-OUTER-001",
              "OperandPair");
  // The whole stage checks types first.
  expect_rule(outer(ax, ScalarType::F32, ScalarType::F32, "M", "1 # 8", "N", "K", "M", "1 # 8"),
              "E-OUTER-001", "OperandPair");
}

// ---- TRF Sequencer (S1–S7) ----------------------------------------------------------------

TEST_CASE("§12.27 TrfElementNotSequenced (S2)", "[verify-outer]") {
  Axes ax("M=4, N=8, O=2, K=16");
  Diagnostic d =
      expect_rule(outer(ax, ScalarType::BF16, ScalarType::BF16, "M", "K", "N", "O, K", "M", "K"),
                  "E-OUTER-011", "TrfElementNotSequenced");
  CHECK(contains(d.message, "m![O, K]"));
}

TEST_CASE("§12.28 TrfPacketBroadcastDependsOnTrf (S1)", "[verify-outer]") {
  Axes ax("M=4, N=8, X=2, O=2, K=16");
  Diagnostic d = expect_rule(
      outer(ax, ScalarType::BF16, ScalarType::BF16, "M, X, O", "K", "N", "O, X, K", "M, X", "O, K"),
      "E-OUTER-010", "TrfPacketBroadcastDependsOnTrf");
  CHECK(std::find(d.notes.begin(), d.notes.end(), "read size = 16, packet broadcast = m![O]") !=
        d.notes.end());
}

TEST_CASE("S3 TrfElementRepeated, S4 TrfBroadcastOverlap", "[verify-outer]") {
  Axes ax("M=4, N=8, O=2, K=16");
  expect_rule(outer(ax, ScalarType::BF16, ScalarType::BF16, "M", "K", "N", "O, K", "M, O, O", "K"),
              "E-OUTER-012", "TrfElementRepeated");
  // OT broadcasts over a digit of the lane axis.
  expect_rule(
      outer(ax, ScalarType::BF16, ScalarType::BF16, "M", "K", "N % 4", "K", "M, N / 4", "K"),
      "E-OUTER-013", "TrfBroadcastOverlap");
  // OT walks all of K while the TRF holds only K / 2: K % 2 would be a broadcast of a TRF axis.
  Axes ax2("V=2, K=64, N=8");
  Diagnostic d = expect_rule(outer(ax2, ScalarType::BF16, ScalarType::BF16, "V, K", "1 # 16", "N",
                                   "K / 2", "V, K", "1 # 16"),
                             "E-OUTER-013", "TrfBroadcastOverlap");
  CHECK(contains(d.message, "K % 2"));
}

TEST_CASE("Stream Adapter [PROP] TimeBroadcastInStream", "[verify-outer]") {
  Axes ax("M=4, N=8, K=16, B=3");
  // OT walks the stream's own packet axis as a broadcast.
  expect_rule(adapter(ax, ScalarType::BF16, "N", "M", "K", "M, K / 4", "K"), "E-OUTER-009",
              "TimeBroadcastInStream");
  // Or walks the time axis twice.
  expect_rule(adapter(ax, ScalarType::BF16, "N", "M", "K", "M, M", "K"), "E-OUTER-009",
              "TimeBroadcastInStream");
  // Or a digit of a time axis the stream holds partly.
  expect_rule(adapter(ax, ScalarType::BF16, "N", "M / 2", "K", "M, B", "K"), "E-OUTER-009",
              "TimeBroadcastInStream");
  auto ok = adapter(ax, ScalarType::BF16, "N", "M", "K", "M, B", "K");
  INFO(why(ok));
  CHECK(ok.ok());
}

TEST_CASE("S5 TrfSequencerTooManyLoops: 10 loops that do not merge", "[verify-outer]") {
  Axes ax("S=2, P=32, X1=2, X2=2, X3=2, X4=2, X5=2, X6=2, X7=2, X8=2, X9=2");
  const char* e = "X9, X8, X7, X6, X5, X4, X3, X2, X1, P";
  // Walking the rows in the Element's own order merges into one loop: accepted.
  auto ok = outer(ax, ScalarType::I8, ScalarType::I8, "S", "P", "1", e,
                  "S, X9, X8, X7, X6, X5, "
                  "X4, X3, X2, X1",
                  "P");
  INFO(why(ok));
  REQUIRE(ok.ok());
  CHECK(ok->trf_sequencer.merged_loops == std::vector<TrfLoopEntry>{{2, 0}, {512, 32}});
  // Walking them transposed needs one entry per digit.
  Diagnostic d = expect_rule(outer(ax, ScalarType::I8, ScalarType::I8, "S", "P", "1", e,
                                   "S, X1, X2, X3, X4, X5, X6, X7, X8, X9", "P"),
                             "E-OUTER-014", "TrfSequencerTooManyLoops");
  CHECK(contains(d.message, "10 loop entries"));
}

TEST_CASE("S6 TrfMisaligned on loop configurations", "[verify-outer]") {
  // Wide bf16 read (32 elements = 64 B): strides must be multiples of 64 B.
  CHECK_FALSE(check_trf_alignment(ScalarType::BF16, 32, {{4, 32}, {8, 0}}).has_value());
  auto d = check_trf_alignment(ScalarType::BF16, 32, {{4, 16}});
  REQUIRE(d.has_value());
  CHECK(d->code == "E-OUTER-015");
  CHECK(d->notes.front() == "rule: TrfMisaligned");
  // Narrow i8 read of 16 elements: strides must be multiples of the read.
  CHECK_FALSE(check_trf_alignment(ScalarType::I8, 16, {{2, 48}}).has_value());
  CHECK(check_trf_alignment(ScalarType::I8, 16, {{2, 40}}).has_value());
  CHECK(check_trf_alignment(ScalarType::I8, 0, {{2, 40}}).has_value());
}

TEST_CASE("S5 merging reproduces docs/datapath.md S6 (nine raw entries → six)", "[verify-outer]") {
  const std::vector<TrfLoopEntry> raw = {{2, 16},   {2, 32},   {4, 64}, {4, 512}, {2, 256},
                                         {4, 4096}, {2, 2048}, {2, 8},  {8, 1}};
  CHECK(merge_loops(raw) ==
        std::vector<TrfLoopEntry>{{2, 16}, {2, 32}, {4, 64}, {8, 256}, {8, 2048}, {16, 1}});
  // Stride-0 neighbours are one broadcast loop.
  CHECK(merge_loops({{3, 0}, {5, 0}, {2, 7}}) == std::vector<TrfLoopEntry>{{15, 0}, {2, 7}});
}

TEST_CASE("S7 TrfSpatialMismatch, [MODEL] padding of a walked group", "[verify-outer]") {
  Axes ax("M=2, X=3, N=8, K=16, S=256, Z=256");
  TrfSequencerInput in{ScalarType::BF16, ax("N"),      ax("K"),     ax("M"),
                       ax("K"),          std::nullopt, std::nullopt};
  REQUIRE(verify_trf_sequencer(in).ok());
  in.trf_spatial = SpatialInput{ax("1"), ax("1"), ax("S")};
  in.stream_spatial = SpatialInput{ax("1"), ax("1"), ax("S")};
  REQUIRE(verify_trf_sequencer(in).ok());
  in.stream_spatial = SpatialInput{ax("1"), ax("1"), ax("Z")};
  Diagnostic d = expect_rule(verify_trf_sequencer(in), "E-OUTER-016", "TrfSpatialMismatch");
  CHECK(d.stage == "contract_outer");

  // A stride-0 group may be padded as a whole; a group holding a walked TRF digit may not.
  auto bcast = outer(ax, ScalarType::BF16, ScalarType::BF16, "[M, X] # 10", "K", "N", "K",
                     "[M, X] # 10", "K");
  INFO(why(bcast));
  REQUIRE(bcast.ok());
  CHECK(bcast->trf_sequencer.loops == std::vector<TrfLoopEntry>{{10, 0}});
  expect_rule(outer(ax, ScalarType::BF16, ScalarType::BF16, "[M, X] # 10", "K", "N", "X, K",
                    "[M, X] # 10", "K"),
              "E-OUTER-017", "TrfOutTimePaddingNotSequenceable");
}

// ---- hardware limits -----------------------------------------------------------------------

TEST_CASE("hardware limits: Cluster, Slice, DM capacity, packet sizes", "[verify-outer]") {
  Axes ax("C=3, S=256, T=32, E=32, X=3, Y=2");
  auto d = check_spatial(SpatialInput{ax("1"), ax("C"), ax("S")});
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-001");
  CHECK(d->notes.front() == "rule: ClusterSize");
  CHECK(d->stage == "hardware");
  d = check_spatial(SpatialInput{ax("1"), ax("1 # 2"), ax("T")});
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-002");
  d = check_spatial(SpatialInput{ax("1"), ax("1"), ax("S, Y")});
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-002");
  d = check_dm_capacity(ScalarType::F32, ax("S, E, E, Y, 1 # 2")); // 1 MiB
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-003");
  d = check_packet_one_flit(ScalarType::BF16, ax("E"));
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-004");
  d = check_packet_aligned(ScalarType::I8, ax("X"));
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-005");
  d = check_packet_one_or_two_flits(ScalarType::I8, ax("E, X"));
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-006");
  d = check_whole_bytes(ScalarType::I4, ax("X"), "Packet");
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-007");
  d = check_same_spatial(SpatialInput{ax("1"), ax("1"), ax("S")},
                         SpatialInput{ax("1"), ax("1 # 2"), ax("S")}, "lhs", "rhs");
  REQUIRE(d.has_value());
  CHECK(d->code == "E-HW-008");
}
