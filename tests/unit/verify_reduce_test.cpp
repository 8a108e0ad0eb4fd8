// Packet Reducer, Time Reducer and Lane Folder verifiers on bare mappings: the worked examples of
// docs/contraction.md §11, the invalid configurations of §12 rows 16-24, docs/mapping.md §9 vectors
// 56 and 57, and one passing and one failing case per rule.
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"

#include "tests/unit/verify_reduce_support.h"

#include <catch2/catch.hpp>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;
using tujit::testing::verify_reduce::Axes;
using tujit::testing::verify_reduce::contains;
using tujit::testing::verify_reduce::expect_rule;
using tujit::testing::verify_reduce::why;

namespace {

Result<ContractPacketDerived> packet(const Axes& ax, ScalarType t, const char* op, const char* p2) {
  return verify_contract_packet(ContractPacketInput{t, ax(op), ax(p2)});
}

Result<ContractTimeDerived> time_(const Axes& ax, const char* ot, const char* t2) {
  return verify_contract_time(ContractTimeInput{ax(ot), ax(t2)});
}

Result<ContractLaneDerived> lane(const Axes& ax, LaneMode mode, const char* l, const char* t2,
                                 const char* p2, const char* t3, const char* p3, const char* pre) {
  return verify_contract_lane(
      ContractLaneInput{mode, ax(l), ax(t2), ax(p2), ax(t3), ax(p3), ax(pre)});
}

struct PacketCase {
  const char* name;
  const char* axes;
  ScalarType dtype;
  const char* op;
  const char* p2;
  std::uint32_t depth;
  std::uint32_t tree_latency;
};

struct TimeCase {
  const char* name;
  const char* axes;
  const char* ot;
  const char* t2;
  std::uint64_t inner_time;
};

struct LaneCase {
  const char* name;
  const char* axes;
  LaneMode mode;
  const char* lane;
  const char* t2;
  const char* p2;
  const char* t3;
  const char* p3;
  const char* pre;
  std::uint64_t inner_time;
  std::uint64_t cells;     // accumulator cells used (§11 "buffer cells")
  std::uint64_t capacity;  // slot capacity (§11 "slots"); 0 = not stated
  std::uint64_t out_flits; // |T3|; 0 = not stated
};

} // namespace

// ---- docs/contraction.md §11: depth d, P2
// --------------------------------------------------------

TEST_CASE("contract_packet reproduces the depths of the worked examples", "[verify-reduce]") {
  const auto bf16 = ScalarType::BF16;
  const PacketCase cases[] = {
      {"1 K in Time", "V=32,K=32", bf16, "1 # 16", "1", 0, 5},
      {"2 M in Time", "M=32,K=32", bf16, "K", "1", 5, 5},
      {"7 packet-reducer matmul", "A=32,B=32", bf16, "B", "1", 5, 5},
      {"8 reduce_b", "A=2048,B=32", bf16, "B % 16", "1", 4, 5},
      {"9 lane interleaved", "M=4,P=16", bf16, "P", "P", 0, 5},
      {"12 GEMM", "K=64", bf16, "K % 32", "1", 5, 5},
      {"13 lm_head", "H=1024", bf16, "H % 32", "1", 5, 5},
      {"14 attention weighted sum", "T=64", bf16, "T % 16", "1", 4, 5},
      {"15 proj_o", "Q=2048", bf16, "Q % 32", "1", 5, 5},
      {"16 i4", "K4=64", ScalarType::I4, "K4", "1", 6, 7},
      {"16 i9 zero point", "K8=32", ScalarType::I9, "K8", "1", 5, 6},
      {"17 time broadcast from TRF", "E=32", ScalarType::I8, "E", "1", 5, 6},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      Axes ax(c.axes);
      auto r = packet(ax, c.dtype, c.op, c.p2);
      INFO(why(r));
      REQUIRE(r.ok());
      CHECK(r->depth == c.depth);
      CHECK(r->group == (std::uint64_t{1} << c.depth));
      CHECK(r->tree_latency == c.tree_latency);
      CHECK(r->out_columns == ax(c.p2).size());
      // RP = split(OP, 2^d).outer, and strip(RP) ≡ strip(P2).
      auto s = split_at(factorize(ax(c.op)), r->group);
      REQUIRE(s.ok());
      CHECK(r->reduce_packet == s->outer);
      CHECK(remove_padding(r->reduce_packet) == remove_padding(factorize(ax(c.p2))));
      auto t = r->to_table();
      CHECK(std::get<std::uint64_t>(t.at("depth")) == c.depth);
      CHECK(std::get<std::uint64_t>(t.at("tree_latency")) == c.tree_latency);
      CHECK(t.count("reduce_packet") == 1);
      CHECK(t.count("live_columns") == 1);
    }
  }
}

