#include "runtime/engine/poison.h"

#include "ir/seq/fnv1a.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <utility>

namespace tujit::runtime {
namespace {

using ir::seq::CellAddress;
using ir::seq::RunProgram;

/// The operand spatial states of a slice: slices with equal states have equal cell states.
using SliceClass = std::pair<CellState, CellState>;

SliceClass slice_class(const RunProgram& p, std::uint64_t s) {
  const ir::seq::OperandStreams* trf = p.trf_operand();
  const CellState w = trf != nullptr ? trf->streams.spatial.state(s) : CellState::Live;
  return {p.input().streams.spatial.state(s), w};
}

CellState cell_state(CellState spatial, CellState cell) {
  return ir::combine_states(spatial, cell);
}

/// Per output cell of one slice of class `k`: whether it is poisoned (contraction, or a part of
/// one: a Top cell of the input tensor it starts from poisons what it is summed or moved into).
std::vector<std::uint8_t> contraction_poison(const RunProgram& rp, SliceClass k) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  const std::uint64_t inner = p.output_inner();
  std::vector<std::uint8_t> out(p.output_outer() * inner, 0);
  const std::uint64_t cells = p.columns * p.group;
  const bool products = p.forms_products();
  const auto& sc = rp.input().streams.cells;
  const auto& wc = rp.contraction().trf.streams.cells;
  const bool any_top = k.first == CellState::Top || sc.any(CellState::Top) ||
                       (products && (k.second == CellState::Top || wc.any(CellState::Top)));
  if (!any_top) return out;
  const auto top = [&](std::uint64_t o, std::uint64_t i) {
    return cell_state(k.first, sc.at(o, i).state) == CellState::Top;
  };
  std::vector<std::uint8_t> slot_poison(p.accumulator_cells(), 0);
  if (!p.walks_cycles()) {
    for (std::uint64_t r = 0; r < p.input_outer(); ++r)
      for (std::uint64_t c = 0; c < p.p2; ++c) slot_poison[r * p.p2 + c] = top(r, c);
  }
  ir::seq::CycleWalker walk(p.cycle_nest);
  do {
    if (!p.walks_cycles() || cells == 0) break;
    // Padded OutTime positions run too: the counters feed their flits to the slot their address
    // names, so Top content there reaches live slots (their products are ABSENT in the values,
    // §9.4, but the hardware adds whatever the cells hold). Addresses outside the views are never
    // read.
    const ir::seq::CycleAddress& a = walk.address();
    const std::uint64_t t = walk.position();
    if (!p.is_cycle_live(t) &&
        ((!p.cycle_output() && a.slot >= p.t2) ||
         (products && (a.flit + (cells - 1) / p.packet >= p.time ||
                       a.trf + std::min(cells, p.read_size) - 1 >= p.element))))
      continue;
    for (std::uint64_t l = 0; l < p.lanes; ++l) {
      if (!p.lane_live[l]) continue;
      const std::uint64_t row = l * p.cycles + t;
      for (std::uint64_t c = 0; c < p.columns; ++c) {
        bool poisoned = false;
        for (std::uint64_t g = 0; g < p.group && !poisoned; ++g) {
          const std::uint64_t x = c * p.group + g;
          poisoned =
              products ? product_poisoned(
                             cell_state(k.first, sc.at(a.flit + x / p.packet, x % p.packet).state),
                             cell_state(k.second, wc.at(l, a.trf + x % p.read_size).state))
                       : top(row, x);
        }
        if (!poisoned) continue;
        if (p.cycle_output())
          out[row * inner + c] = 1;
        else
          slot_poison[(l * p.t2 + a.slot) * p.p2 + c] = 1;
      }
    }
  } while (walk.advance());
  if (p.last == ir::seq::ChainStage::Time) return slot_poison;
  if (p.last == ir::seq::ChainStage::Lane)
    for (std::uint64_t o = 0; o < p.drain.size(); ++o)
      out[o] = p.drain[o] >= 0 && slot_poison[static_cast<std::uint64_t>(p.drain[o])];
  return out;
}

/// Per cell of one output slice of class `k` (outer-major): whether it reads a Top source cell.
std::vector<std::uint8_t> move_poison(const RunProgram& rp, SliceClass k) {
  const auto& cells = rp.input().streams.cells;
  std::vector<std::uint8_t> out(cells.outer_size * cells.inner_size, 0);
  for (std::uint64_t o = 0; o < cells.outer_size; ++o)
    for (std::uint64_t i = 0; i < cells.inner_size; ++i)
      out[o * cells.inner_size + i] = cell_state(k.first, cells.at(o, i).state) == CellState::Top;
  return out;
}

} // namespace

