#include "ir/seq/contraction_program.h"

#include "ir/seq/field_hash.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace tujit::ir::seq {
namespace {

std::uint64_t count_live(const std::vector<std::uint8_t>& v, std::uint64_t size_if_empty) {
  if (v.empty()) return size_if_empty;
  return static_cast<std::uint64_t>(std::count_if(v.begin(), v.end(), [](auto x) { return x; }));
}

} // namespace

const char* to_string(ChainStage s) {
  switch (s) {
  case ChainStage::Outer:
    return "contract_outer";
  case ChainStage::Packet:
    return "contract_packet";
  case ChainStage::Time:
    return "contract_time";
  case ChainStage::Lane:
    break;
  }
  return "contract_lane";
}

std::uint64_t ContractionProgram::output_outer() const {
  if (cycle_output()) return lanes * cycles;
  return last == ChainStage::Time ? lanes * t2 : t3;
}

std::uint64_t ContractionProgram::output_inner() const {
  if (last == ChainStage::Outer) return op;
  return last == ChainStage::Lane ? p3 : p2;
}

std::uint64_t ContractionProgram::products_per_slice() const {
  return forms_products() ? cycles * lanes * columns * group : 0;
}

Status verify(const ContractionProgram& p) {
  const auto broken = [&p](std::string what) {
    return run_error("E-RUN-102",
                     fmt::format("internal: the contraction program of `{}` ({} … "
                                 "{}) breaks an invariant: {}",
                                 p.kernel_name, to_string(p.first), to_string(p.last), what));
  };
  if (p.first > p.last) return broken("its first stage comes after its last");
  if (p.spatial_live.size() != p.spatial) return broken("spatial liveness is not |spatial|");
  if (p.lane_live.size() != p.lanes) return broken("lane liveness is not |Lane|");
  if (!p.walks_cycles()) {
    if (p.cycles != 0 || !p.cycle_nest.empty()) return broken("a part from contract_lane cycles");
  } else {
    std::uint64_t n = 1;
    for (const auto& l : p.cycle_nest) n *= l.size;
    if (p.cycle_nest.empty() || n != p.cycles) return broken("the cycle nest does not cover |OT|");
    if (!p.cycle_live.empty() && p.cycle_live.size() != p.cycles)
      return broken("cycle liveness is not |OT|");
    if (!p.cell_live.empty() && p.cell_live.size() != p.op)
      return broken("cell liveness is not the packet's size");
    if (p.group == 0 || p.group != (std::uint64_t{1} << p.depth) || p.columns * p.group > p.op)
      return broken("the tree columns do not fit the packet");
  }
  if (p.last == ChainStage::Lane && p.drain.size() != p.t3 * p.p3)
    return broken("the Lane Folder's drain is not |T3|·|P3|");
  for (std::int64_t d : p.drain)
    if (d >= static_cast<std::int64_t>(p.accumulator_cells()))
      return broken("the Lane Folder drains a cell outside the accumulator");
  if (p.cycle_output() && p.output_inner() < p.columns)
    return broken("a tree column has no output cell");
  if (!p.walks_cycles() || p.columns * p.group == 0) return {};
  const std::uint64_t cells = p.columns * p.group;
  const bool slots = !p.cycle_output();
  // Every cycle's addresses inside their buffers by the nest's largest ones, or walked.
  const std::uint64_t flits = (cells - 1) / p.packet, reads = std::min(cells, p.read_size) - 1;
  const bool operands_inside =
      !p.forms_products() ||
      (p.time > flits && all_cycles_below(p.cycle_nest, &CycleLoop::flit_stride, p.time - flits) &&
       p.element > reads &&
       all_cycles_below(p.cycle_nest, &CycleLoop::trf_stride, p.element - reads));
  if (operands_inside && (!slots || all_cycles_below(p.cycle_nest, &CycleLoop::slot_stride, p.t2)))
    return {};
  CycleWalker walk(p.cycle_nest);
  do {
    if (!p.is_cycle_live(walk.position())) continue;
    const CycleAddress& a = walk.address();
    const bool stream =
        p.forms_products() && (a.flit + (cells - 1) / p.packet >= p.time ||
                               a.trf + std::min(cells, p.read_size) - 1 >= p.element);
    if (stream || (slots && a.slot >= p.t2))
      return broken(fmt::format("packet cycle {} addresses flit {}, TRF element {}, slot {}: "
                                "outside its operands",
                                walk.position(), a.flit, a.trf, a.slot));
  } while (walk.advance());
  return {};
}

bool all_cycles_below(const std::vector<CycleLoop>& nest, std::uint64_t CycleLoop::*stride,
                      std::uint64_t bound) {
  std::uint64_t largest = 0;
  for (const CycleLoop& l : nest) {
    std::uint64_t step = 0;
    if (__builtin_mul_overflow(l.size - 1, l.*stride, &step) ||
        __builtin_add_overflow(largest, step, &largest))
      return false;
  }
  return largest < bound;
}

CycleWalker::CycleWalker(const std::vector<CycleLoop>& nest)
    : nest_(&nest), digit_(nest.size(), 0) {}

