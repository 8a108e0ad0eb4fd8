// The sequencer configuration derivation (docs/datapath.md §4): every worked configuration of
// §4.1 (S0–S10) with its entries, packet size, contiguous run and access size, the intermediate
// Buf states of the placeholder rule (S2, S3, S4, S5), the reference tests of §5, the book's
// fragment broadcast, and each refusal. Every derived configuration is also walked against the
// brute-force oracle (datapath_test_support.h).
#include "datapath_test_support.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/datapath/sequencer_config.h"
#include "ir/datapath/sequencer_derive.h"
#include "ir/mapping/factor.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::ir::datapath;
using tujit::testing::axes_of;
using tujit::testing::check_addresses;
using tujit::testing::parse_m;
using tujit::testing::seq_entries;

namespace {

struct Derived {
  ir::AxisTable axes;
  ir::Mapping buf, time, packet;
  Result<SequencerDerivation> result;
};

Derived derive(const std::string& axes_text, const std::string& buf, const std::string& time,
               const std::string& packet, SeqMode mode = SeqMode::Read) {
  ir::AxisTable axes = axes_of(axes_text);
  ir::Mapping b = parse_m(axes, buf), t = parse_m(axes, time), p = parse_m(axes, packet);
  auto r = derive_sequencer(b, t, p, mode);
  return Derived{axes, b, t, p, std::move(r)};
}

// The derivation succeeds and its loops read every live stream cell where the buffer holds it.
const SequencerDerivation& ok_and_walks(const Derived& d) {
  if (!d.result) {
    for (const auto& diag : d.result.diagnostics()) UNSCOPED_INFO(render(diag, nullptr));
  }
  REQUIRE(d.result.ok());
  auto walk = check_addresses(d.axes, d.buf, d.time, d.packet, d.result->config);
  INFO(walk.failure);
  CHECK(walk.failure.empty());
  CHECK(walk.max_offset + 1 == d.result->config.footprint());
  return *d.result;
}

std::string code_of(const Derived& d) {
  REQUIRE_FALSE(d.result.ok());
  REQUIRE(!d.result.diagnostics().empty());
  return d.result.diagnostics().front().code;
}

// The Buf after step `i` is the book's intermediate state (compared cell by cell).
void check_buf_after(const Derived& d, std::size_t i, const std::string& expected) {
  REQUIRE(d.result.ok());
  REQUIRE(i < d.result->steps.size());
  const ir::Mapping got = ir::render(d.result->steps[i].buf_after);
  INFO("after term " << d.result->steps[i].term << ": got " << got.to_string() << ", book "
                     << expected);
  CHECK(ir::equivalent_by_map(got, parse_m(d.axes, expected)));
}

} // namespace

TEST_CASE("S0: the book's given configuration: contiguous_run 768, max_access 8", "[datapath]") {
  const SequencerConfig c = make_config(seq_entries({{4, 192}, {3, 64}, {8, 8}, {8, 1}}), 8);
  CHECK(c.contiguous_run == 768);
  CHECK(c.max_access_size == 8);
  CHECK(c.to_string() == "[4:192, 3:64, 8:8, 8:1] : 8");
  CHECK(c.stream_size() == 768);
  CHECK(c.footprint() == 768);
  // Nested loops, address = Σ iⱼ·sⱼ: position 1·(3·8·8) + 2·64 + 5·8 + 7 → 192 + 128 + 40 + 7.
  CHECK(c.offset_at(1 * 192 + 2 * 64 + 5 * 8 + 7) == 192 + 128 + 40 + 7);
}

TEST_CASE("S1: axis reordering [N,C,H,W] -> [W,H,C,N] / [1]", "[datapath]") {
  auto d = derive("N=4,C=3,H=8,W=8", "N, C, H, W", "W, H, C, N", "1");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{8, 1}, {8, 8}, {3, 64}, {4, 192}}));
  CHECK(s.config.packet_size == 1);
  CHECK(s.config.max_access_size == 1); // one access per iteration
  // addr = w + 8h + 64c + 192n at iteration (w, h, c, n)
  CHECK(s.config.offset_at(((5 * 8 + 3) * 3 + 2) * 4 + 1) == 5 + 8 * 3 + 64 * 2 + 192 * 1);
}