TEST_CASE("contract_packet: padding columns and the smallest depth", "[verify-reduce]") {
  Axes ax("K=12,P=16");
  SECTION("[MODEL] OP = [1 # 16], P2 = [1]: depth 0, one live column") {
    auto r = packet(ax, ScalarType::BF16, "1 # 16", "1");
    REQUIRE(r.ok());
    CHECK(r->depth == 0);
    CHECK(r->live_columns == 1);
  }
  SECTION("declared outer padding on P2 is accepted (strip on both sides)") {
    // OP = [K # 16] (bf16, 32 B), d = 2: RP = [K / 4 # 4] (3 live columns); P2 = [K / 4 # 4]
    // and P2 = [K / 4 # 8] both strip to [K / 4].
    auto r = packet(ax, ScalarType::BF16, "K # 16", "K / 4 # 4");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->depth == 2);
    CHECK(r->live_columns == 3);
    auto r8 = packet(ax, ScalarType::BF16, "K # 16", "K / 4 # 8");
    INFO(why(r8));
    REQUIRE(r8.ok());
    CHECK(r8->depth == 2);
    CHECK(r8->out_columns == 8);
  }
  SECTION("d = log2|OP| sums the whole packet") {
    auto r = packet(ax, ScalarType::BF16, "P", "1");
    REQUIRE(r.ok());
    CHECK(r->depth == 4);
    CHECK(r->live_columns == 1);
  }
}

// ---- docs/contraction.md §11: T2 and InnerTime -------------------------------------------------

TEST_CASE("contract_time reproduces InnerTime of the worked examples", "[verify-reduce]") {
  const TimeCase cases[] = {
      {"1 K in Time: K reduced innermost", "V=32,K=32", "V / 16, K", "V / 16", 1},
      {"2 M in Time: nothing reduced", "M=32", "M", "M", 1},
      {"7 matmul", "A=32", "A", "A", 1},
      {"8 reduce_b: B/16 outermost reduced", "A=2048,B=32", "B / 16, A % 8", "A % 8", 8},
      {"12 GEMM: K/32 innermost reduced", "I=512,J=512,K=64", "I % 32, J / 8 % 4, K / 32",
       "I % 32, J / 8 % 4", 1},
      {"13 lm_head: H/32 outermost", "H=1024,Wp=16", "H / 32, Wp / 8 % 2", "Wp / 8 % 2", 2},
      {"13 mlp up", "H=1024,L=24", "H / 32, L / 8 % 3", "L / 8 % 3", 3},
      {"14 attention: no reduction", "G=4,D=128", "G, D / 8", "G, D / 8", 1},
      {"15 proj_o", "Q=2048,H=16", "Q / 32, H % 4", "H % 4", 4},
      {"17 time broadcast from TRF", "A=8,V=2,T=5", "A, V, T", "A, V, T", 1},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      Axes ax(c.axes);
      auto r = time_(ax, c.ot, c.t2);
      INFO(why(r));
      REQUIRE(r.ok());
      CHECK(r->inner_time == c.inner_time);
      CHECK(r->slots_needed == c.inner_time);
      auto t = r->to_table();
      CHECK(std::get<std::uint64_t>(t.at("inner_time")) == c.inner_time);
      CHECK(std::get<std::uint64_t>(t.at("slots_needed")) == c.inner_time);
      // The helper the Lane Folder uses agrees.
      auto it = inner_time_of(ax(c.ot), ax(c.t2));
      REQUIRE(it.ok());
      CHECK(*it == c.inner_time);
    }
  }
}

TEST_CASE("contract_time reports retained and reduced factors", "[verify-reduce]") {
  Axes ax("A=2048,B=32");
  // Example 8: B/16 (2 values, the outermost factor) is reduced, A%8 retained.
  auto r = time_(ax, "B / 16, A % 8", "A % 8");
  INFO(why(r));
  REQUIRE(r.ok());
  REQUIRE(r->terms.size() == 1);
  CHECK(r->terms[0].dividend_stride == 1);
  CHECK(r->terms[0].divisor_stride == 1);
  CHECK(r->terms[0].resize == 8);
  REQUIRE(r->reduced.size() == 1);
  CHECK(r->reduced[0].count == 2);
  CHECK(r->reduced[0].stride == 8);
  CHECK(r->reduced[0].idents == std::vector<std::string>{"B"});
}

