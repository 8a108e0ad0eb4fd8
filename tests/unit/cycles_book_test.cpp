// Every performance statement of the book (docs/contraction.md §10, docs/datapath.md §11.5) as a
// test of the analytic and the trace cycle models (harness/cycles/, docs/cycle-model.md).
#include "tests/unit/cycles_test_support.h"

#include "harness/cycles/model_params.h"
#include "ir/types/scalar_type.h"

#include <map>

using namespace tujit;
using namespace tujit::cycles_test;
using cycles::Stage;

TEST_CASE("PackSize 1 halves MAC utilisation", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/outer.md: PackSize 2 fills the 64 B
  // packet and uses all MACs; PackSize 1 fills 32 B.
  for (const std::string d : {"bf16", "i8"}) {
    INFO(d);
    const auto full = lower_text(chain_kernel(d, 8, 2, 8, 1));
    const auto half = lower_text(chain_kernel(d, 8, 1, 8, 1));
    REQUIRE(full.program.pack_size == 2);
    REQUIRE(half.program.pack_size == 1);
    const auto a2 = cycles::analytic_cycles(full.program, full.options);
    const auto a1 = cycles::analytic_cycles(half.program, half.options);
    CHECK(a2.mac_utilization == 1.0);
    CHECK(a1.mac_utilization == 0.5);
  }
  // The book's i8 fixtures: a 64 B and a 32 B OutPacket over 8 lanes.
  const auto s64 = lower_spec_file("specs/derived/valid_size_64.rs");
  const auto s32 = lower_spec_file("specs/derived/valid_size_32.rs");
  CHECK(cycles::analytic_cycles(s32.program).mac_utilization * 2 ==
        cycles::analytic_cycles(s64.program).mac_utilization);
}

TEST_CASE("Lane < 8 scales the tree and the Interleaved bus by Lane/8", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/packet-reducer.md / furiosa-opt
  // docs/src/computing-tensors/contraction-engine/lane-folder.md: the idle lanes' trees and bus
  // positions do no work; the packet and flit counts (the cycles) do not change.
  std::map<int, std::uint64_t> totals;
  for (int lanes : {1, 2, 4, 8}) {
    INFO("lanes " << lanes);
    const auto l = lower_text(chain_kernel("bf16", lanes, 2, 16, 1));
    const auto r = cycles::cycle_report(l.program, l.options);
    const double scale = lanes / 8.0;
    CHECK(r.analytic.mac_utilization == scale);
    CHECK(r.analytic.output_bus_utilization == scale);
    CHECK(stage(r.trace, Stage::ContractPacket).busy == 16); // one packet per cycle per lane
    CHECK(stage(r.trace, Stage::ContractLane).busy == 16);   // one flit per T2 position
    CHECK(r.trace.total == r.analytic.total);
    totals[lanes] = r.trace.total;
  }
  CHECK(totals[1] == totals[8]);
  CHECK(totals[2] == totals[8]);
  CHECK(totals[4] == totals[8]);
}

