// Worked examples (valid) of the outer stages: to_trf, to_vrf, collect, the Stream Adapter and
// the TRF Sequencer (docs/contraction.md §11, docs/datapath.md §8 C1–C5, §8.1). Expected values are
// the spec's stated ones.
#include "ir/verify/collect.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/operand_types.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"

#include "verify_outer_support.h"

#include <variant>

using namespace tujit;
using namespace tujit::ir;
using namespace tujit::ir::verify;
using tujit::testing::verify_outer::Axes;
using tujit::testing::verify_outer::brute_force_outer;
using tujit::testing::verify_outer::why;

namespace {

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
  auto r = verify_contract_outer(in);
  // Every accepted example also agrees, position by position, with the tree semantics.
  if (r.ok()) CHECK(brute_force_outer(in, *r, std::uint64_t{1} << 20) == "");
  return r;
}

Result<ToTrfDerived> to_trf(const Axes& ax, ScalarType d, std::string_view time,
                            std::string_view packet, std::string_view lane,
                            std::string_view element) {
  return verify_to_trf(ToTrfInput{d, ax(time), ax(packet), ax(lane), ax(element)});
}

using Loops = std::vector<TrfLoopEntry>;

} // namespace

TEST_CASE("§11.1 K in Time: PackSize 1, ReadSize 1 narrow, PacketBroadcast [1 # 16]",
          "[verify-outer]") {
  Axes ax("V=32, M=32, N=8, K=32");
  auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "V / 16, K", "1 # 16", "N", "K",
                 "V / 16, K", "1 # 16");
  INFO(why(r));
  REQUIRE(r.ok());
  const auto& sa = r->stream_adapter;
  CHECK(sa.pack_size == 1);
  CHECK(sa.time_broadcast_size == 1);
  CHECK(sa.lane_broadcast == 8);
  const auto& seq = r->trf_sequencer;
  CHECK(seq.read_size == 1);
  CHECK(seq.read_bits == 16); // 2 B
  CHECK_FALSE(seq.wide);
  CHECK(ax.same(seq.packet_broadcast, "1 # 16"));
  CHECK(ax.same(seq.rows, "K"));
  CHECK(seq.loops == Loops{{2, 0}, {32, 1}}); // V/16: stride 0, K: stride 1
  CHECK(r->operands.accumulator == ScalarType::F32);
  // Cluster [M / 16], Slice [M % 16, V % 16] are accepted spatial sizes (2 and 256).
  CHECK_FALSE(check_spatial(SpatialInput{ax("1"), ax("M / 16"), ax("M % 16, V % 16")}));
  CHECK_FALSE(check_spatial(SpatialInput{ax("1"), ax("V / 16"), ax("V % 16 # 256")}));
}

TEST_CASE("§11.9/10 lane-folder upstream: OT [M], OP [P], PackSize 1, ReadSize 16 narrow",
          "[verify-outer]") {
  Axes ax("N=8, M=4, P=16");
  auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "M", "P", "N", "P", "M", "P");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 1);
  CHECK(r->trf_sequencer.read_size == 16);
  CHECK_FALSE(r->trf_sequencer.wide);
  CHECK(r->trf_sequencer.loops == Loops{{4, 0}});
}

TEST_CASE("§11.2/3/5/7 M, V in Time: PackSize 2, ReadSize 32 wide, M a pure broadcast",
          "[verify-outer]") {
  SECTION("M in Time (§11.2, §11.5)") {
    Axes ax("V=32, M=32, N=8, K=32");
    auto r =
        outer(ax, ScalarType::BF16, ScalarType::BF16, "M, K / 16", "K % 16", "N", "K", "M", "K");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == 2);
    CHECK(r->stream_adapter.time_broadcast_size == 1);
    CHECK(r->trf_sequencer.read_size == 32);
    CHECK(r->trf_sequencer.read_bits == 512); // 64 B
    CHECK(r->trf_sequencer.wide);
    CHECK(ax.same(r->trf_sequencer.packet_broadcast, "1"));
    CHECK(ax.same(r->trf_sequencer.rows, "1"));
    CHECK(r->trf_sequencer.loops == Loops{{32, 0}});
  }
  SECTION("V in Time (§11.3)") {
    Axes ax("V=32, M=32, N=8, K=32");
    auto r =
        outer(ax, ScalarType::BF16, ScalarType::BF16, "V, K / 16", "K % 16", "N", "K", "V", "K");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == 2);
    CHECK(r->trf_sequencer.read_size == 32);
    CHECK(r->trf_sequencer.wide);
  }
  SECTION("packet-reducer matmul (§11.7)") {
    Axes ax("A=32, B=32, C=8");
    auto r =
        outer(ax, ScalarType::BF16, ScalarType::BF16, "A, B / 16", "B % 16", "C", "B", "A", "B");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == 2);
    CHECK(r->trf_sequencer.read_size == 32);
    CHECK(r->trf_sequencer.wide);
  }
}