// ---- docs/mapping.md §9 vectors 56 and 57
// ----------------------------------------------------------

TEST_CASE("docs/mapping.md #56: contract_time on [A, B]", "[verify-reduce]") {
  Axes ax("A=4,B=2");
  for (const char* t2 : {"A, B", "A", "B"}) {
    INFO(t2);
    auto r = time_(ax, "A, B", t2);
    INFO(why(r));
    CHECK(r.ok());
  }
  CHECK(time_(ax, "A, B", "A, B")->inner_time == 1);
  CHECK(time_(ax, "A, B", "A")->inner_time == 1); // B reduced innermost
  CHECK(time_(ax, "A, B", "B")->inner_time == 2); // A reduced outermost: |T2|
  auto bad = time_(ax, "A, B", "B, A");
  auto d = expect_rule(bad, "E-TIME-002", "OrderNotPreserved");
  CHECK(contains(d.message, "m![B, A]"));
  CHECK(contains(d.message, "m![A, B]"));
}

TEST_CASE("docs/mapping.md #57: contract_time and the InnerTime of contract_lane",
          "[verify-reduce]") {
  Axes ax("L1=192,Bat=4096,W=12,N=8");
  const char* pre = "L1 # 256 / 32 % 4, Bat / 32 % 2, Bat / 64 % 2, W % 6, W / 6, L1 # 256 / 8 % 4";
  const char* t2 = "L1 # 256 / 32 % 4, Bat / 32 % 2, Bat / 64 % 2, L1 # 256 / 8 % 4";
  auto r = time_(ax, pre, t2);
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->inner_time == 4);
  auto l = lane(ax, LaneMode::Interleaved, "N", t2, "1", t2, "N", pre);
  INFO(why(l));
  REQUIRE(l.ok());
  CHECK(l->inner_time == 4);
  CHECK(l->accumulator_cells == 8 * 4 * 1);
}

// ---- docs/contraction.md §11: mode, T3/P3, buffer cells, slot capacity --------------------------