TEST_CASE("S2: transposing axes, with the intermediate Buf states", "[datapath]") {
  auto d = derive("A=8,B=8,C=8", "A, B, C # 32", "B, A", "C # 16");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{8, 32}, {8, 256}, {16, 1}}));
  CHECK(s.config.packet_size == 16);
  CHECK(s.config.max_access_size == 16);
  REQUIRE(s.steps.size() == 3);
  check_buf_after(d, 0, "A, 1 # 8, C # 32");
  check_buf_after(d, 1, "1 # 64, C # 32");
  check_buf_after(d, 2, "1 # 2048");
  // The over-read of C # 16 stays inside the C # 32 rows: the fetch is accepted.
  auto f = check_fetch(s, ir::ScalarType::I8, FetchContext::Main);
  REQUIRE(f.ok());
  CHECK(f->read_bytes == 16);
}

TEST_CASE("S3: splitting axes, with the intermediate Buf states", "[datapath]") {
  auto d = derive("A=8,B=8,C=4", "A, B, C # 8", "A % 2, B % 4, A / 2, B / 4", "C # 32");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{2, 64}, {4, 8}, {4, 128}, {2, 32}, {32, 1}}));
  CHECK(s.config.packet_size == 32);
  CHECK(s.config.max_access_size == 32);
  CHECK_FALSE(s.merged); // the book keeps the mergeable 2:32, 32:1 apart (≤ 8 entries)
  REQUIRE(s.steps.size() == 5);
  check_buf_after(d, 0, "A / 2, 1 # 2, B, C # 8");
  check_buf_after(d, 1, "A / 2, 1 # 2, B / 4, 1 # 4, C # 8");
  check_buf_after(d, 2, "1 # 8, B / 4, 1 # 4, C # 8");
  check_buf_after(d, 3, "1 # 64, C # 8");
  check_buf_after(d, 4, "1 # 512");
  // The last packet's C # 32 reads 24 elements past the 512-element buffer (offset 535): C's
  // top padding only, which a read may over-read (the reference's Read carving treats stream
  // padding as don't-care); the live positions end at offset 507.
  CHECK(s.config.footprint() == 536);
  CHECK(s.live_footprint == 508);
  auto f = check_fetch(s, ir::ScalarType::I8, FetchContext::Main);
  REQUIRE(f.ok());
  CHECK(f->over_read == 24);
  CHECK(f->read_bytes == 32);
}

TEST_CASE("S4: slicing with `= k`, with the intermediate Buf states", "[datapath]") {
  auto d = derive("A=16,B=8,C=8", "A, B, C", "A / 4, A % 4 = 3, B / 4, B % 4 = 2", "C");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{4, 256}, {3, 64}, {2, 32}, {2, 8}, {8, 1}}));
  CHECK(s.config.packet_size == 8);
  CHECK(s.config.max_access_size == 8);
  check_buf_after(d, 0, "1 # 4, A % 4, B, C");
  check_buf_after(d, 1, "1 # 16, B, C"); // the whole A % 4 fragment, though only 3 are read
  check_buf_after(d, 2, "1 # 32, B % 4, C");
  check_buf_after(d, 3, "1 # 128, C");
  check_buf_after(d, 4, "1 # 1024");
}

TEST_CASE("S5: temporal and spatial broadcast", "[datapath]") {
  auto d = derive("A=16,T=4,P=4", "A", "T, A", "P");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{4, 0}, {16, 1}, {4, 0}}));
  CHECK(s.config.packet_size == 4);
  CHECK(s.config.max_access_size == 4);
  REQUIRE(s.steps.size() == 3);
  CHECK(s.steps[0].broadcast);
  CHECK_FALSE(s.steps[1].broadcast);
  CHECK(s.steps[2].broadcast);
  check_buf_after(d, 0, "A");
  check_buf_after(d, 1, "1 # 16");
  check_buf_after(d, 2, "1 # 16");
}