TEST_CASE("§11.4 stream-adapter example: packed L, TimeBroadcast [B] = 5", "[verify-outer]") {
  Axes ax("M=32, N=8, K=16, L=2, B=5");
  auto r =
      outer(ax, ScalarType::BF16, ScalarType::BF16, "M, L", "K", "N", "B, L, K", "M, B", "L, K");
  INFO(why(r));
  REQUIRE(r.ok());
  const auto& sa = r->stream_adapter;
  CHECK(sa.pack_size == 2);
  CHECK(sa.time_broadcast_size == 5);
  CHECK(ax.same(sa.time_broadcast, "B"));
  CHECK(sa.lane_broadcast == 8);
  CHECK(ax.same(sa.packed_time, "L"));
  const auto& seq = r->trf_sequencer;
  CHECK(seq.read_size == 32);
  CHECK(seq.wide);
  CHECK(ax.same(seq.packet_broadcast, "1"));
  CHECK(ax.same(seq.rows, "B"));
  CHECK(seq.loops == Loops{{32, 0}, {5, 32}}); // M: 0, B: 32
}

TEST_CASE("§11.6 TRF partial read: ReadSize 16 narrow, PacketBroadcast [L]", "[verify-outer]") {
  Axes ax("M=32, N=8, K=16, L=2, O=2");
  auto r =
      outer(ax, ScalarType::BF16, ScalarType::BF16, "O, M, L", "K", "N", "O, K", "O, M", "L, K");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 2);
  CHECK(r->stream_adapter.time_broadcast_size == 1);
  const auto& seq = r->trf_sequencer;
  CHECK(seq.read_size == 16);
  CHECK(seq.read_bits == 256); // 32 B
  CHECK_FALSE(seq.wide);
  CHECK(ax.same(seq.packet_broadcast, "L"));
  CHECK(ax.same(seq.rows, "O"));
  CHECK(seq.loops == Loops{{2, 16}, {32, 0}}); // O: 16, M: 0
}

TEST_CASE("§11.8 reduce_b: PackSize 1, ReadSize 16 narrow, Rows [B / 16]", "[verify-outer]") {
  Axes ax("A=2048, B=32");
  auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "B / 16, A % 8", "B % 16", "1", "B",
                 "B / 16, A % 8", "B % 16");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 1);
  CHECK(r->stream_adapter.time_broadcast_size == 1);
  CHECK(r->stream_adapter.lane_broadcast == 1);
  const auto& seq = r->trf_sequencer;
  CHECK(seq.read_size == 16);
  CHECK_FALSE(seq.wide);
  CHECK(ax.same(seq.packet_broadcast, "1"));
  CHECK(ax.same(seq.rows, "B / 16"));
  CHECK(seq.loops == Loops{{2, 16}, {8, 0}});
  // Slice [A / 8] = 256 slices.
  CHECK_FALSE(check_spatial(SpatialInput{ax("1"), ax("1"), ax("A / 8")}));
}

