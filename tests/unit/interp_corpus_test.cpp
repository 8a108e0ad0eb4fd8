// Every kernel of specs/*.rs and specs/derived/*.rs whose chain is a contraction or a
// register-file store runs in the reference interpreter on seeded random device images and
// matches an independent brute-force einsum over the images (interp_test_support.h).
#include "tests/support/spec_corpus.h"
#include "tests/unit/interp_test_support.h"

#include "runtime/interp/interpreter.h"
#include "tests/support/checked.h"
#include "tests/support/register_store.h"

#include <fmt/format.h>

#include <filesystem>

namespace fs = std::filesystem;
using namespace tujit;
using namespace tujit::testing::interp;

namespace {

std::vector<fs::path> corpus() {
  return tujit::testing::spec_corpus();
}

// A live destination cell of a store holds the value of the live source cell with the same
// coordinates (docs/contraction.md §4.2, §4.3), found by coordinates only.
void check_store(const ir::Stage& st, std::uint64_t seed) {
  using ir::Slot;
  const auto spatial = spatial_liveness(
      st.input.mapping(Slot::Chip), st.input.mapping(Slot::Cluster), st.input.mapping(Slot::Slice));
  const ir::Mapping& time = st.input.mapping(Slot::Time);
  const ir::Mapping& packet = st.input.mapping(Slot::Packet);
  const DeviceImage stream = fill_image(st.input.dtype, spatial, time, packet, seed);
  auto out = testing::run_store(st, stream);
  if (!out)
    for (const auto& d : out.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(out.ok());
  const bool trf = st.op == ir::StageOp::ToTrf;
  const ir::Mapping outer = trf ? st.output.mapping(Slot::Lane) : ir::Mapping();
  const ir::Mapping& element = st.output.mapping(Slot::Element);
  REQUIRE(out->outer == outer.size());
  REQUIRE(out->inner == element.size());
  // Source position of every live coordinate (the cells do not depend on the slice).
  std::map<ir::Index, std::uint64_t> src;
  for (std::uint64_t f = 0; f < time.size(); ++f)
    for (std::uint64_t e = 0; e < packet.size(); ++e) {
      const ir::Cell c = ir::combine(time.map(f), packet.map(e));
      if (!c.is_live()) continue;
      ir::Index k;
      for (const auto& [a, v] : c.index)
        if (v != 0) k[a] = v;
      src.emplace(k, f * packet.size() + e);
    }
  // Per destination cell: its source position, -1 for padding, -2 for a live cell without one.
  std::vector<std::int64_t> from(outer.size() * element.size(), -1);
  for (std::uint64_t o = 0; o < outer.size(); ++o)
    for (std::uint64_t a = 0; a < element.size(); ++a) {
      const ir::Cell c = ir::combine(outer.map(o), element.map(a));
      if (!c.is_live()) continue;
      ir::Index key;
      for (const auto& [ax, v] : c.index)
        if (v != 0) key[ax] = v;
      auto it = src.find(key);
      from[o * element.size() + a] = it == src.end() ? -2 : static_cast<std::int64_t>(it->second);
    }
  std::uint64_t bad = 0, live = 0;
  const std::uint64_t per_slice = time.size() * packet.size();
  for (std::uint64_t s = 0; s < spatial.size(); ++s) {
    if (!spatial[s]) continue;
    for (std::uint64_t d = 0; d < from.size(); ++d) {
      const std::uint64_t k = s * from.size() + d;
      if (from[d] == -1) {
        if (out->state[k] == CellState::Live) ++bad;
        if (!trf && (out->state[k] != CellState::Zero || out->bits[k] != 0)) ++bad;
        continue;
      }
      ++live;
      if (from[d] < 0) {
        ++bad;
        continue;
      }
      const std::uint64_t sk = s * per_slice + static_cast<std::uint64_t>(from[d]);
      if (out->state[k] != CellState::Live || out->bits[k] != stream.bits[sk]) ++bad;
    }
  }
  CHECK(live > 0);
  CHECK(bad == 0);
}

} // namespace

TEST_CASE("interp corpus: every contraction and store kernel matches a brute-force einsum",
          "[interp]") {
  std::size_t contractions = 0, stores = 0, skipped = 0;
  std::uint64_t seed = 1;
  for (const auto& path : corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      INFO(path.filename().string() << " :: " << kernel.name);
      for (const auto& st : kernel.stages)
        if (st.op == ir::StageOp::ToTrf || st.op == ir::StageOp::ToVrf) {
          check_store(st, ++seed);
          ++stores;
        }
      auto plan = ir::seq::lower_contraction(testing::checked(kernel));
      if (!plan) {
        // Only kernels without a complete chain may be refused.
        for (const auto& d : plan.diagnostics()) {
          INFO(render(d, nullptr));
          CHECK(d.code == "E-RUN-101");
        }
        continue;
      }
      const auto& m = plan->m;
      const auto spatial = spatial_liveness(m.chip, m.cluster, m.slice);
      const DeviceImage stream = fill_image(plan->stream_type, spatial, m.time, m.packet, ++seed);
      const DeviceImage trf = fill_image(plan->trf_type, spatial, m.lane, m.element, ++seed);
      auto expected = brute_force(m, stream, trf);
      if (!expected) {
        ++skipped;
        WARN("brute force cannot describe " << path.filename().string());
        continue;
      }
      auto r = run_images(*plan, stream, trf);
      REQUIRE(r.ok());
      const DeviceImage& out = r->output;
      REQUIRE(out.cells() == expected->live.size());
      std::uint64_t bad = 0, live = 0;
      for (std::size_t i = 0; i < out.cells(); ++i) {
        if (expected->live[i]) {
          ++live;
          const std::uint32_t want = expected_bits(plan->accumulator, *expected, i);
          if (out.state[i] != CellState::Live || out.bits[i] != want) {
            if (bad < 4)
              UNSCOPED_INFO(fmt::format("cell {}: got {:#x} want {:#x}", i, out.bits[i], want));
            ++bad;
          }
        } else if (out.state[i] == CellState::Live || out.bits[i] != 0) {
          ++bad;
        }
      }
      CHECK(live > 0);
      CHECK(bad == 0);
      CHECK(r->poison.poisoned_outputs == 0);
      CHECK(r->simulated_macs > 0);
      ++contractions;
    }
  }
  INFO("contractions " << contractions << ", stores " << stores << ", skipped " << skipped);
  CHECK(skipped == 0);
  CHECK(contractions >= 20);
  CHECK(stores >= 20);
}