TEST_CASE("S6: 9 raw entries merge to 6, across the time/packet boundary", "[datapath]") {
  auto d = derive("N=8,C=8,H=8,W=32", "N, C, H, W",
                  "W / 16, H % 2, H / 2, C / 2, C % 2, N / 2, N % 2, W / 8 % 2", "W % 8");
  const auto& s = ok_and_walks(d);
  CHECK(s.raw_entries ==
        seq_entries(
            {{2, 16}, {2, 32}, {4, 64}, {4, 512}, {2, 256}, {4, 4096}, {2, 2048}, {2, 8}, {8, 1}}));
  CHECK(s.time_entries == 8);
  CHECK(s.merged);
  CHECK(s.config.entries == seq_entries({{2, 16}, {2, 32}, {4, 64}, {8, 256}, {8, 2048}, {16, 1}}));
  CHECK(s.config.packet_size == 8);
  CHECK(s.config.max_access_size == 8);
}

TEST_CASE("S7: a write into a padded buffer: 4 accesses of 8", "[datapath]") {
  auto d = derive("A=4,B=8", "A, B # 16", "1", "A, B", SeqMode::Write);
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{4, 16}, {8, 1}}));
  CHECK(s.config.packet_size == 32);
  CHECK(s.config.contiguous_run == 8);
  CHECK(s.config.max_access_size == 8);
  CHECK(s.config.packet_size / s.config.max_access_size == 4);
}

TEST_CASE("S8 and S9: contiguous and non-contiguous packets", "[datapath]") {
  auto s8 = derive("N=4,C=3,H=4,W=8", "N, C, H, W", "N, C, H", "W");
  const auto& a = ok_and_walks(s8);
  CHECK(a.config.entries == seq_entries({{4, 96}, {3, 32}, {4, 8}, {8, 1}}));
  CHECK(a.config.packet_size == 8);
  CHECK(a.config.contiguous_run == 384);
  CHECK(a.config.max_access_size == 8);

  auto s9 = derive("N=4,C=3,H=4,W=8", "N, C, H, W", "C", "N, H, W");
  const auto& b = ok_and_walks(s9);
  CHECK(b.config.entries == seq_entries({{3, 32}, {4, 96}, {4, 8}, {8, 1}}));
  CHECK(b.config.packet_size == 128);
  CHECK(b.config.contiguous_run == 32);
  CHECK(b.config.max_access_size == 32);
  CHECK(b.config.packet_size / b.config.max_access_size == 4); // 4 accesses per packet
}

TEST_CASE("S10: strided read of an 8x512 buffer in 128 steps", "[datapath]") {
  auto d = derive("A=8,B=512", "A, B", "A, B / 32", "B % 32");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{8, 512}, {16, 32}, {32, 1}}));
  CHECK(s.config.packet_size == 32);
  CHECK(s.config.contiguous_run == 4096);
  CHECK(s.config.max_access_size == 32);
  CHECK(s.time_size == 128);
}

TEST_CASE("fragment broadcast: Buf N % 512 read as N / 512 / N % 512 (furiosa-opt "
          "docs/src/moving-tensors/sequencer.md)",
          "[datapath]") {
  auto d = derive("N=2048", "N % 512", "N / 512", "N % 512");
  REQUIRE(d.result.ok());
  CHECK(d.result->config.entries == seq_entries({{4, 0}, {512, 1}}));
  CHECK(d.result->steps[0].broadcast);
}

TEST_CASE("reference fetch tests (docs/datapath.md §5, R)", "[datapath]") {
  // identity read [A, B] -> [A] / [B]
  auto id = derive("A=8,B=8", "A, B", "A", "B");
  CHECK(ok_and_walks(id).config.entries == seq_entries({{8, 8}, {8, 1}}));
  // transposed read [B] / [A]
  auto tr = derive("A=8,B=8", "A, B", "B", "A");
  CHECK(ok_and_walks(tr).config.entries == seq_entries({{8, 1}, {8, 8}}));
  // L = 16 split as [L / 8] / [L % 8] stays two entries
  auto split = derive("L=16", "L", "L / 8", "L % 8");
  CHECK(ok_and_walks(split).config.entries == seq_entries({{2, 8}, {8, 1}}));
  // a literal broadcast OutTime m![4] is one stride-0 entry
  auto lit = derive("A=8", "A", "4", "A");
  const auto& l = ok_and_walks(lit);
  CHECK(l.config.entries == seq_entries({{4, 0}, {8, 1}}));
  CHECK(l.steps[0].broadcast);
  // a live input Time: Buf = Time ⊗ Packet
  auto live = derive("A=8,B=8", "A, B", "A", "B");
  CHECK(ok_and_walks(live).config.entries == seq_entries({{8, 8}, {8, 1}}));
}