TEST_CASE("contract_lane reproduces the folds of the worked examples", "[verify-reduce]") {
  const auto I = LaneMode::Interleaved;
  const auto S = LaneMode::Sequential;
  const LaneCase cases[] = {
      {"1 K in Time", "V=32,K=32,N=8", I, "N", "V / 16", "1", "V / 16", "N", "V / 16, K", 1, 8, 128,
       2},
      {"2 M in Time", "M=32,K=32,N=8", I, "N", "M", "1", "M", "N", "M", 1, 8, 128, 32},
      {"3 V in Time", "V=32,N=8", I, "N", "V", "1", "V", "N", "V", 1, 8, 128, 32},
      {"7 matmul", "A=32,C=8", I, "C", "A", "1", "A", "C", "A", 1, 8, 128, 0},
      {"8 reduce_b (Sequential)", "A=2048,B=32", S, "1", "A % 8", "1", "A % 8", "1 # 8",
       "B / 16, A % 8", 8, 256, 32, 8},
      {"9 lane interleaved", "N=8,M=4,P=16", I, "N", "M", "P", "M, P", "N", "M", 1, 128, 8, 64},
      {"10 lane sequential", "N=8,M=4,P=16", S, "N", "M", "P", "M, N, P / 8", "P % 8", "M", 1, 256,
       4, 64},
      {"12 GEMM", "I=512,J=512,K=64", I, "J % 8", "I % 32, J / 8 % 4", "1", "I % 32, J / 8 % 4",
       "J % 8", "I % 32, J / 8 % 4, K / 32", 1, 8, 128, 128},
      {"13 lm_head", "H=1024,Wp=16", I, "Wp % 8", "Wp / 8 % 2", "1", "Wp / 8 % 2", "Wp % 8",
       "H / 32, Wp / 8 % 2", 2, 16, 128, 2},
      {"14 attention", "G=4,D=128", I, "D % 8", "G, D / 8", "1", "G, D / 8", "D % 8", "G, D / 8", 1,
       8, 128, 64},
      {"15 proj_o (4 lanes)", "Q=2048,H=16", I, "H / 4 % 4", "H % 4", "1", "H % 4", "H / 4 % 4 # 8",
       "Q / 32, H % 4", 4, 32, 128, 4},
      {"17 time broadcast", "A=8,V=2,T=5,R=8", I, "R", "A, V, T", "1", "A, V, T", "R # 8",
       "A, V, T", 1, 8, 128, 80},
  };
  for (const auto& c : cases) {
    SECTION(c.name) {
      Axes ax(c.axes);
      auto r = lane(ax, c.mode, c.lane, c.t2, c.p2, c.t3, c.p3, c.pre);
      INFO(why(r));
      REQUIRE(r.ok());
      CHECK(r->mode == c.mode);
      CHECK(r->inner_time == c.inner_time);
      CHECK(r->accumulator_cells == c.cells);
      if (c.capacity != 0) CHECK(r->slot_capacity == c.capacity);
      if (c.out_flits != 0) CHECK(r->output_flits == c.out_flits);
      auto t = r->to_table();
      CHECK(std::get<std::string>(t.at("mode")) == std::string(to_string(c.mode)));
      CHECK(std::get<std::uint64_t>(t.at("slot_capacity")) == r->slot_capacity);
      CHECK(std::get<std::uint64_t>(t.at("inner_time")) == c.inner_time);
      CHECK(std::get<std::uint64_t>(t.at("accumulator_cells")) == c.cells);
      // §10: drain = InnerTime * (|P2| Interleaved, |Lane| * ceil(|P2| / 8) Sequential).
      const std::uint64_t p2 = ax(c.p2).size(), lanes = ax(c.lane).size();
      const std::uint64_t per_slot = c.mode == LaneMode::Interleaved ? p2 : lanes * ((p2 + 7) / 8);
      CHECK(r->flits_per_slot == per_slot);
      CHECK(r->drain_flits == c.inner_time * per_slot);
    }
  }
}

TEST_CASE("contract_lane slot capacity formulas", "[verify-reduce]") {
  // docs/contraction.md §7: Interleaved 128/|P2|, Sequential 32/|Lane|.
  Axes ax("M=4,P=16,Q=32,L2=2,L4=4,N=8");
  auto i16 = lane(ax, LaneMode::Interleaved, "L2", "M", "P", "M, P", "L2 # 8", "M");
  REQUIRE(i16.ok());
  CHECK(i16->slot_capacity == 128 / 16);
  CHECK(i16->padded_lane == 8);
  auto i32 = lane(ax, LaneMode::Interleaved, "N", "M", "Q", "M, Q", "N", "M");
  REQUIRE(i32.ok());
  CHECK(i32->slot_capacity == 128 / 32);
  for (auto [l, n] : {std::pair{"L2", 2}, std::pair{"L4", 4}, std::pair{"N", 8}}) {
    std::string t3 = std::string("M, ") + l + ", P / 8";
    auto s = verify_contract_lane(ContractLaneInput{LaneMode::Sequential, ax(l), ax("M"), ax("P"),
                                                    ax(t3), ax("P % 8"), ax("M")});
    INFO(why(s));
    REQUIRE(s.ok());
    CHECK(s->slot_capacity == static_cast<std::uint64_t>(32 / n));
    CHECK(s->padded_packet == 32);
    CHECK(s->flits_per_slot == static_cast<std::uint64_t>(n) * 2);
  }
}

// ---- docs/contraction.md §12 rows 16-24
// -----------------------------------------------------------

TEST_CASE("§12 row 16-17: Packet Reducer rejections", "[verify-reduce]") {
  Axes ax("A=4,B=2,C=4,D=32,K=64,M=4,N=8,O=2,P=16");
  auto r16 = packet(ax, ScalarType::I8, "K", "K");
  auto d16 = expect_rule(r16, "E-PACKET-002", "OutPacketTooWide");
  CHECK(contains(d16.message, "64 columns"));
  CHECK(contains(d16.message, "m![K]"));
  auto r17 = packet(ax, ScalarType::I8, "K", "K % 4");
  auto d17 = expect_rule(r17, "E-PACKET-004", "NotAContraction");
  CHECK(contains(d17.message, "m![K % 4]"));
  CHECK(contains(d17.message, "m![K]"));
}

