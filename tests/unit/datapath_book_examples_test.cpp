// Every sequencer example of the book (furiosa-opt docs/src/moving-tensors/sequencer.md, and the
// four `fetch_batch` examples of docs/src/moving-tensors/fetch-engine.md), as the book writes its
// mappings: the configuration the book prints (or, where it prints none, the one its term-by-term
// rule gives, worked by hand in the comment), the access size, and each refusal the book's doctest
// asserts (broadcasting_write, read_incompatible). Every accepted configuration is also walked
// against the brute-force oracle (datapath_test_support.h): each live stream position reads the
// buffer cell holding its coordinates, the largest live offset is the derivation's
// live_footprint, and the count of live positions its live_positions.
#include "datapath_test_support.h"
#include "tests/support/cli_capture.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/datapath/sequencer_derive.h"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::ir::datapath;
using tujit::testing::axes_of;
using tujit::testing::check_addresses;
using tujit::testing::parse_m;

namespace {

struct Example {
  std::string name;
  std::string axes, dtype, buf, time, packet;
  SeqMode mode = SeqMode::Read;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> config; // empty: refused
  std::uint64_t packet_size = 1;
  std::uint64_t max_access_size = 1;
  std::string refusal = {}; // the E-FETCH code when refused
  std::uint64_t over_read = 0;
  std::uint64_t written = 0; // write mode: stream positions written (0: all)
  std::optional<std::uint64_t> read_size = {}, cycles = {};