TEST_CASE("a term the buffer holds in pieces reads as one loop per piece", "[datapath]") {
  // Buf splits A = 15 as A % 5 (outer), A / 5 (inner); reading the whole A needs both digits.
  auto d = derive("A=15", "A % 5, A / 5", "A", "1");
  const auto& s = ok_and_walks(d);
  CHECK(s.config.entries == seq_entries({{3, 1}, {5, 3}}));
  // A padded group is one loop when its digits are linear in memory (F6's `[B, C] # 16`).
  auto g = derive("A=3,B=5,C=2", "A, B, C", "A", "[B, C] # 16");
  CHECK(ok_and_walks(g).config.entries == seq_entries({{3, 10}, {16, 1}}));
}

TEST_CASE("refusal: incompatible decompositions name the axis", "[datapath]") {
  // docs/datapath.md §4 (D): Buf A % 5, A / 5 read as A % 3, A / 3 with A = 15.
  auto d = derive("A=15", "A % 5, A / 5", "1", "A % 3, A / 3");
  CHECK(code_of(d) == "E-FETCH-010");
  const Diagnostic& diag = d.result.diagnostics().front();
  CHECK(diag.stage == "fetch");
  CHECK(diag.message.find("axis A") != std::string::npos);
  CHECK(diag.notes.front() == "rule: IncompatibleDecomposition");
}

TEST_CASE("refusal: a fragment read by two stream terms", "[datapath]") {
  auto d = derive("A=8,B=4", "A, B", "A", "A");
  CHECK(code_of(d) == "E-FETCH-011");
  CHECK(d.result.diagnostics().front().message.find("axis A") != std::string::npos);
}

TEST_CASE("refusal: more than 8 entries after merging", "[datapath]") {
  // Nine 2-value axes read in reverse order: no adjacent pair is contiguous.
  auto d = derive("A=2,B=2,C=2,D=2,E=2,F=2,G=2,H=2,I=2", "A, B, C, D, E, F, G, H, I",
                  "I, H, G, F, E, D, C, B", "A");
  CHECK(code_of(d) == "E-FETCH-013");
  // Nine entries that do merge fit (S6 covers the book's case): an in-order read is one loop.
  auto in_order = derive("A=2,B=2,C=2,D=2,E=2,F=2,G=2,H=2,I=2", "A, B, C, D, E, F, G, H, I",
                         "A, B, C, D, E, F, G, H", "I");
  const auto& s = ok_and_walks(in_order);
  CHECK(s.raw_entries.size() == 9);
  CHECK(s.config.entries == seq_entries({{512, 1}}));
}

TEST_CASE("refusal: a loop of more than 65,536 iterations", "[datapath]") {
  auto d = derive("A=131072", "A", "A", "1");
  CHECK(code_of(d) == "E-FETCH-014");
  // 65,536 is the limit itself; a split term fits.
  auto ok = derive("A=65536", "A", "A", "1");
  CHECK(ok.result.ok());
  auto split = derive("A=131072", "A", "A / 256, A % 256", "1");
  CHECK(split.result.ok());
}

TEST_CASE("refusal: a padded group that is not one contiguous run", "[datapath]") {
  // Buf B, A: A is contiguous, B strided; the stream's [A, B] # 36 cannot be one loop.
  auto d = derive("A=4,B=8", "B, A", "1", "[A, B] # 36");
  CHECK(code_of(d) == "E-FETCH-012");
  // # 40 is tiled by the inner loop of 8: the outer loop over-reads.
  auto ok = derive("A=4,B=8", "B, A", "1", "[A, B] # 40");
  CHECK(ok_and_walks(ok).config.entries == seq_entries({{5, 1}, {8, 4}}));
}