TEST_CASE("§12 rows 18-20: Time Reducer rejections", "[verify-reduce]") {
  Axes ax("A=4,B=2,C=4");
  expect_rule(time_(ax, "A, B", "B, A"), "E-TIME-002", "OrderNotPreserved");
  auto d19 = expect_rule(time_(ax, "A, B", "A, C"), "E-TIME-001", "Indivisible");
  CHECK(contains(d19.message, "m![A, C]"));
  auto d20 = expect_rule(time_(ax, "A # 8, B", "A, B"), "E-TIME-004", "PaddingNotPreserved");
  CHECK(contains(d20.message, "m![A # 8, B]"));
  // The fix: keep the padding.
  CHECK(time_(ax, "A # 8, B", "A # 8, B").ok());
}

TEST_CASE("§12 rows 21-24: Lane Folder rejections", "[verify-reduce]") {
  Axes ax("A=4,B=2,C=4,D=32,K=64,M=4,N=8,O=2,P=16");
  const auto I = LaneMode::Interleaved;
  const auto S = LaneMode::Sequential;
  SECTION("21: Interleaved P3 = [M] has 4 elements") {
    auto d = expect_rule(lane(ax, I, "M", "N", "1", "N", "M", "N"), "E-LANE-002", "OutPacketSize");
    CHECK(contains(d.message, "4 elements"));
    CHECK(lane(ax, I, "M", "N", "1", "N", "M # 8", "N").ok());
  }
  SECTION("22: T3 = [M] is not a multiple of the 16-cell packet") {
    auto d =
        expect_rule(lane(ax, I, "N", "M", "P", "M", "N", "M"), "E-LANE-004", "OutTimeMismatch");
    CHECK(contains(d.message, "16"));
    CHECK(lane(ax, I, "N", "M", "P", "M, P", "N", "M").ok());
  }
  SECTION("23: T3 = [B, C] is not Time [C, B]") {
    auto d = expect_rule(lane(ax, I, "N", "C, B", "1", "B, C", "N", "C, B"), "E-LANE-005",
                         "OuterTimeMismatch");
    CHECK(contains(d.message, "m![C, B]"));
    CHECK(lane(ax, I, "N", "C, B", "1", "C, B", "N", "C, B").ok());
  }
  SECTION("24: Sequential 8 lanes, InnerTime 8, 32 columns overflow") {
    auto r = lane(ax, S, "N", "M, O", "D", "M, O, N, D / 8", "D % 8", "A, M, O");
    auto d = expect_rule(r, "E-LANE-007", "BufferExceeded");
    CHECK(contains(d.message, "Sequential"));
    CHECK(contains(d.message, "Lane 8 * InnerTime 8 * packet 32 = 2048"));
    CHECK(contains(d.message, "1024"));
    CHECK(time_(ax, "A, M, O", "M, O")->inner_time == 8);
    // The same chunk with pre-reduce [A, M] -> [M] (InnerTime 4) fits exactly: 8*4*32 = 1024.
    auto fit = lane(ax, S, "N", "M", "D", "M, N, D / 8", "D % 8", "A, M");
    INFO(why(fit));
    REQUIRE(fit.ok());
    CHECK(fit->inner_time == 4);
    CHECK(fit->accumulator_cells == 1024);
    CHECK(fit->padded_lane == 8);
    CHECK(fit->padded_packet == 32);
  }
}

// ---- every rule: one passing, one failing -----------------------------------------------------