  Example over(std::uint64_t n) && {
    over_read = n;
    return std::move(*this);
  }
  Example writes(std::uint64_t n) && {
    written = n;
    return std::move(*this);
  }
  Example fetch(std::uint64_t rs, std::uint64_t c) && {
    read_size = rs;
    cycles = c;
    return std::move(*this);
  }
};

Example ex(std::string name, std::string axes, std::string dtype, std::string buf, std::string time,
           std::string packet, SeqMode mode,
           std::vector<std::pair<std::uint64_t, std::uint64_t>> config, std::uint64_t packet_size,
           std::uint64_t max_access) {
  Example e;
  e.name = std::move(name);
  e.axes = std::move(axes);
  e.dtype = std::move(dtype);
  e.buf = std::move(buf);
  e.time = std::move(time);
  e.packet = std::move(packet);
  e.mode = mode;
  e.config = std::move(config);
  e.packet_size = packet_size;
  e.max_access_size = max_access;
  return e;
}

Example refused(std::string name, std::string axes, std::string buf, std::string time,
                std::string packet, SeqMode mode, std::string code) {
  Example e = ex(std::move(name), std::move(axes), "i8", std::move(buf), std::move(time),
                 std::move(packet), mode, {}, 1, 1);
  e.refusal = std::move(code);
  return e;
}

std::vector<Example> book_examples() {
  const SeqMode R = SeqMode::Read, W = SeqMode::Write;
  // Hand-worked configurations (the book's "Architecture": one entry per stream term, its
  // stride the size of what Buf holds inside the term's fragment):
  //   strided: A (stride |B| = 512), B / 32 (stride 32), B % 32 (stride 1).
  //   tiling (C = 3, buffer 8·512·8 = 32768): A % 2 stride |[B, C # 8]| = 4096; B % 4 stride 8;
  //     A / 2 stride |[1 # 2, B / 4, 1 # 4, C # 8]| = 8192; B / 4 stride 32; C # 32 stride 1.
  //     The last packet starts at 4096 + 3·8 + 3·8192 + 127·32 = 32760 and spans 32 positions:
  //     24 past the end, all of them C's top padding (C holds 3).
  //   broadcasting (A = 8): T and P are not in Buf: stride 0.
  return {
      ex("strided_read", "A=8,B=512", "bf16", "A, B", "A, B / 32", "B % 32", R,
         {{8, 512}, {16, 32}, {32, 1}}, 32, 32),
      ex("strided_write", "A=8,B=512", "bf16", "A, B", "A, B / 32", "B % 32", W,
         {{8, 512}, {16, 32}, {32, 1}}, 32, 32),
      ex("axis_reordering_read", "N=4,C=3,H=8,W=8", "bf16", "N, C, H, W", "W, H, C, N", "1", R,
         {{8, 1}, {8, 8}, {3, 64}, {4, 192}}, 1, 1),
      ex("axis_reordering_write", "N=4,C=3,H=8,W=8", "bf16", "N, C, H, W", "W, H, C, N", "1", W,
         {{8, 1}, {8, 8}, {3, 64}, {4, 192}}, 1, 1),
      ex("tiling_read", "A=8,B=512,C=3", "i8", "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4",
         "C # 32", R, {{2, 4096}, {4, 8}, {4, 8192}, {128, 32}, {32, 1}}, 32, 32)
          .over(24),
      ex("tiling_write", "A=8,B=512,C=3", "i8", "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4",
         "C # 32", W, {{2, 4096}, {4, 8}, {4, 8192}, {128, 32}, {32, 1}}, 32, 32)
          .writes(8 * 512 * 3),
      ex("broadcasting_read", "A=8,T=4,P=4", "i8", "A", "T, A", "P", R, {{4, 0}, {8, 1}, {4, 0}}, 4,
         4),
      refused("broadcasting_write", "A=8,T=4,P=4", "A", "T, A", "P", W, "E-FETCH-017"),
      ex("read_nchw_whcn", "N=4,C=3,H=8,W=8", "bf16", "N, C, H, W", "W, H, C, N", "1", R,
         {{8, 1}, {8, 8}, {3, 64}, {4, 192}}, 1, 1),
      ex("write_whcn_nchw", "N=4,C=3,H=8,W=8", "bf16", "N, C, H, W", "W, H, C, N", "1", W,
         {{8, 1}, {8, 8}, {3, 64}, {4, 192}}, 1, 1),
      ex("read_rearranging", "A=8,B=8,C=8", "i8", "A, B, C # 32", "B, A", "C # 16", R,
         {{8, 32}, {8, 256}, {16, 1}}, 16, 16),
      ex("read_splitting", "A=8,B=8,C=4", "i8", "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4",
         "C # 32", R, {{2, 64}, {4, 8}, {4, 128}, {2, 32}, {32, 1}}, 32, 32)
          .over(24),
      ex("read_slicing", "A=16,B=8,C=8", "i8", "A, B, C", "A / 4, A % 4 = 3, B / 4, B % 4 = 2", "C",
         R, {{4, 256}, {3, 64}, {2, 32}, {2, 8}, {8, 1}}, 8, 8),
      ex("read_broadcasting", "A=16,T=4,P=4", "i8", "A", "T, A", "P", R, {{4, 0}, {16, 1}, {4, 0}},
         4, 4),
      ex("fragment broadcast N / 512", "N=2048", "i8", "N % 512", "N / 512", "N % 512", R,
         {{4, 0}, {512, 1}}, 512, 512),
      ex("read_merging", "N=8,C=8,H=8,W=32", "i8", "N, C, H, W",
         "W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2", "W % 8", R,
         {{2, 16}, {2, 32}, {4, 64}, {8, 256}, {8, 2048}, {16, 1}}, 8, 8),
      ex("write_padded", "A=4,B=8", "i8", "A, B # 16", "1", "A, B", W, {{4, 16}, {8, 1}}, 32, 8),
      ex("read_contiguous", "N=4,C=3,H=4,W=8", "i8", "N, C, H, W", "N, C, H", "W", R,
         {{4, 96}, {3, 32}, {4, 8}, {8, 1}}, 8, 8),
      ex("read_non_contiguous", "N=4,C=3,H=4,W=8", "i8", "N, C, H, W", "C", "N, H, W", R,
         {{3, 32}, {4, 96}, {4, 8}, {8, 1}}, 128, 32),
      refused("read_incompatible", "A=15", "A % 5, A / 5", "1", "A % 3, A / 3", R, "E-FETCH-010"),
      // the fetch page's "Multi-Read Packet": i4, N = 4, C = 3, H = 4, W = 16.
      ex("fetch_batch_1", "N=4,C=3,H=4,W=16", "i4", "N, C, H, W", "N, C, H", "W", R,
         {{4, 192}, {3, 64}, {4, 16}, {16, 1}}, 16, 16)
          .fetch(16, 48),
      ex("fetch_batch_2", "N=4,C=3,H=4,W=16", "i4", "N, C, H, W", "N, C, H / 2", "H % 2, W", R,
         {{4, 192}, {3, 64}, {2, 32}, {2, 16}, {16, 1}}, 32, 32)
          .fetch(32, 24),
      ex("fetch_batch_3", "N=4,C=3,H=4,W=16", "i4", "N, C, H, W", "N, C", "H, W", R,
         {{4, 192}, {3, 64}, {4, 16}, {16, 1}}, 64, 64)
          .fetch(64, 12),
      ex("fetch_batch_4", "N=4,C=3,H=4,W=16", "i4", "N, C, H, W", "N", "C, H, W", R,
         {{4, 192}, {3, 64}, {4, 16}, {16, 1}}, 192, 192)
          .fetch(64, 12),
  };
}

} // namespace