TEST_CASE("interp corpus: the TRF Sequencer loop addresses equal the normative TRF element",
          "[interp]") {
  // docs/contraction.md §5.2: OP cell p of packet cycle t in lane l reads element addr(t) + (p mod
  // RS); normatively it is the element of lane l whose coordinates equal those of Lane(l) ∪ OT(t) ∪
  // OP(p) on the TRF's digits. Brute force over every corpus plan.
  std::size_t plans = 0;
  for (const auto& path : corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      auto plan = ir::seq::lower_contraction(testing::checked(kernel));
      if (!plan) continue;
      INFO(path.filename().string());
      const auto& m = plan->m;
      auto space = DigitSpace::of({m.lane, m.element, m.out_time, m.out_packet});
      REQUIRE(space.has_value());
      const auto cw = space->coverage({m.lane, m.element});
      std::vector<ir::Cell> lane, ot, op, el;
      for (std::uint64_t i = 0; i < m.lane.size(); ++i) lane.push_back(m.lane.map(i));
      for (std::uint64_t i = 0; i < m.out_time.size(); ++i) ot.push_back(m.out_time.map(i));
      for (std::uint64_t i = 0; i < m.out_packet.size(); ++i) op.push_back(m.out_packet.map(i));
      for (std::uint64_t i = 0; i < m.element.size(); ++i) el.push_back(m.element.map(i));
      // The TRF address stream of the program's cycle nest, as the sequencer's counters walk it.
      std::vector<std::uint64_t> trf_addr(plan->cycles);
      ir::seq::CycleWalker walk(plan->cycle_nest);
      do trf_addr[walk.position()] = walk.address().trf;
      while (walk.advance());
      std::uint64_t bad = 0, checked = 0;
      for (std::uint64_t l = 0; l < lane.size(); ++l) {
        if (!lane[l].is_live()) continue;
        std::map<std::vector<std::int64_t>, std::uint64_t> by_digits;
        for (std::uint64_t a = 0; a < el.size(); ++a) {
          const ir::Cell c = ir::combine(lane[l], el[a]);
          if (c.is_live()) by_digits.emplace(space->digits_of(c, cw), a);
        }
        for (std::uint64_t t = 0; t < ot.size(); ++t) {
          if (!ot[t].is_live()) continue;
          const ir::Cell lt = ir::combine(lane[l], ot[t]);
          for (std::uint64_t p = 0; p < op.size(); ++p) {
            const ir::Cell u = ir::combine(lt, op[p]);
            if (!u.is_live()) continue;
            auto it = by_digits.find(space->digits_of(u, cw));
            const std::uint64_t a = trf_addr[t] + p % plan->read_size;
            ++checked;
            if (it == by_digits.end() ? (a < el.size() && el[a].is_live()) : it->second != a) ++bad;
          }
        }
      }
      CHECK(checked > 0);
      CHECK(bad == 0);
      ++plans;
    }
  }
  CHECK(plans >= 20);
}