TEST_CASE("contract_packet rules one by one", "[verify-reduce]") {
  Axes ax("K=64,X=3");
  SECTION("NotAContractionOperand") {
    expect_rule(packet(ax, ScalarType::F32, "K % 8", "1"), "E-PACKET-005",
                "NotAContractionOperand");
    CHECK(packet(ax, ScalarType::F8E4M3, "K % 32", "1").ok());
  }
  SECTION("InvalidPacketSize") {
    // §12 row 15 geometry: bf16 OP = [K % 8] is 16 B.
    auto d = expect_rule(packet(ax, ScalarType::BF16, "K % 8", "1"), "E-PACKET-001",
                         "InvalidPacketSize");
    CHECK(contains(d.message, "16 bytes"));
    expect_rule(packet(ax, ScalarType::I4, "K % 32, X", "1 # 3"), "E-PACKET-001",
                "InvalidPacketSize");
    CHECK(packet(ax, ScalarType::BF16, "K % 16", "1").ok());
    CHECK(packet(ax, ScalarType::BF16, "K % 32", "1").ok());
    CHECK(packet(ax, ScalarType::I4, "K", "1").ok());
  }
  SECTION("OutPacketTooWide") {
    CHECK(packet(ax, ScalarType::I8, "K", "K / 2").ok());
    expect_rule(packet(ax, ScalarType::I8, "K", "K"), "E-PACKET-002", "OutPacketTooWide");
  }
  SECTION("OutPacketNotPow2") {
    auto d = expect_rule(packet(ax, ScalarType::I8, "K", "K / 16 # 6"), "E-PACKET-003",
                         "OutPacketNotPow2");
    CHECK(contains(d.message, "6 columns"));
    CHECK(packet(ax, ScalarType::I8, "K", "K / 16 # 8").ok());
  }
  SECTION("NotAContraction") {
    expect_rule(packet(ax, ScalarType::I8, "K", "K / 2 % 16"), "E-PACKET-004", "NotAContraction");
    CHECK(packet(ax, ScalarType::I8, "K", "K / 4").ok());
  }
}

TEST_CASE("contract_time rules one by one", "[verify-reduce]") {
  Axes ax("A=4,B=2,C=3,Z=5");
  SECTION("Indivisible") {
    expect_rule(time_(ax, "A, B", "A, Z"), "E-TIME-001", "Indivisible");
    CHECK(time_(ax, "A, B, C", "A, C").ok());
  }
  SECTION("OrderNotPreserved") {
    expect_rule(time_(ax, "A, B, C", "C, A"), "E-TIME-002", "OrderNotPreserved");
    CHECK(time_(ax, "A, B, C", "A, C")->inner_time == 3);
  }
  SECTION("LeadingPadding") {
    auto d = expect_rule(time_(ax, "A, B", "A, 1 # 2"), "E-TIME-003", "LeadingPadding");
    CHECK(contains(d.message, "stride 2"));
    // Inner padding of Time cannot be kept either: the innermost kept factor must start at
    // stride 1 of OutTime (docs/contraction.md §7 rule 3, as the reference).
    expect_rule(time_(ax, "A, 1 # 2", "A, 1 # 2"), "E-TIME-003", "LeadingPadding");
    CHECK(time_(ax, "A, B", "A").ok());
  }
  SECTION("PaddingNotPreserved") {
    expect_rule(time_(ax, "A, B", "A # 8"), "E-TIME-004", "PaddingNotPreserved");
    expect_rule(time_(ax, "A # 8, B", "A"), "E-TIME-004", "PaddingNotPreserved");
    auto ok = time_(ax, "A # 8, B", "A # 8");
    INFO(why(ok));
    REQUIRE(ok.ok());
    CHECK(ok->inner_time == 1);
    auto outer = time_(ax, "B, A # 8", "A # 8");
    INFO(why(outer));
    REQUIRE(outer.ok());
    CHECK(outer->inner_time == 8); // B reduced outermost: all of T2, padding slots included
  }
}