TEST_CASE("every sequencer example of the book gives the book's configuration",
          "[datapath][book]") {
  std::size_t accepted = 0, refused = 0;
  for (const Example& ex : book_examples()) {
    INFO(ex.name << ": Buf " << ex.buf << ", Time " << ex.time << ", Packet " << ex.packet
                 << (ex.mode == SeqMode::Write ? " (write)" : " (read)"));
    const ir::AxisTable axes = axes_of(ex.axes);
    const ir::Mapping buf = parse_m(axes, ex.buf), time = parse_m(axes, ex.time),
                      packet = parse_m(axes, ex.packet);
    auto d = derive_sequencer(buf, time, packet, ex.mode);
    if (!ex.refusal.empty()) {
      REQUIRE_FALSE(d.ok());
      CHECK(d.diagnostics().front().code == ex.refusal);
      ++refused;
      continue;
    }
    if (!d.ok())
      for (const auto& diag : d.diagnostics()) UNSCOPED_INFO(render(diag, nullptr));
    REQUIRE(d.ok());
    std::vector<SeqEntry> want;
    for (const auto& [size, stride] : ex.config) want.push_back(SeqEntry{size, stride});
    CHECK(d->config.entries == want);
    CHECK(d->config.packet_size == ex.packet_size);
    CHECK(d->config.max_access_size == ex.max_access_size);

    auto walk = check_addresses(axes, buf, time, packet, d->config);
    INFO(walk.failure);
    CHECK(walk.failure.empty());
    CHECK(walk.max_offset + 1 == d->config.footprint());
    CHECK(walk.max_live_offset + 1 == d->live_footprint);
    CHECK(walk.live == d->live_positions);
    CHECK(d->live_footprint <= buf.size());

    if (ex.mode == SeqMode::Read) {
      auto dtype = ir::parse_scalar_type(ex.dtype, ir::ScalarNameSet::All);
      REQUIRE(dtype);
      auto f = check_fetch(*d, *dtype, FetchContext::Main);
      if (!f.ok())
        for (const auto& diag : f.diagnostics()) UNSCOPED_INFO(render(diag, nullptr));
      REQUIRE(f.ok());
      CHECK(f->over_read == ex.over_read);
      if (ex.read_size) CHECK(f->read_size == *ex.read_size);
      if (ex.cycles) CHECK(f->cycles == *ex.cycles);
    } else {
      const std::uint64_t written = ex.written ? ex.written : d->config.stream_size();
      CHECK(d->live_positions == written);
    }
    ++accepted;
  }
  CHECK(accepted == 22);
  CHECK(refused == 2);
}