TEST_CASE("§11.12 GEMM: to_trf FPL 16, Rows [J/8%4, K/32] walked in OT order", "[verify-outer]") {
  Axes ax("I=512, J=512, K=64");
  auto t =
      to_trf(ax, ScalarType::BF16, "J % 8, J / 8 % 4, K / 16", "K % 16", "J % 8", "J / 8 % 4, K");
  INFO(why(t));
  REQUIRE(t.ok());
  CHECK(t->flits_per_lane == 16);
  CHECK(t->lanes == 8);
  CHECK(t->bytes_per_lane == 4 * 64 * 2);

  auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "I % 32, J / 8 % 4, K / 16", "K % 16",
                 "J % 8", "J / 8 % 4, K", "I % 32, J / 8 % 4, K / 32", "K % 32");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 2);
  CHECK(r->stream_adapter.time_broadcast_size == 1);
  CHECK(r->trf_sequencer.read_size == 32);
  CHECK(r->trf_sequencer.wide);
  CHECK(ax.same(r->trf_sequencer.rows, "J / 8 % 4, K / 32"));
  CHECK(r->trf_sequencer.loops == Loops{{32, 0}, {4, 64}, {2, 32}}); // I%32: 0
  // (4:64) over (2:32) is one contiguous run of 8 rows: merged into (8:32).
  CHECK(r->trf_sequencer.merged_loops == Loops{{32, 0}, {8, 32}});
}

TEST_CASE("§11.13 lm_head and mlp up: TimeBroadcast from the TRF, rows read in OT order",
          "[verify-outer]") {
  SECTION("lm_head") {
    Axes ax("H=1024, Wp=16");
    auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "H / 16", "H % 16", "Wp % 8",
                   "Wp / 8 % 2, H", "H / 32, Wp / 8 % 2", "H % 32");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == 2);
    CHECK(r->stream_adapter.time_broadcast_size == 2);
    CHECK(ax.same(r->stream_adapter.time_broadcast, "Wp / 8 % 2"));
    CHECK(r->trf_sequencer.read_size == 32);
    CHECK(r->trf_sequencer.wide);
    CHECK(ax.same(r->trf_sequencer.rows, "Wp / 8 % 2, H / 32"));
    CHECK(r->trf_sequencer.loops == Loops{{32, 32}, {2, 1024}}); // H/32: 32, Wp/8%2: 1024
  }
  SECTION("mlp up (TB [L/8%3] = 3)") {
    Axes ax("H=1024, L=24");
    auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "H / 16", "H % 16", "L % 8",
                   "L / 8 % 3, H", "H / 32, L / 8 % 3", "H % 32");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.time_broadcast_size == 3);
    CHECK(ax.same(r->stream_adapter.time_broadcast, "L / 8 % 3"));
    CHECK(r->trf_sequencer.loops == Loops{{32, 32}, {3, 1024}});
  }
}

TEST_CASE("§11.14 attention weighted sum: TB [D/8] = 16, ReadSize 16 narrow", "[verify-outer]") {
  Axes ax("D=128, T=64, G=4");
  auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "G", "T % 16", "D % 8", "D / 8, T % 16",
                 "G, D / 8", "T % 16");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 1);
  CHECK(r->stream_adapter.time_broadcast_size == 16);
  CHECK(ax.same(r->stream_adapter.time_broadcast, "D / 8"));
  CHECK(r->trf_sequencer.read_size == 16);
  CHECK_FALSE(r->trf_sequencer.wide);
  CHECK(ax.same(r->trf_sequencer.packet_broadcast, "1"));
  CHECK(ax.same(r->trf_sequencer.rows, "D / 8"));
  CHECK(r->trf_sequencer.loops == Loops{{4, 0}, {16, 16}});
}

TEST_CASE("§11.15 proj_o: 4 lanes of 16 KiB, TB [H%4] = 4", "[verify-outer]") {
  Axes ax("Q=2048, H=16");
  auto t =
      to_trf(ax, ScalarType::BF16, "H / 4 % 4, H % 4, Q / 16", "Q % 16", "H / 4 % 4", "H % 4, Q");
  INFO(why(t));
  REQUIRE(t.ok());
  CHECK(t->lanes == 4);
  CHECK(t->bytes_per_lane == 16384);
  CHECK(t->total_bytes == 65536);
  CHECK(t->address_mode == TrfAddressMode::Full);

  auto r = outer(ax, ScalarType::BF16, ScalarType::BF16, "Q / 16", "Q % 16", "H / 4 % 4",
                 "H % 4, Q", "Q / 32, H % 4", "Q % 32");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 2);
  CHECK(r->stream_adapter.time_broadcast_size == 4);
  CHECK(r->stream_adapter.lane_broadcast == 4);
  CHECK(r->trf_sequencer.read_size == 32);
  CHECK(r->trf_sequencer.wide);
  CHECK(ax.same(r->trf_sequencer.rows, "H % 4, Q / 32"));
  CHECK(r->trf_sequencer.loops == Loops{{64, 32}, {4, 2048}});
}