TEST_CASE("refusal: zero padding in a read stream", "[datapath]") {
  auto d = derive("A=8", "A", "1", "A #{0} 16");
  CHECK(code_of(d) == "E-FETCH-018");
}

TEST_CASE("write mode: broadcast, slicing and unwritten cells are refused", "[datapath]") {
  // furiosa-opt docs/src/moving-tensors/sequencer.md broadcasting_write: Buf [A] written from Time
  // [T, A] / Packet [P].
  auto bw = derive("A=8,T=4,P=4", "A", "T, A", "P", SeqMode::Write);
  CHECK(code_of(bw) == "E-FETCH-017");
  auto slice = derive("A=8", "A", "1", "A = 5", SeqMode::Write);
  CHECK(code_of(slice) == "E-FETCH-018");
  auto quarter = derive("A=8", "A", "1", "A = 4", SeqMode::Write);
  CHECK(code_of(quarter) == "E-FETCH-018");
  // A buffer that holds just the slice (a commit after a trim that keeps part of an axis,
  // docs/output-path.md §2.1) is filled by it: 5 rows of B, then A's first 5, one cell each.
  auto exact = derive("A=8,B=3", "B, A = 5", "B", "A = 5", SeqMode::Write);
  const SequencerDerivation& e = ok_and_walks(exact);
  CHECK(e.live_positions == 15);
  CHECK(e.config.footprint() == 15);
  // Stream padding is dropped: only the 8 live positions are written.
  auto pad = derive("A=8", "A # 16", "1", "A # 16", SeqMode::Write);
  CHECK(ok_and_walks(pad).live_positions == 8);
  auto part = derive("A=8,B=4", "A, B", "1", "A", SeqMode::Write);
  CHECK(code_of(part) == "E-FETCH-019");
  // The book's axis-reordering write: the same loops as the read.
  auto w = derive("N=4,C=3,H=8,W=8", "N, C, H, W", "W, H, C, N", "1", SeqMode::Write);
  CHECK(ok_and_walks(w).config.entries == seq_entries({{8, 1}, {8, 8}, {3, 64}, {4, 192}}));
}

TEST_CASE("merge_contiguous and contiguous_run on their own", "[datapath]") {
  // (n1:s1), (n2:s2) merge when s1 == n2·s2; broadcasts merge with broadcasts.
  CHECK(merge_contiguous(seq_entries({{4, 512}, {2, 256}}), 65536) == seq_entries({{8, 256}}));
  CHECK(merge_contiguous(seq_entries({{2, 0}, {3, 0}}), 65536) == seq_entries({{6, 0}}));
  CHECK(merge_contiguous(seq_entries({{2, 32}, {4, 64}}), 65536) ==
        seq_entries({{2, 32}, {4, 64}}));
  // A merge past the loop limit is skipped.
  CHECK(merge_contiguous(seq_entries({{512, 256}, {256, 1}}), 65536) ==
        seq_entries({{512, 256}, {256, 1}}));
  // A strided innermost entry has a run of one element.
  CHECK(contiguous_run(seq_entries({{8, 1}, {4, 8}})) == 1);
  CHECK(contiguous_run(seq_entries({{4, 0}, {16, 1}, {4, 0}})) == 4);
  CHECK(contiguous_run({}) == 1);
}

TEST_CASE("for_each_offset walks the loops in stream order", "[datapath]") {
  const SequencerConfig c = make_config(seq_entries({{4, 0}, {3, 64}, {2, 32}, {5, 1}}), 5);
  std::uint64_t count = 0;
  bool same = true;
  for_each_offset(c, [&](std::uint64_t pos, std::uint64_t off) {
    same = same && pos == count && off == c.offset_at(pos);
    ++count;
  });
  CHECK(same);
  CHECK(count == 4 * 3 * 2 * 5);
  // The empty nest reads address 0 once.
  std::uint64_t empty = 0;
  for_each_offset(make_config({}, 1), [&](std::uint64_t, std::uint64_t off) {
    CHECK(off == 0);
    ++empty;
  });
  CHECK(empty == 1);
}
