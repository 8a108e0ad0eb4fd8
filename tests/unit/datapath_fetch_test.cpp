// The Fetch Engine (docs/datapath.md §5): the worked fetches F1–F8 (configuration, max_access,
// read_size, reads per packet, cycles), the sub context and the fetch-cast cap, the refusals
// (no legal access size), the over-read of top padding past the buffer, and the Collect Engine
// table C1–C5 (§8),
// including the Collect padding F5–F7 need after their fetch.
#include "datapath_test_support.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/datapath/sequencer_derive.h"
#include "ir/verify/collect.h"
#include "ir/verify/stage_verifiers.h"

#include <catch2/catch.hpp>

#include <string>
#include <variant>

using namespace tujit;
using namespace tujit::ir::datapath;
using tujit::testing::axes_of;
using tujit::testing::check_addresses;
using tujit::testing::parse_m;
using tujit::testing::seq_entries;

namespace {

struct Fetch {
  ir::AxisTable axes;
  FetchInput in;
  Result<FetchDerived> result;
};

Fetch fetch(ir::ScalarType dtype, const std::string& axes_text, const std::string& buf,
            const std::string& time, const std::string& packet,
            FetchContext ctx = FetchContext::Main,
            std::optional<ir::ScalarType> cast_to = std::nullopt) {
  ir::AxisTable axes = axes_of(axes_text);
  FetchInput in{dtype,   parse_m(axes, buf), parse_m(axes, time), parse_m(axes, packet), ctx,
                cast_to, std::nullopt};
  auto r = verify_fetch(in);
  return Fetch{axes, in, std::move(r)};
}

const FetchDerived& ok(const Fetch& f) {
  if (!f.result) {
    for (const auto& d : f.result.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  }
  REQUIRE(f.result.ok());
  auto walk = check_addresses(f.axes, f.in.buf, f.in.time, f.in.packet, f.result->seq.config);
  INFO(walk.failure);
  CHECK(walk.failure.empty());
  // Accepted fetches never address past their buffer.
  CHECK(walk.max_offset < f.in.buf.size());
  return *f.result;
}

struct FetchRow {
  std::string time, packet;
  std::vector<SeqEntry> config;
  std::uint64_t max_access, read_size, read_bytes, reads, cycles;
};

} // namespace

TEST_CASE("F1-F4: i4 [N,C,H,W] = (4,3,4,16) read four ways", "[datapath]") {
  const std::vector<FetchRow> rows = {
      {"N, C, H", "W", seq_entries({{4, 192}, {3, 64}, {4, 16}, {16, 1}}), 16, 16, 8, 1, 48},
      {"N, C, H / 2", "H % 2, W", seq_entries({{4, 192}, {3, 64}, {2, 32}, {2, 16}, {16, 1}}), 32,
       32, 16, 1, 24},
      {"N, C", "H, W", seq_entries({{4, 192}, {3, 64}, {4, 16}, {16, 1}}), 64, 64, 32, 1, 12},
      {"N", "C, H, W", seq_entries({{4, 192}, {3, 64}, {4, 16}, {16, 1}}), 192, 64, 32, 3, 12},
  };
  for (const auto& row : rows) {
    INFO("OutTime " << row.time << " / OutPacket " << row.packet);
    auto f = fetch(ir::ScalarType::I4, "N=4,C=3,H=4,W=16", "N, C, H, W", row.time, row.packet);
    const auto& d = ok(f);
    CHECK(d.seq.config.entries == row.config);
    CHECK(d.seq.config.max_access_size == row.max_access);
    CHECK(d.read_size == row.read_size);
    CHECK(d.read_bytes == row.read_bytes);
    CHECK(d.reads_per_packet == row.reads);
    CHECK(d.cycles == row.cycles);
  }
}

TEST_CASE("F5-F7: f8e4m3 [A,B,C] = (3,5,2) padded to 8, 16, 32 B packets", "[datapath]") {
  struct Row {
    std::string time, packet;
    std::vector<SeqEntry> config;
    std::uint64_t read_bytes, cycles, footprint, collect_pad;
    std::string out_time, out_packet; // the Collect output that follows (docs/datapath.md §8)
  };
  const std::vector<Row> rows = {
      {"A, B", "C # 8", seq_entries({{3, 10}, {5, 2}, {8, 1}}), 8, 15, 36, 24, "A, B", "C # 32"},
      {"A", "[B, C] # 16", seq_entries({{3, 10}, {16, 1}}), 16, 3, 36, 16, "A", "[B, C] # 32"},
      {"1", "[A, B, C] # 32", seq_entries({{32, 1}}), 32, 1, 32, 0, "1", "[A, B, C] # 32"},
  };
  for (const auto& row : rows) {
    INFO("OutTime " << row.time << " / OutPacket " << row.packet);
    // As printed the buffer is exactly (3,5,2) = 30 elements and each packet's top padding
    // runs past its end: padding only, so the fetch over-reads it (the engines make those cells
    // poison) ...
    auto bare = fetch(ir::ScalarType::F8E4M3, "A=3,B=5,C=2", "A, B, C", row.time, row.packet);
    REQUIRE(bare.result.ok());
    CHECK(bare.result->over_read == row.footprint - 30);
    CHECK(bare.result->seq.live_footprint == 30);
    auto derivation = derive_sequencer(bare.in.buf, bare.in.time, bare.in.packet);
    REQUIRE(derivation.ok());
    CHECK(derivation->config.entries == row.config);
    CHECK(derivation->config.footprint() == row.footprint);
    // ... and reads inside the DM tensor alone once it covers the footprint, with the book's
    // read size and cycles either way.
    CHECK(bare.result->read_bytes == row.read_bytes);
    CHECK(bare.result->cycles == row.cycles);
    auto f = fetch(ir::ScalarType::F8E4M3, "A=3,B=5,C=2",
                   "[A, B, C] # " + std::to_string(row.footprint), row.time, row.packet);
    const auto& d = ok(f);
    CHECK(d.over_read == 0);
    CHECK(d.seq.config.entries == row.config);
    CHECK(d.read_bytes == row.read_bytes);
    CHECK(d.reads_per_packet == 1);
    CHECK(d.cycles == row.cycles);
    // Collect then pads each packet to one 32 B flit.
    ir::verify::CollectInput ci{ir::ScalarType::F8E4M3, f.in.time, f.in.packet,
                                parse_m(f.axes, row.out_time), parse_m(f.axes, row.out_packet)};
    auto c = ir::verify::verify_collect(ci);
    REQUIRE(c.ok());
    CHECK(c->pad_bytes == row.collect_pad);
  }
}

TEST_CASE("F8: a 24-byte packet is read 8 B at a time, 3 reads", "[datapath]") {
  auto f = fetch(ir::ScalarType::I8, "A=4,B=24", "A, B", "A", "B");
  const auto& d = ok(f);
  CHECK(d.seq.config.max_access_size == 24);
  CHECK(d.read_bytes == 8);
  CHECK(d.reads_per_packet == 3);
  CHECK(d.cycles == 12);
  // The derived values as the kernel checker reports them.
  const auto table = ir::verify::fetch_table(d);
  CHECK(std::get<std::string>(table.at("sequencer")) == "[4:24, 24:1] : 24");
  CHECK(std::get<std::uint64_t>(table.at("read_size")) == 8);
  CHECK(std::get<std::uint64_t>(table.at("reads_per_packet")) == 3);
  CHECK(std::get<std::uint64_t>(table.at("footprint")) == 96);
}

TEST_CASE("sub context reads 8 B, a fetch cast caps the read at one flit of output", "[datapath]") {
  auto sub = fetch(ir::ScalarType::I4, "N=4,C=3,H=4,W=16", "N, C, H, W", "N, C", "H, W",
                   FetchContext::Sub);
  const auto& s = ok(sub);
  CHECK(s.read_bytes == 8);
  CHECK(s.read_size == 16);
  CHECK(s.reads_per_packet == 4);
  CHECK(s.cycles == 48);
  // i8 read widened to i32 by fetch_cast: one read's output ≤ 32 B, so 8 elements.
  auto cast = fetch(ir::ScalarType::I8, "A=4,B=32", "A, B", "A", "B", FetchContext::Main,
                    ir::ScalarType::I32);
  const auto& c = ok(cast);
  CHECK(c.read_size == 8);
  CHECK(c.reads_per_packet == 4);
  CHECK(fetch_read_size(32, ir::ScalarType::I8, FetchContext::Main) == 32u);
}

TEST_CASE("refusal: no legal access size (a transposed i4 packet)", "[datapath]") {
  // The packet [B, A] reads A (stride 4) innermost: single 4-bit elements, not a byte.
  auto f = fetch(ir::ScalarType::I4, "A=4,B=4", "A, B", "1", "B, A");
  REQUIRE_FALSE(f.result.ok());
  CHECK(f.result.diagnostics().front().code == "E-FETCH-015");
  // The same read of bf16 is legal, one element per read.
  auto g = fetch(ir::ScalarType::BF16, "A=4,B=4", "A, B", "1", "B, A");
  const auto& d = ok(g);
  CHECK(d.seq.config.max_access_size == 1);
  CHECK(d.read_size == 1);
  CHECK(d.reads_per_packet == 16);
}

TEST_CASE("C1-C5: Collect normalizes packets to one flit (docs/datapath.md §8)", "[datapath]") {
  struct Row {
    ir::ScalarType dtype;
    std::string axes, time, packet, out_time, out_packet;
    std::uint64_t flits, pad_bytes;
  };
  const std::vector<Row> rows = {
      {ir::ScalarType::I8, "A=4,B=32", "A", "B", "A", "B # 32", 1, 0},
      {ir::ScalarType::I8, "A=4,B=16", "A", "B", "A", "B # 32", 1, 16},
      {ir::ScalarType::BF16, "A=4,B=32", "A", "B", "A, B / 16", "B % 16", 2, 0},
      {ir::ScalarType::I8, "A=4,B=56", "A", "B", "A, B # 64 / 32", "B # 64 % 32", 2, 8},
      {ir::ScalarType::F32, "B=4,C=32", "B", "C", "B, C / 8", "C % 8", 4, 0},
  };
  for (const auto& row : rows) {
    INFO(row.axes << ": " << row.time << " / " << row.packet);
    ir::AxisTable axes = axes_of(row.axes);
    ir::verify::CollectInput ci{row.dtype, parse_m(axes, row.time), parse_m(axes, row.packet),
                                parse_m(axes, row.out_time), parse_m(axes, row.out_packet)};
    auto c = ir::verify::verify_collect(ci);
    REQUIRE(c.ok());
    CHECK(c->flits_per_packet == row.flits);
    CHECK(c->pad_bytes == row.pad_bytes);
  }
  // C4 with a 64 B Packet2 is not one flit.
  ir::AxisTable axes = axes_of("A=4,B=56");
  ir::verify::CollectInput bad{ir::ScalarType::I8, parse_m(axes, "A"), parse_m(axes, "B"),
                               parse_m(axes, "A"), parse_m(axes, "B # 64")};
  auto c = ir::verify::verify_collect(bad);
  REQUIRE_FALSE(c.ok());
  CHECK(c.diagnostics().front().code == "E-COLLECT-001");
}