TEST_CASE("§11.16 i4 and zero point: ReadSize 64 (32 B narrow), i9 × i8", "[verify-outer]") {
  SECTION("i4") {
    Axes ax("M=4, N=8, K4=64");
    auto r = outer(ax, ScalarType::I4, ScalarType::I4, "M", "K4", "N", "K4", "M", "K4");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == 1);
    CHECK(r->trf_sequencer.read_size == 64);
    CHECK(r->trf_sequencer.read_bits == 256);
    CHECK_FALSE(r->trf_sequencer.wide);
    CHECK(r->operands.accumulator == ScalarType::I32);
  }
  SECTION("i9 stream × i8 TRF") {
    Axes ax("M=4, N=8, K8=32");
    auto r = outer(ax, ScalarType::I9, ScalarType::I8, "M", "K8", "N", "K8", "M", "K8");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->stream_adapter.pack_size == 1); // 32 × 8 bit = 32 B
    CHECK(r->operands.accumulator == ScalarType::I32);
  }
}

TEST_CASE("§11.17 time broadcast from TRF: TB [V, T] = 10, rows read transposed",
          "[verify-outer]") {
  Axes ax("A=8, E=32, T=5, V=2, R=8");
  auto r = outer(ax, ScalarType::I8, ScalarType::I8, "A", "E", "R", "T, V, E", "A, V, T", "E");
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->stream_adapter.pack_size == 1);
  CHECK(r->stream_adapter.time_broadcast_size == 10);
  CHECK(ax.same(r->stream_adapter.time_broadcast, "V, T"));
  CHECK(r->trf_sequencer.read_size == 32);
  CHECK(r->trf_sequencer.read_bits == 256); // 32 B
  CHECK_FALSE(r->trf_sequencer.wide);
  CHECK(ax.same(r->trf_sequencer.rows, "T, V"));
  CHECK(r->trf_sequencer.loops == Loops{{8, 0}, {2, 32}, {5, 64}}); // V: 32, T: 64
}

TEST_CASE("§11.11 to_trf examples: FlitsPerLane, bytes, address mode", "[verify-outer]") {
  SECTION("(a) load_trf i8") {
    Axes ax("B=32");
    auto t = to_trf(ax, ScalarType::I8, "1", "B", "1", "B");
    INFO(why(t));
    REQUIRE(t.ok());
    CHECK(t->lanes == 1);
    CHECK(t->flits_per_lane == 1);
    CHECK(t->bytes_per_lane == 32);
    CHECK(t->total_bytes == 32);
    CHECK(t->rows_per_lane == 1);
    CHECK(t->address_mode == TrfAddressMode::FirstHalf);
    CHECK(t->fits_half);
  }
  SECTION("(b) store_bmatmul_trf bf16") {
    Axes ax("N=8, K=32");
    auto t = to_trf(ax, ScalarType::BF16, "N, K / 16", "K % 16", "N", "K");
    INFO(why(t));
    REQUIRE(t.ok());
    CHECK(t->lanes == 8);
    CHECK(t->flits_per_lane == 2);
    CHECK(t->bytes_per_lane == 64);
    CHECK(t->total_bytes == 512);
    CHECK(ax.same(t->time_outer, "N"));
    CHECK(ax.same(t->time_inner, "K / 16"));
    // 8 lanes: 128 rows per bank, a half gets 64.
    CHECK(t->row_capacity_per_lane == 64);
  }
  SECTION("(c) proj_q: 8 KiB per lane, the full register file") {
    Axes ax("Q=2048, H=1024");
    auto t = to_trf(ax, ScalarType::BF16, "Q % 32, H / 16", "H % 16", "Q / 4 % 8", "Q % 4, H");
    INFO(why(t));
    REQUIRE(t.ok());
    CHECK(t->flits_per_lane == 256);
    CHECK(ax.same(t->time_outer, "Q / 4 % 8"));
    CHECK(ax.same(t->time_inner, "Q % 4, H / 16"));
    CHECK(t->bytes_per_lane == 8192);
    CHECK(t->total_bytes == 65536);
    CHECK(t->rows_per_lane == 128);
    CHECK_FALSE(t->fits_half);
    CHECK(t->address_mode == TrfAddressMode::Full);
    CHECK(t->row_capacity_per_lane == 128);
  }
  SECTION("fewer lanes see more rows (furiosa-opt docs/src/computing-tensors/register-files.md)") {
    Axes ax("N=2, K=32");
    auto t = to_trf(ax, ScalarType::BF16, "N, K / 16", "K % 16", "N", "K");
    REQUIRE(t.ok());
    CHECK(t->row_capacity_per_lane == 128 * 8 / 2 / 2); // half mode
  }
}

