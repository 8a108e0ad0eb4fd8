// The stream's DM fetch in the cycle models (docs/cycle-model.md M13): the Fetch Engine reads
// read_size elements per cycle, so a packet of reads_per_packet reads takes that many cycles
// (docs/datapath.md §5: cycles = |Time|·reads_per_packet). Expected values are worked out by hand
// from the spec, never read off the models.
#include "tests/unit/cycles_test_support.h"

#include "ir/seq/fetch_program.h"
#include "tests/support/checked.h"

using namespace tujit;
using namespace tujit::cycles_test;
using cycles::Stage;

namespace {

cycles::CycleOptions fetch_options(std::uint64_t read_size, std::uint64_t reads_per_packet,
                                   std::uint64_t flits_per_packet) {
  cycles::CycleOptions o;
  o.fetch_read_size = read_size;
  o.fetch_reads_per_packet = reads_per_packet;
  o.fetch_flits_per_packet = flits_per_packet;
  return o;
}

} // namespace

TEST_CASE("a stream fetch of 4 reads per flit bounds the chain at 4 cycles per flit", "[cycles]") {
  // bf16, PackSize 1, M = 16 in Time, 8 lanes: 16 stream flits, 16 packet cycles, 16 output
  // flits (P2 = 1, Interleaved), tree latency 5 (furiosa-opt
  // docs/src/computing-tensors/contraction-engine/packet-reducer.md, bf16).
  const auto l = lower_text(chain_kernel("bf16", 8, 1, 16, 1));
  REQUIRE(l.program.time == 16);
  REQUIRE(l.program.cycles == 16);
  REQUIRE(l.program.t3 == 16);
  const std::uint64_t flits = 16, tree = 5;
  // 8 B reads of a 32 B flit of bf16: read_size 4 elements, 4 reads per one-flit packet.
  const auto o = fetch_options(4, 4, 1);
  const auto a = cycles::analytic_cycles(l.program, o);
  const auto t = cycles::trace_cycles(l.program, o);
  // One read per cycle: the last flit's 4th read is in cycle 4·16 − 1 = 63; its packet issues in
  // that cycle (M1), leaves the tree 5 cycles later and its output flit takes the next cycle.
  const std::uint64_t expected = 4 * flits + tree + 1;
  CHECK(t.total >= 4 * flits);
  CHECK(t.total == expected);
  CHECK(a.total == expected);
  CHECK(stage(t, Stage::Fetch).busy == 4 * flits);
  CHECK(a.stage_cycles[static_cast<std::size_t>(Stage::Fetch)] == 4 * flits);
  CHECK(a.fetch_reads == 4 * flits);
  CHECK(t.bottleneck == Stage::Fetch);
  CHECK(a.bottleneck == Stage::Fetch);
  // The MAC waited for the stream on every packet cycle but the read-bound ones it issued in.
  CHECK(t.mac_wait_stream > 0);
  // Without the fetch (one flit per cycle) the same chain is MAC bound: 16 + 5 + 1.
  const auto base = cycles::trace_cycles(l.program);
  CHECK(base.total == flits + tree + 1);
  CHECK(base.bottleneck == Stage::ContractOuter);
}

TEST_CASE("a two-flit packet fetched in 4 reads arrives every 4 cycles", "[cycles]") {
  // bf16, PackSize 2, M = 16: 32 stream flits in 16 packets. 4 reads per packet of 2 flits: flit j
  // arrives with read ceil((j+1)·2), so packet n (flits 2n, 2n+1) is complete in cycle 4n + 3 and
  // issues then; the last (n = 15) in cycle 63, its output flit leaves in cycle 63 + 5 + 1.
  const auto l = lower_text(chain_kernel("bf16", 8, 2, 16, 1));
  REQUIRE(l.program.pack_size == 2);
  REQUIRE(l.program.time == 32);
  REQUIRE(l.program.cycles == 16);
  REQUIRE(l.program.t3 == 16);
  const auto o = fetch_options(8, 4, 2);
  const auto a = cycles::analytic_cycles(l.program, o);
  const auto t = cycles::trace_cycles(l.program, o);
  CHECK(t.total == 4 * 15 + 3 + 5 + 1 + 1);
  CHECK(a.total == t.total);
  CHECK(stage(t, Stage::Fetch).busy == 64);
  CHECK(t.bottleneck == Stage::Fetch);
  CHECK(a.bottleneck == Stage::Fetch);
}

TEST_CASE("a fetch with no more reads than flits keeps one flit per cycle", "[cycles]") {
  // The Stream Adapter takes one flit per cycle (furiosa-opt
  // docs/src/computing-tensors/contraction-engine/outer.md): a 32 B read of a one-flit packet, or
  // a packet read in fewer reads than its flits, does not speed the stream up.
  const auto l = lower_text(chain_kernel("bf16", 8, 2, 8, 1));
  const auto none = cycles::trace_cycles(l.program);
  for (const auto& o : {fetch_options(16, 1, 1), fetch_options(32, 1, 2), fetch_options(8, 2, 2)}) {
    CHECK(cycles::trace_cycles(l.program, o).total == none.total);
    CHECK(cycles::analytic_cycles(l.program, o).total == none.total);
  }
}

TEST_CASE("cycle_options_for takes the stream's fetch from its FetchProgram", "[cycles]") {
  auto file = ir::load_spec(spec_path("specs/derived/bf16_contract.rs"));
  REQUIRE(file);
  bool seen = false;
  for (const auto& k : file->kernels) {
    auto fetches = ir::seq::lower_fetches(testing::checked(k));
    REQUIRE(fetches);
    for (const auto& f : *fetches) {
      if (f.consumer != ir::seq::FetchConsumer::Stream) continue;
      const auto o = cycles::cycle_options_for(testing::checked(k));
      CHECK(o.fetch_read_size == f.read_size);
      CHECK(o.fetch_reads_per_packet == f.reads_per_packet);
      CHECK(o.fetch_flits_per_packet == f.flits_per_packet);
      // docs/datapath.md §5: a packet of |P| elements takes |P| / read_size reads.
      CHECK(f.read_size * f.reads_per_packet == f.packet);
      auto p = ir::seq::lower_contraction(testing::checked(k));
      REQUIRE(p);
      const auto r = cycles::cycle_report(*p, o);
      const std::string text = cycles::cycle_summary_text(r);
      CHECK(text.find(fmt::format("read size {} elements, {} reads per packet", f.read_size,
                                  f.reads_per_packet)) != std::string::npos);
      const auto j = cycles::cycle_report_json(r);
      REQUIRE(j["analytic"].contains("fetch"));
      CHECK(j["analytic"]["fetch"]["read_size"] == f.read_size);
      CHECK(j["analytic"]["fetch"]["reads_per_packet"] == f.reads_per_packet);
      seen = true;
      break;
    }
  }
  CHECK(seen);
  // A CollectTensor input has no fetch: no fetch block.
  const auto l = lower_text(chain_kernel("bf16", 8, 2, 8, 1));
  CHECK(l.options.fetch_read_size == 0);
  CHECK(!cycles::cycle_report_json(cycles::cycle_report(l.program, l.options))["analytic"].contains(
      "fetch"));
}