TEST_CASE("K-in-Time bf16 runs at 1/32 MAC utilisation", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/index.md: a one-element packet [1 #
  // 16] in bf16 uses 1 of 32 multipliers.
  const auto l = lower_spec_file("specs/bmatmul_k_in_time.rs");
  const auto a = cycles::analytic_cycles(l.program, l.options);
  CHECK(a.mac_utilization == 1.0 / 32);
  CHECK(a.bottleneck == Stage::ContractOuter);
}

TEST_CASE("Time broadcast re-uses a packet with no extra fetch", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/outer.md: broadcast factors re-use
  // the streaming packet without re-fetching it.
  for (int ps : {1, 2}) {
    INFO("PackSize " << ps);
    const auto once = lower_text(chain_kernel("bf16", 8, ps, 8, 1));
    const auto thrice = lower_text(chain_kernel("bf16", 8, ps, 8, 3));
    REQUIRE(thrice.program.time_broadcast == 3);
    const auto r1 = cycles::cycle_report(once.program, once.options);
    const auto r3 = cycles::cycle_report(thrice.program, thrice.options);
    // The same 8·PackSize flits are fetched; the MAC issues three packets per fetched one.
    CHECK(stage(r1.trace, Stage::Fetch).busy == std::uint64_t(8 * ps));
    CHECK(stage(r3.trace, Stage::Fetch).busy == std::uint64_t(8 * ps));
    CHECK(r3.analytic.stage_cycles[static_cast<std::size_t>(Stage::Fetch)] ==
          std::uint64_t(8 * ps));
    CHECK(stage(r3.trace, Stage::ContractOuter).busy == 24);
    // After the first packet's flits, the MAC never waits for the stream (TB ≥ PackSize).
    CHECK(r3.trace.mac_wait_stream == std::uint64_t(ps - 1));
    CHECK(r3.trace.total == r3.analytic.total);
  }
}

TEST_CASE("tree latency is 5 / 6 / 7 cycles by type", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/packet-reducer.md: 7 (i4), 6 (i8 /
  // f8), 5 (bf16); the trace's first accumulation follows the first packet by exactly that many
  // cycles.
  const std::vector<std::pair<std::string, std::uint64_t>> cases = {
      {"specs/derived/bf16_contract.rs", 5},   {"specs/derived/i8_contract.rs", 6},
      {"specs/derived/f8e4m3_contract.rs", 6}, {"specs/derived/f8e5m2_contract.rs", 6},
      {"specs/derived/i4_contract.rs", 7},     {"specs/derived/zero_point_sub_contract.rs", 6}};
  for (const auto& [file, latency] : cases) {
    INFO(file);
    const auto l = lower_spec_file(file);
    const auto r = cycles::cycle_report(l.program, l.options);
    CHECK(r.analytic.tree_latency == latency);
    CHECK(stage(r.trace, Stage::ContractPacket).first -
              stage(r.trace, Stage::ContractOuter).first ==
          latency);
  }
}

TEST_CASE("the book's batched matmuls: stream flits + tree latency + one output flit", "[cycles]") {
  // docs/contraction.md §10: cycles ≈ max(F_in, N_mac, N_out) + L_tree + drain. M/V in Time: 64
  // flits (PackSize 2 → 32 packets), bf16 tree 5, one output flit per packet: 64 + 5 + 1. K in
  // Time: 64 packets of one flit, the V/16 slot completes after its 32 K steps: 64 + 5 + 1.
  for (const char* f :
       {"specs/bmatmul_m_in_time.rs", "specs/bmatmul_v_in_time.rs", "specs/bmatmul_k_in_time.rs"}) {
    INFO(f);
    const auto l = lower_spec_file(f);
    const auto r = cycles::cycle_report(l.program, l.options);
    CHECK(r.analytic.total == 70);
    CHECK(r.trace.total == 70);
    CHECK(stage(r.trace, Stage::Fetch).busy == 64);
  }
  // M in Time is stream bound: the 64 B packet needs two flits (furiosa-opt
  // docs/src/computing-tensors/contraction-engine/outer.md).
  const auto m = lower_spec_file("specs/bmatmul_m_in_time.rs");
  CHECK(cycles::analytic_cycles(m.program).bottleneck == Stage::Fetch);
  CHECK(cycles::trace_cycles(m.program).bottleneck == Stage::Fetch);
}

TEST_CASE("the output bus bounds a kernel whose packets fan out into many flits", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/contraction-engine/lane-folder.md: one 8-element flit
  // per cycle. Sequential over 8 lanes sends 8 flits per T2 position, so 8 packets take 64 bus
  // cycles.
  const auto l = lower_text(chain_kernel("bf16", 8, 1, 8, 1, "Sequential"));
  const auto r = cycles::cycle_report(l.program, l.options);
  CHECK(stage(r.trace, Stage::ContractLane).busy == 64);
  CHECK(r.analytic.bottleneck == Stage::ContractLane);
  CHECK(r.trace.bottleneck == Stage::ContractLane);
  CHECK(r.trace.total == r.analytic.total);
}

namespace {

// Independent of the models: the packet-cycle issue times from the book's rates (one 32 B flit
// per cycle, PackSize flits per packet, a packet re-used TimeBroadcast cycles), the TRF read cache
// of furiosa-opt docs/src/computing-tensors/register-files.md (direct-mapped, 4 rows per bank) over
// the IR's address stream, and a store of one flit per cycle that loses every cycle a wide read
// misses.
struct StoreExpectation {
  std::uint64_t misses = 0, store_end = 0, blocked = 0;
};

StoreExpectation expect_store(const ir::seq::ContractionProgram& p, std::uint64_t fetch_latency) {
  std::map<std::uint64_t, bool> miss_at;        // issue cycle → miss
  std::map<std::uint64_t, std::uint64_t> cache; // set → row
  std::uint64_t prev = 0;
  ir::seq::CycleWalker w(p.cycle_nest);
  do {
    const std::uint64_t t = w.position();
    const std::uint64_t ready = fetch_latency + w.address().flit + p.pack_size - 1;
    const std::uint64_t issue = t == 0 ? ready : std::max(prev + 1, ready);
    prev = issue;
    const std::uint64_t byte = w.address().trf * ir::wire_bits(p.trf_type) / 8;
    const std::uint64_t row = byte / 64, set = row % 4;
    const bool hit = cache.count(set) && cache[set] == row;
    cache[set] = row;
    miss_at[issue] = !hit;
  } while (w.advance());
  StoreExpectation e;
  for (const auto& [c, m] : miss_at) e.misses += m ? 1 : 0;
  const std::uint64_t flits = p.lanes * p.element * ir::wire_bits(p.trf_type) / 256;
  std::uint64_t written = 0, c = 0;
  for (; written < flits; ++c) {
    if (miss_at.count(c) && miss_at[c]) {
      ++e.blocked;
      continue;
    }
    ++written;
  }
  e.store_end = c;
  return e;
}

} // namespace

TEST_CASE("narrow reads never block a store, wide reads block it on each miss", "[cycles]") {
  // furiosa-opt docs/src/computing-tensors/register-files.md "Double Buffering": a store fills one
  // half while the sequencer reads the other; a wide (64 B) read occupies both banks on a miss, a
  // narrow read alternates banks.
  std::uint64_t narrow_misses_during_store = 0, wide_checked = 0;
  for (const char* f :
       {"specs/bmatmul_k_in_time.rs", "specs/reduce_b.rs", "specs/derived/valid_double_tiling.rs",
        "specs/derived/valid_transposed_tiling.rs", "specs/derived/valid_single_tiling.rs",
        "specs/derived/i4_contract.rs", "specs/derived/weighted_sum.rs",
        "specs/derived/gemm_kernel.rs", "specs/derived/dot_product_kernel.rs",
        "specs/derived/fc1_matmul.rs", "specs/derived/proj_o.rs", "specs/bmatmul_m_in_time.rs"}) {
    INFO(f);
    auto l = lower_spec_file(f);
    l.options.concurrent_store = true;
    const auto t = cycles::trace_cycles(l.program, l.options);
    const std::uint64_t flits =
        l.program.lanes * l.program.element * ir::wire_bits(l.program.trf_type) / 256;
    if (!l.program.wide_read) {
      CHECK(t.trf_bank_conflicts == 0);
      CHECK(t.store_cycles == flits); // one flit per cycle, never held
      CHECK(stage(t, Stage::TrfStore).stall == 0);
      narrow_misses_during_store += t.trf_bank_alternations;
      continue;
    }
    REQUIRE(t.mac_wait_slot == 0); // the expectation assumes the MAC never waits for a slot
    const auto e = expect_store(l.program, l.options.fetch_adapter_latency);
    CHECK(t.trf_misses == e.misses);
    CHECK(t.trf_bank_conflicts == e.blocked);
    CHECK(t.store_cycles == e.store_end);
    CHECK(stage(t, Stage::TrfStore).stall == e.blocked);
    wide_checked += e.blocked > 0 ? 1 : 0;
  }
  CHECK(narrow_misses_during_store > 0); // narrow misses did hit the store's bank: not vacuous
  CHECK(wide_checked >= 3);
}

TEST_CASE("a cache hit frees the bank: broadcast re-reads never block the store", "[cycles]") {
  // M in Time reads one 64 B row per lane for every packet (M is a pure broadcast): one miss, then
  // hits, so a wide-read store loses exactly one cycle.
  auto l = lower_spec_file("specs/bmatmul_m_in_time.rs");
  REQUIRE(l.program.wide_read);
  l.options.concurrent_store = true;
  const auto t = cycles::trace_cycles(l.program, l.options);
  CHECK(t.trf_misses == 1);
  CHECK(t.trf_hits == 31);
  CHECK(t.trf_bank_conflicts <= 1);
}

TEST_CASE("the trace costs O(cycles): independent of lanes, packet size and slices", "[cycles]") {
  // The trace walks packet cycles, never MACs: bmatmul_m_in_time lays out 512 slice positions × 32
  // packets × 8 lanes × 32 products, the trace walks 70 cycles of one slice.
  const auto l = lower_spec_file("specs/bmatmul_m_in_time.rs");
  const auto t = cycles::trace_cycles(l.program, l.options);
  std::uint64_t steps = 0;
  for (const auto& s : t.stages) steps = std::max(steps, s.busy + s.stall);
  CHECK(steps <= t.total);
  CHECK(l.program.products_per_slice() * l.program.spatial > 1000 * t.total);
}
