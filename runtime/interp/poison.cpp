#include "runtime/interp/poison.h"

#include <algorithm>

namespace tujit::runtime {
namespace {

bool holds_top(const DeviceImage& image, std::uint64_t s) {
  const std::uint64_t n = image.outer * image.inner;
  const auto begin = image.state.begin() + static_cast<std::ptrdiff_t>(s * n);
  return std::find(begin, begin + static_cast<std::ptrdiff_t>(n), CellState::Top) !=
         begin + static_cast<std::ptrdiff_t>(n);
}

} // namespace

PoisonReport analyze_poison(const ir::seq::ContractionProgram& p, const DeviceImage& stream,
                            const DeviceImage& trf) {
  PoisonReport report;
  std::vector<std::uint8_t> slot_poison(p.accumulator_cells());
  const std::uint64_t cells = p.columns * p.group;
  if (cells == 0) return report;
  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    if (!p.spatial_live[s] || (!holds_top(stream, s) && !holds_top(trf, s))) continue;
    std::fill(slot_poison.begin(), slot_poison.end(), 0);
    ir::seq::CycleWalker walk(p.cycle_nest);
    do {
      // Padded OutTime positions run too: the counters feed their flits to the slot their
      // address names, so Top content there reaches live slots (their products are ABSENT in
      // the values, §9.4, but the hardware adds whatever the cells hold). Addresses the images
      // do not hold are never read.
      const ir::seq::CycleAddress& a = walk.address();
      if (!p.is_cycle_live(walk.position()) &&
          (a.slot >= p.t2 || a.flit + (cells - 1) / p.packet >= p.time ||
           a.trf + std::min(cells, p.read_size) - 1 >= p.element))
        continue;
      for (std::uint64_t l = 0; l < p.lanes; ++l) {
        if (!p.lane_live[l]) continue;
        for (std::uint64_t c = 0; c < p.columns; ++c) {
          bool poisoned = false;
          for (std::uint64_t k = 0; k < p.group && !poisoned; ++k) {
            const std::uint64_t x = c * p.group + k;
            poisoned =
                product_poisoned(stream.state[stream.index(s, a.flit + x / p.packet, x % p.packet)],
                                 trf.state[trf.index(s, l, a.trf + x % p.read_size)]);
          }
          if (poisoned) slot_poison[(l * p.t2 + a.slot) * p.p2 + c] = 1;
        }
      }
    } while (walk.advance());
    for (std::uint64_t o = 0; o < p.drain.size(); ++o) {
      if (p.drain[o] < 0 || !slot_poison[static_cast<std::uint64_t>(p.drain[o])]) continue;
      ++report.poisoned_outputs;
      if (report.first_poisoned.size() < kMaxPoisonReported)
        report.first_poisoned.push_back({s, o / p.p3, o % p.p3});
    }
  }
  return report;
}

std::uint64_t present_products(const ir::seq::ContractionProgram& p, const DeviceImage& stream,
                               const DeviceImage& trf) {
  const auto count = [](const std::vector<std::uint8_t>& v, std::uint64_t first) {
    if (v.empty()) return first;
    return static_cast<std::uint64_t>(std::count_if(v.begin(),
                                                    v.begin() + static_cast<std::ptrdiff_t>(first),
                                                    [](std::uint8_t x) { return x != 0; }));
  };
  const std::uint64_t cells = p.columns * p.group;
  const std::uint64_t live_slices = count(p.spatial_live, p.spatial);
  if (p.stream_dense && p.trf_dense)
    return live_slices * count(p.cycle_live, p.cycles) * count(p.lane_live, p.lanes) *
           count(p.cell_live, cells);
  std::uint64_t n = 0;
  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    if (!p.spatial_live[s]) continue;
    ir::seq::CycleWalker walk(p.cycle_nest);
    do {
      if (!p.is_cycle_live(walk.position())) continue;
      const ir::seq::CycleAddress& a = walk.address();
      for (std::uint64_t l = 0; l < p.lanes; ++l) {
        if (!p.lane_live[l]) continue;
        for (std::uint64_t x = 0; x < cells; ++x)
          n += p.is_cell_live(x) &&
               stream.state[stream.index(s, a.flit + x / p.packet, x % p.packet)] ==
                   CellState::Live &&
               trf.state[trf.index(s, l, a.trf + x % p.read_size)] == CellState::Live;
      }
    } while (walk.advance());
  }
  return n;
}

} // namespace tujit::runtime