TEST_CASE("to_trf derived table uses the JSON names", "[verify-outer]") {
  Axes ax("N=8, K=32");
  auto t = to_trf(ax, ScalarType::BF16, "N, K / 16", "K % 16", "N", "K");
  REQUIRE(t.ok());
  DerivedTable tab = t->to_table();
  CHECK(std::get<std::uint64_t>(tab.at("flits_per_lane")) == 2);
  CHECK(std::get<std::uint64_t>(tab.at("bytes_per_lane")) == 64);
  CHECK(std::get<std::uint64_t>(tab.at("total_bytes")) == 512);
  CHECK(std::get<std::string>(tab.at("address_mode")) == "first_half");
}

TEST_CASE("contract_outer derived table has the check --json keys", "[verify-outer]") {
  Axes ax("M=32, N=8, K=16, L=2, B=5");
  ContractOuterInput in{ScalarType::BF16, ScalarType::BF16, ax("M, L"), ax("K"), ax("N"),
                        ax("B, L, K"),    ax("M, B"),       ax("L, K"), {},      {}};
  auto r = verify_contract_outer(in);
  REQUIRE(r.ok());
  DerivedTable t = r->to_table(in);
  CHECK(std::get<std::uint64_t>(t.at("pack_size")) == 2);
  CHECK(std::get<std::uint64_t>(t.at("lane_broadcast")) == 8);
  CHECK(ax.same(std::get<Mapping>(t.at("time_broadcast")), "B"));
  CHECK(std::get<std::uint64_t>(t.at("time_broadcast_size")) == 5);
  CHECK(std::get<std::uint64_t>(t.at("read_size")) == 32);
  CHECK(std::get<std::uint64_t>(t.at("read_bytes")) == 64);
  CHECK(std::get<std::string>(t.at("read_width")) == "wide");
  CHECK(ax.same(std::get<Mapping>(t.at("packet_broadcast")), "1"));
  CHECK(std::get<std::string>(t.at("loops")) == "[32:0, 5:32]");
  CHECK(std::get<std::string>(t.at("accumulator")) == "f32");
}