TEST_CASE("a read may over-read top padding past the buffer, never live data", "[datapath]") {
  // The book's read_splitting: the last packet's C # 32 reaches offset 535 of a 512-element
  // buffer; the 24 cells past the end are C's top padding.
  const ir::AxisTable axes = axes_of("A=8,B=8,C=4");
  auto d = derive_sequencer(parse_m(axes, "A, B, C # 8"),
                            parse_m(axes, "A % 2, B % 4, A / 2, B / 4"), parse_m(axes, "C # 32"));
  REQUIRE(d.ok());
  CHECK(d->config.footprint() == 536);
  // The last live position is C = 3 of the last row: 64 + 3·8 + 3·128 + 32 + 3 = 507.
  CHECK(d->live_footprint == 508);
  auto f = check_fetch(*d, ir::ScalarType::I8, FetchContext::Main);
  REQUIRE(f.ok());
  CHECK(f->over_read == 24);
  CHECK(f->read_bytes == 32);
  // A live position past the buffer is still refused (a hand-made derivation: the buffer shrunk
  // below its own live cells, which no mapping can produce).
  SequencerDerivation shrunk = *d;
  shrunk.buffer_size = 500;
  auto refused = check_fetch(shrunk, ir::ScalarType::I8, FetchContext::Main);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.diagnostics().front().code == "E-FETCH-016");
}

TEST_CASE("a write drops its padded positions and still refuses what the reference refuses",
          "[datapath]") {
  const ir::AxisTable axes = axes_of("A=8,B=4,T=4");
  auto derive = [&](const char* buf, const char* time, const char* packet) {
    return derive_sequencer(parse_m(axes, buf), parse_m(axes, time), parse_m(axes, packet),
                            SeqMode::Write);
  };
  // Top, zero and bottom padding of the stream are all dropped.
  for (const char* p : {"A # 16", "A #{0} 16", "A #{!} 16"}) {
    INFO(p);
    auto d = derive("A # 16", "1", p);
    REQUIRE(d.ok());
    CHECK(d->live_positions == 8);
    CHECK(d->config.stream_size() == 16);
  }
  // Slicing leaves buffer cells unwritten; a broadcast writes one cell twice; live cells and
  // the buffer's zero padding (its zeros are a promise) must be written.
  CHECK(derive("A", "1", "A % 4 = 3, A / 4").diagnostics().front().code == "E-FETCH-018");
  CHECK(derive("A", "T", "A").diagnostics().front().code == "E-FETCH-017");
  CHECK(derive("A, B", "1", "A").diagnostics().front().code == "E-FETCH-019");
  CHECK(derive("A #{0} 16", "1", "A").diagnostics().front().code == "E-FETCH-019");
  CHECK(derive("A #{0} 16", "1", "A #{0} 16").diagnostics().front().code == "E-FETCH-019");
}

TEST_CASE("the book's tiling_read, tiling_write and read_splitting run on both engines",
          "[datapath][book][cli]") {
  for (const char* spec :
       {"specs/tiling_read.rs", "specs/tiling_write.rs", "specs/read_splitting.rs"}) {
    const std::string file = tujit::testing::source_path(spec);
    const auto check = tujit::testing::run_tujit({"check", file});
    INFO(spec << ": " << check.out << check.err);
    CHECK(check.status == 0);
    for (const char* engine : {"jit", "interp"}) {
      const auto r =
          tujit::testing::run_tujit({"run", file, "--engine", engine, "--verify", "--json"});
      INFO(engine << ": " << r.out << r.err);
      REQUIRE(r.status == 0);
      const auto j = r.json();
      CHECK(j["verify"]["engines_bit_exact"] == true);
      // The oracle: every element of the output is the input element with its coordinates.
      CHECK(j["verify"]["oracle_ok"] == true);
      // A read's over-read cells and a write's dropped positions are padding, never data.
      CHECK(j["verify"]["poisoned_outputs"] == 0);
    }
  }
}