TEST_CASE("contract_lane rules one by one", "[verify-reduce]") {
  Axes ax("M=4,N=8,O=2,P=16,K=64,A=4");
  const auto I = LaneMode::Interleaved;
  const auto S = LaneMode::Sequential;
  SECTION("PacketTooWide") {
    auto d =
        expect_rule(lane(ax, I, "N", "M", "K", "M, K", "N", "M"), "E-LANE-001", "PacketTooWide");
    CHECK(contains(d.message, "64 columns"));
    CHECK(lane(ax, I, "N", "M", "K % 32", "M, K % 32", "N", "M").ok());
  }
  SECTION("OutPacketSize") {
    expect_rule(lane(ax, S, "N", "M", "P", "M, N, P / 8", "P % 4", "M"), "E-LANE-002",
                "OutPacketSize");
    CHECK(lane(ax, S, "N", "M", "P", "M, N, P / 8", "P % 8", "M").ok());
  }
  SECTION("OutPacketMismatch") {
    auto d = expect_rule(lane(ax, I, "M", "N", "1", "N", "O, M", "N"), "E-LANE-003",
                         "OutPacketMismatch");
    CHECK(contains(d.message, "Interleaved"));
    auto ds = expect_rule(lane(ax, S, "N", "M", "P", "M, N, P / 8", "P / 2", "M"), "E-LANE-003",
                          "OutPacketMismatch");
    CHECK(contains(ds.message, "Sequential"));
    // Sequential with |P2| < 8: P3 = [P2 # 8], T3 = [T2, Lane].
    CHECK(lane(ax, S, "N", "M", "O", "M, N", "O # 8", "M").ok());
    CHECK(lane(ax, I, "M", "N", "1", "N", "M # 8", "N").ok());
  }
  SECTION("OutTimeMismatch") {
    expect_rule(lane(ax, I, "N", "M", "P", "P, M", "N", "M"), "E-LANE-004", "OutTimeMismatch");
    expect_rule(lane(ax, S, "N", "M", "P", "M, P / 8, N", "P % 8", "M"), "E-LANE-004",
                "OutTimeMismatch");
    CHECK(lane(ax, S, "N", "M", "P", "M, N, P / 8", "P % 8", "M").ok());
  }
  SECTION("OuterTimeMismatch") {
    expect_rule(lane(ax, I, "N", "M", "P", "O, P", "N", "M"), "E-LANE-005", "OuterTimeMismatch");
    CHECK(lane(ax, I, "N", "M", "P", "M, P", "N", "M").ok());
  }
  SECTION("InconsistentReduceTime") {
    auto d = expect_rule(lane(ax, I, "N", "M", "P", "M, P", "N", "A, O"), "E-LANE-006",
                         "InconsistentReduceTime");
    CHECK(contains(d.message, "m![A, O]"));
    CHECK(lane(ax, I, "N", "M", "P", "M, P", "N", "A, M, O").ok());
  }
  SECTION("BufferExceeded (Interleaved)") {
    // 8 * InnerTime 4 * 32 = 1024 fits; InnerTime 8 does not.
    Axes bx("M=4,N=8,O=2,Q=32,A=4");
    auto fit = lane(bx, I, "N", "M", "Q", "M, Q", "N", "A, M");
    INFO(why(fit));
    REQUIRE(fit.ok());
    CHECK(fit->accumulator_cells == 1024);
    auto d = expect_rule(lane(bx, I, "N", "M, O", "Q", "M, O, Q", "N", "A, M, O"), "E-LANE-007",
                         "BufferExceeded");
    CHECK(contains(d.message, "Lane 8 * InnerTime 8 * packet 32 = 2048"));
  }
}

TEST_CASE("InnerTime when every kept digit is a piece of a cut axis", "[verify-reduce]") {
  Axes ax("A=8,B=2");
  // OT = [B, A], T2 = [A / 2]: B (outermost) and A % 2 (innermost) are summed. Flit (b, a) goes
  // to slot a / 2; slot u is first hit at flit 2u (b = 0) and last at flit 8 + 2u + 1 (b = 1),
  // so at flit 8 all four slots are open: InnerTime 4 = |T2| (§7: the outermost factor of OT is
  // reduced). The reference's divide-stride walk finds no axis boundary among the kept terms
  // and answers 1; contract_time's rule 3 has nothing to check and accepts.
  auto r = time_(ax, "B, A", "A / 2");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->inner_time == 4);
  const FactorList ot = factorize(ax("B, A")), t2 = factorize(ax("A / 2"));
  auto terms = divide_exact(ot, t2);
  REQUIRE(terms.ok());
  CHECK(inner_time_from_division(*terms, padding_per_stride(ot), ot.size(), t2.size()) == 1);
  // The Lane Folder uses the same InnerTime: 8 * 4 * 16 = 512 cells.
  Axes lx("A=8,B=2,N=8,P=16");
  auto l = lane(lx, LaneMode::Interleaved, "N", "A / 2", "P", "A / 2, P", "N", "B, A");
  INFO(why(l));
  REQUIRE(l.ok());
  CHECK(l->inner_time == 4);
  CHECK(l->accumulator_cells == 512);
  // OT = [A, B], T2 = [A / 2]: A % 2 and B are both inner: one slot at a time (both agree).
  auto inner = time_(ax, "A, B", "A / 2");
  INFO(why(inner));
  REQUIRE(inner.ok());
  CHECK(inner->inner_time == 1);
  // A kept low digit of a whole axis is rejected (its boundary carries the whole axis extent,
  // docs/mapping.md §10 D-13), as in the reference.
  expect_rule(time_(ax, "A, B", "A % 2"), "E-TIME-004", "PaddingNotPreserved");
}