TEST_CASE("docs/datapath.md §8 C1–C5 collect examples", "[verify-outer]") {
  auto collect = [](const Axes& ax, ScalarType d, std::string_view t, std::string_view p,
                    std::string_view t2, std::string_view p2) {
    return verify_collect(CollectInput{d, ax(t), ax(p), ax(t2), ax(p2)});
  };
  SECTION("C1 i8 B=32 pass-through") {
    Axes ax("A=4, B=32");
    auto r = collect(ax, ScalarType::I8, "A", "B", "A", "B # 32");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->flits_per_packet == 1);
    CHECK(r->pad_bytes == 0);
  }
  SECTION("C2 i8 B=16 padded to a flit") {
    Axes ax("A=4, B=16");
    auto r = collect(ax, ScalarType::I8, "A", "B", "A", "B # 32");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->flits_per_packet == 1);
    CHECK(r->pad_bytes == 16);
  }
  SECTION("C3 bf16 B=32: two flits") {
    Axes ax("A=4, B=32");
    auto r = collect(ax, ScalarType::BF16, "A", "B", "A, B / 16", "B % 16");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->flits_per_packet == 2);
    CHECK(r->flit_elements == 16);
    CHECK(ax.same(r->expected_out_time, "A, B / 16"));
  }
  SECTION("C4 i8 B=56 padded to 64") {
    Axes ax("A=4, B=56");
    auto r = collect(ax, ScalarType::I8, "A", "B", "A, B # 64 / 32", "B # 64 % 32");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->flits_per_packet == 2);
    CHECK(r->pad_bytes == 8);
  }
  SECTION("C5 f32 C=32") {
    Axes ax("B=4, C=32");
    auto r = collect(ax, ScalarType::F32, "B", "C", "B, C / 8", "C % 8");
    INFO(why(r));
    REQUIRE(r.ok());
    CHECK(r->flits_per_packet == 4);
    CHECK(ax.same(r->expected_out_packet, "C % 8"));
  }
}

TEST_CASE("to_vrf accepts one slice's i32/f32 operand up to 8 KiB", "[verify-outer]") {
  Axes ax("A=2048, B=4");
  auto r = verify_to_vrf(ToVrfInput{ScalarType::I32, ax("A")}); // 8192 B exactly
  INFO(why(r));
  REQUIRE(r.ok());
  CHECK(r->bytes == 8192);
  CHECK(r->capacity == 8192);
  auto f = verify_to_vrf(ToVrfInput{ScalarType::F32, ax("B, A / 4")});
  REQUIRE(f.ok());
  CHECK(f->bytes == 8192);
}

TEST_CASE("operand pairs of §2.1 and their accumulators", "[verify-outer]") {
  struct Case {
    ScalarType s, w, acc;
  };
  const Case ok[] = {{ScalarType::I4, ScalarType::I4, ScalarType::I32},
                     {ScalarType::I5, ScalarType::I4, ScalarType::I32},
                     {ScalarType::I4, ScalarType::I5, ScalarType::I32},
                     {ScalarType::I8, ScalarType::I8, ScalarType::I32},
                     {ScalarType::I9, ScalarType::I8, ScalarType::I32},
                     {ScalarType::I8, ScalarType::I9, ScalarType::I32},
                     {ScalarType::F8E4M3, ScalarType::F8E4M3, ScalarType::F32},
                     {ScalarType::F8E5M2, ScalarType::F8E5M2, ScalarType::F32},
                     {ScalarType::BF16, ScalarType::BF16, ScalarType::F32}};
  for (const Case& c : ok) {
    auto r = verify_operand_types({c.s, c.w});
    INFO(name(c.s) << " x " << name(c.w));
    REQUIRE(r.ok());
    CHECK(r->accumulator == c.acc);
  }
}

TEST_CASE("hardware limits accept the reference's sizes", "[verify-outer]") {
  Axes ax("C=2, S=256, T=64, X=128, E=32");
  for (const char* slice : {"S", "T", "X", "T # 128", "1 # 256"}) {
    for (const char* cluster : {"1", "C", "1 # 2"}) {
      INFO(slice << " / " << cluster);
      CHECK_FALSE(check_spatial(SpatialInput{ax("1"), ax(cluster), ax(slice)}).has_value());
    }
  }
  CHECK_FALSE(check_packet_one_flit(ScalarType::I8, ax("E")).has_value());
  CHECK_FALSE(check_packet_aligned(ScalarType::BF16, ax("E % 4")).has_value()); // 8 B
  CHECK_FALSE(check_packet_one_or_two_flits(ScalarType::BF16, ax("E")).has_value());
  CHECK_FALSE(check_packet_one_or_two_flits(ScalarType::BF16, ax("E % 16")).has_value());
  CHECK_FALSE(check_whole_bytes(ScalarType::I4, ax("E"), "Packet").has_value());
  CHECK_FALSE(check_dm_capacity(ScalarType::F32, ax("S, X, 1 # 4")).has_value()); // 512 KiB
}