bool CycleWalker::advance() {
  const auto& nest = *nest_;
  for (std::size_t i = nest.size(); i-- > 0;) {
    const CycleLoop& loop = nest[i];
    if (++digit_[i] < loop.size) {
      address_.flit += loop.flit_stride;
      address_.trf += loop.trf_stride;
      address_.slot += loop.slot_stride;
      ++position_;
      return true;
    }
    // Counter wraps: undo its contribution and carry outward.
    const std::uint64_t back = loop.size - 1;
    address_.flit -= back * loop.flit_stride;
    address_.trf -= back * loop.trf_stride;
    address_.slot -= back * loop.slot_stride;
    digit_[i] = 0;
  }
  return false;
}

// The text shows what the part runs: the stream, TRF, Stream Adapter and TRF read lines only when
// the Multiplier runs, the packet cycles only when they are walked, the tree only with
// contract_packet, the accumulator only when a stage keeps one, the drain only with contract_lane.
std::string to_text(const ContractionProgram& p) {
  std::string out;
  const auto line = [&out](std::string s) {
    out += s;
    out += '\n';
  };
  const bool products = p.forms_products();
  const auto runs = [&p](ChainStage s) { return p.first <= s && s <= p.last; };
  line(fmt::format("program {} ; {} → {}, LaneMode {}{}", p.kernel_name,
                   products ? fmt::format("{} × {}", name(p.stream_type), name(p.trf_type))
                            : fmt::format("{} input", name(p.accumulator)),
                   name(p.accumulator), to_string(p.mode), p.ftz_results ? ", ftz_results" : ""));
  if (!p.whole())
    line(fmt::format("  part         {} … {}: reads [{}][{}] cells{}, writes [{}][{}]",
                     to_string(p.first), to_string(p.last), products ? p.time : p.input_outer(),
                     products ? p.packet : p.input_inner(),
                     products ? " of the stream and the TRF" : " of its input tensor",
                     p.output_outer(), p.output_inner()));
  line(fmt::format("  spatial      {} positions, {} live", p.spatial,
                   count_live(p.spatial_live, p.spatial)));
  if (products) {
    line(fmt::format("  stream       [Time {}][Packet {}] {}{}", p.time, p.packet,
                     name(p.stream_type), p.stream_dense ? "" : " (padded: presence masks)"));
    line(fmt::format("  trf          [Lane {}][Element {}] {}, {} live lanes{}", p.lanes, p.element,
                     name(p.trf_type), count_live(p.lane_live, p.lanes),
                     p.trf_dense ? "" : " (padded: presence masks)"));
    line(
        fmt::format("  adapter      PackSize {}, TimeBroadcast {}", p.pack_size, p.time_broadcast));
    line(fmt::format("  trf read     ReadSize {} ({} read), packet broadcast {}", p.read_size,
                     p.wide_read ? "wide" : "narrow", p.op / p.read_size));
  } else {
    line(fmt::format("  input        [Lane {}][{} {}][{} {}] {}, {} live lanes", p.lanes,
                     p.walks_cycles() ? "OT" : "T2",
                     p.input_outer() / std::max<std::uint64_t>(1, p.lanes),
                     p.walks_cycles() ? "OP" : "P2", p.input_inner(), name(p.accumulator),
                     count_live(p.lane_live, p.lanes)));
  }
  if (p.walks_cycles()) {
    std::string nest;
    for (const auto& l : p.cycle_nest)
      nest += fmt::format(
          " [{} : flit {}, trf {}, slot {}{}]", l.size, l.flit_stride, l.trf_stride, l.slot_stride,
          l.slot_stride == 0 && l.size > 1 && runs(ChainStage::Time) ? " reduce" : "");
    line(fmt::format("  cycles       |OT| {}, {} live:{}", p.cycles,
                     count_live(p.cycle_live, p.cycles), nest));
    line(runs(ChainStage::Packet)
             ? fmt::format("  packet       |OP| {}, {} live cells; reduce {} column(s) × {} cells "
                           "(tree depth {})",
                           p.op, count_live(p.cell_live, p.op), p.columns, p.group, p.depth)
             : fmt::format("  packet       |OP| {}, {} live cells", p.op,
                           count_live(p.cell_live, p.op)));
  }
  if (!p.cycle_output())
    line(fmt::format("  accumulator  [Lane {}][T2 {}][P2 {}] {}{}", p.lanes, p.t2, p.p2,
                     name(p.accumulator),
                     runs(ChainStage::Time) ? fmt::format(", InnerTime {}", p.inner_time) : ""));
  if (p.last == ChainStage::Lane) {
    const auto drained = static_cast<std::uint64_t>(
        std::count_if(p.drain.begin(), p.drain.end(), [](std::int64_t d) { return d >= 0; }));
    line(fmt::format("  lane fold    {} → [T3 {}][P3 {}], {} cells drained, {} padding",
                     to_string(p.mode), p.t3, p.p3, drained, p.drain.size() - drained));
  }
  return out;
}

std::uint64_t fingerprint(const ContractionProgram& p) {
  return field_fingerprint(p);
}

} // namespace tujit::ir::seq