void add_poisoned(PoisonReport& report, const PoisonedCell& cell) {
  ir::seq::Fnv1a h;
  h.add(report.digest);
  h.add(cell.spatial);
  h.add(cell.out_time);
  h.add(cell.out_lane);
  report.digest = h.value();
  ++report.poisoned_outputs;
  if (report.first_poisoned.size() < kMaxPoisonReported) report.first_poisoned.push_back(cell);
}

std::optional<std::string> first_poison_difference(const PoisonReport& a, const PoisonReport& b) {
  const auto cell = [](const PoisonedCell& c) {
    return fmt::format("(slice {}, outer {}, inner {})", c.spatial, c.out_time, c.out_lane);
  };
  for (std::size_t i = 0; i < std::min(a.first_poisoned.size(), b.first_poisoned.size()); ++i)
    if (a.first_poisoned[i] != b.first_poisoned[i])
      return fmt::format("the poisoned sets differ: poisoned cell {} is {} vs {}", i + 1,
                         cell(a.first_poisoned[i]), cell(b.first_poisoned[i]));
  if (a.poisoned_outputs != b.poisoned_outputs)
    return fmt::format("the poisoned sets differ: {} vs {} poisoned outputs", a.poisoned_outputs,
                       b.poisoned_outputs);
  if (a.first_poisoned != b.first_poisoned || a.digest != b.digest)
    return fmt::format("the poisoned sets differ past their first {} cells (both {} poisoned "
                       "outputs, digests {:016x} vs {:016x})",
                       std::min(a.first_poisoned.size(), b.first_poisoned.size()),
                       a.poisoned_outputs, a.digest, b.digest);
  return std::nullopt;
}

PoisonReport analyze_poison(const RunProgram& p) {
  PoisonReport report;
  const bool contraction = !p.is_move();
  const std::uint64_t inner = p.output.cells.inner_size;
  std::map<SliceClass, std::vector<std::uint8_t>> by_class;
  for (std::uint64_t s : p.live_slices()) {
    const SliceClass k = slice_class(p, s);
    auto it = by_class.find(k);
    if (it == by_class.end())
      it = by_class.emplace(k, contraction ? contraction_poison(p, k) : move_poison(p, k)).first;
    const std::vector<std::uint8_t>& poisoned = it->second;
    for (std::uint64_t o = 0; o < poisoned.size(); ++o) {
      if (!poisoned[o]) continue;
      if (p.output.at(s, o / inner, o % inner).state != CellState::Live) continue;
      add_poisoned(report, {s, o / inner, o % inner});
    }
  }
  return report;
}

std::uint64_t present_products(const RunProgram& rp) {
  if (rp.is_move() || !rp.contraction().chain.forms_products()) return 0;
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  const std::uint64_t cells = p.columns * p.group;
  const auto& sc = rp.input().streams.cells;
  const auto& wc = rp.contraction().trf.streams.cells;
  std::map<SliceClass, std::uint64_t> by_class;
  std::uint64_t n = 0;
  for (std::uint64_t s : rp.live_slices()) {
    const SliceClass k = slice_class(rp, s);
    auto it = by_class.find(k);
    if (it == by_class.end()) {
      std::uint64_t count = 0;
      const auto live = [](const std::vector<std::uint8_t>& v, std::uint64_t size) {
        return v.empty() ? size
                         : static_cast<std::uint64_t>(std::count_if(
                               v.begin(), v.begin() + static_cast<std::ptrdiff_t>(size),
                               [](std::uint8_t x) { return x != 0; }));
      };
      if (k.first == CellState::Live && k.second == CellState::Live && sc.all_live() &&
          wc.all_live()) {
        // Dense operands: every live position forms its product (closed form).
        count =
            live(p.cycle_live, p.cycles) * live(p.lane_live, p.lanes) * live(p.cell_live, cells);
      } else if (k.first == CellState::Live && k.second == CellState::Live) {
        ir::seq::CycleWalker walk(p.cycle_nest);
        do {
          if (!p.is_cycle_live(walk.position())) continue;
          const ir::seq::CycleAddress& a = walk.address();
          for (std::uint64_t l = 0; l < p.lanes; ++l) {
            if (!p.lane_live[l]) continue;
            for (std::uint64_t x = 0; x < cells; ++x)
              count += p.is_cell_live(x) &&
                       sc.at(a.flit + x / p.packet, x % p.packet).state == CellState::Live &&
                       wc.at(l, a.trf + x % p.read_size).state == CellState::Live;
          }
        } while (walk.advance());
      }
      it = by_class.emplace(k, count).first;
    }
    n += it->second;
  }
  return n;
}

} // namespace tujit::runtime
