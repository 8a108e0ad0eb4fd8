// The Sequencer IR (ir/seq/): the cycle nest's counters walk every packet cycle in order with
// affine addresses; on every corpus kernel the nest's stream-flit and slot address streams name
// exactly the cells the normative coordinate definitions name (docs/contraction.md §5.1, §7); the
// fingerprint separates programs that differ.
#include "tests/support/corpus_programs.h"
#include "tests/unit/interp_test_support.h"

#include "ir/seq/contraction_program.h"
#include "ir/seq/lower_contraction.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

namespace fs = std::filesystem;
using namespace tujit;
using namespace tujit::testing::interp;

TEST_CASE("seq: the cycle walker visits cycles in order with Σ digit·stride addresses", "[seq]") {
  std::mt19937_64 rng(20261129);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<ir::seq::CycleLoop> nest(1 + rng() % 5);
    std::uint64_t total = 1;
    for (auto& l : nest) {
      l.size = 1 + rng() % 4;
      l.flit_stride = rng() % 7;
      l.trf_stride = rng() % 9;
      l.slot_stride = rng() % 3;
      total *= l.size;
    }
    ir::seq::CycleWalker walk(nest);
    std::uint64_t visited = 0;
    do {
      REQUIRE(walk.position() == visited);
      // Brute force: the mixed-radix digits of the position, innermost loop fastest.
      std::uint64_t rest = visited, flit = 0, trf = 0, slot = 0;
      for (auto it = nest.rbegin(); it != nest.rend(); ++it) {
        const std::uint64_t d = rest % it->size;
        rest /= it->size;
        flit += d * it->flit_stride;
        trf += d * it->trf_stride;
        slot += d * it->slot_stride;
      }
      CHECK(walk.address().flit == flit);
      CHECK(walk.address().trf == trf);
      CHECK(walk.address().slot == slot);
      ++visited;
    } while (walk.advance());
    CHECK(visited == total);
  }
}

TEST_CASE("seq: every corpus kernel's address streams match the coordinate definitions", "[seq]") {
  // §5.1: OP cell p of packet cycle t multiplies the stream element whose coordinates equal
  // OT(t) ∪ OP(p) on the stream's digits; §7: cycle t accumulates into the T2 position whose
  // coordinates equal OT(t)'s on T2's digits. Checked cell by cell against the nest's streams.
  std::size_t programs = 0;
  for (const auto& p : testing::corpus_programs()) {
    INFO(p.kernel_name);
    const auto& m = p.m;
    auto space = DigitSpace::of({m.time, m.packet, m.out_time, m.out_packet, m.t2});
    if (!space) continue; // composite atoms: outside what the brute force handles
    ++programs;
    const auto cs = space->coverage({m.time, m.packet});
    const auto ct = space->coverage({m.t2});
    std::uint64_t checked = 0, bad = 0;
    ir::seq::CycleWalker walk(p.cycle_nest);
    do {
      const std::uint64_t t = walk.position();
      const ir::Cell ot = m.out_time.map(t);
      REQUIRE(p.is_cycle_live(t) == ot.is_live());
      if (!ot.is_live()) continue;
      const auto& a = walk.address();
      REQUIRE(a.slot < p.t2);
      const ir::Cell u = m.t2.map(a.slot);
      ++checked;
      if (!u.is_live() || space->digits_of(u, ct) != space->digits_of(ot, ct)) ++bad;
      for (std::uint64_t x = 0; x < p.columns * p.group; ++x) {
        const ir::Cell want = ir::combine(ot, m.out_packet.map(x));
        if (!want.is_live()) continue;
        const std::uint64_t f = a.flit + x / p.packet;
        REQUIRE(f < p.time);
        const ir::Cell got = ir::combine(m.time.map(f), m.packet.map(x % p.packet));
        ++checked;
        if (!got.is_live() || space->digits_of(got, cs) != space->digits_of(want, cs)) ++bad;
      }
    } while (walk.advance());
    CHECK(checked > 0);
    CHECK(bad == 0);
  }
  CHECK(programs >= 20);
}

TEST_CASE("seq: the nest's sizes cover |OT| and the reduced digits carry no slot stride", "[seq]") {
  for (const auto& p : testing::corpus_programs()) {
    INFO(p.kernel_name);
    std::uint64_t cells = 1;
    for (const auto& l : p.cycle_nest) cells *= l.size;
    CHECK(cells == p.cycles);
    CHECK(p.cycles == p.m.out_time.size());
    // Slots reached = |T2| live positions at most; a kernel without time reduction keeps one
    // slot per live cycle.
    std::set<std::uint64_t> slots;
    std::uint64_t live_cycles = 0;
    ir::seq::CycleWalker walk(p.cycle_nest);
    do {
      if (!p.is_cycle_live(walk.position())) continue;
      ++live_cycles;
      slots.insert(walk.address().slot);
    } while (walk.advance());
    CHECK(slots.size() <= p.t2);
    if (p.m.t2.size() == p.m.out_time.size()) CHECK(slots.size() == live_cycles);
  }
}

TEST_CASE("seq: the fingerprint is stable and separates programs", "[seq]") {
  const auto programs = testing::corpus_programs();
  REQUIRE(programs.size() >= 20);
  const auto again = testing::corpus_programs();
  REQUIRE(again.size() == programs.size());
  std::set<std::uint64_t> seen;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    CHECK(ir::seq::fingerprint(programs[i]) == ir::seq::fingerprint(again[i]));
    seen.insert(ir::seq::fingerprint(programs[i]));
  }
  // Every single-field change of a program changes its fingerprint.
  const ir::seq::ContractionProgram& base = programs.front();
  const std::uint64_t h = ir::seq::fingerprint(base);
  std::vector<ir::seq::ContractionProgram> variants(6, base);
  variants[0].cycle_nest.front().trf_stride += 1;
  variants[1].accumulator =
      base.accumulator == ir::ScalarType::F32 ? ir::ScalarType::I32 : ir::ScalarType::F32;
  variants[2].lane_live[0] ^= 1;
  variants[3].drain[0] = base.drain[0] == -1 ? 0 : -1;
  variants[4].mode =
      base.mode == ir::LaneMode::Interleaved ? ir::LaneMode::Sequential : ir::LaneMode::Interleaved;
  variants[5].stream_dense = !base.stream_dense;
  for (const auto& v : variants) CHECK(ir::seq::fingerprint(v) != h);
  // Distinct corpus programs (by their printed form) have distinct fingerprints.
  std::set<std::string> texts;
  for (auto p : programs) {
    p.kernel_name.clear();
    texts.insert(ir::seq::to_text(p));
  }
  CHECK(seen.size() >= texts.size());
}

TEST_CASE("seq: a kernel without a contraction chain is refused with E-RUN-101", "[seq]") {
  auto file = ir::load_spec((fs::path(TUJIT_SOURCE_DIR) / "specs" / "store.rs").string());
  REQUIRE(file.ok());
  REQUIRE(!file->kernels.empty());
  for (const auto& kernel : file->kernels) {
    auto p = ir::seq::lower_contraction(testing::checked(kernel));
    REQUIRE_FALSE(p.ok());
    CHECK(p.diagnostics().front().code == "E-RUN-101");
  }
}
