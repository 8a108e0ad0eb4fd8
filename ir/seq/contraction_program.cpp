#include "ir/seq/contraction_program.h"

#include "ir/seq/fnv1a.h"

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

std::uint64_t ContractionProgram::products_per_slice() const {
  return cycles * lanes * columns * group;
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

std::string to_text(const ContractionProgram& p) {
  std::string out;
  const auto line = [&out](std::string s) {
    out += s;
    out += '\n';
  };
  line(fmt::format("program {} ; {} × {} → {}, LaneMode {}{}", p.kernel_name, name(p.stream_type),
                   name(p.trf_type), name(p.accumulator), to_string(p.mode),
                   p.ftz_results ? ", ftz_results" : ""));
  line(fmt::format("  spatial      {} positions, {} live", p.spatial,
                   count_live(p.spatial_live, p.spatial)));
  line(fmt::format("  stream       [Time {}][Packet {}] {}{}", p.time, p.packet,
                   name(p.stream_type), p.stream_dense ? "" : " (padded: presence masks)"));
  line(fmt::format("  trf          [Lane {}][Element {}] {}, {} live lanes{}", p.lanes, p.element,
                   name(p.trf_type), count_live(p.lane_live, p.lanes),
                   p.trf_dense ? "" : " (padded: presence masks)"));
  line(fmt::format("  adapter      PackSize {}, TimeBroadcast {}", p.pack_size, p.time_broadcast));
  line(fmt::format("  trf read     ReadSize {} ({} read), packet broadcast {}", p.read_size,
                   p.wide_read ? "wide" : "narrow", p.op / p.read_size));
  std::string nest;
  for (const auto& l : p.cycle_nest)
    nest += fmt::format(" [{} : flit {}, trf {}, slot {}{}]", l.size, l.flit_stride, l.trf_stride,
                        l.slot_stride, l.slot_stride == 0 && l.size > 1 ? " reduce" : "");
  line(fmt::format("  cycles       |OT| {}, {} live:{}", p.cycles,
                   count_live(p.cycle_live, p.cycles), nest));
  line(fmt::format("  packet       |OP| {}, {} live cells; reduce {} column(s) × {} cells (tree "
                   "depth {})",
                   p.op, count_live(p.cell_live, p.op), p.columns, p.group, p.depth));
  line(fmt::format("  accumulator  [Lane {}][T2 {}][P2 {}] {}, InnerTime {}", p.lanes, p.t2, p.p2,
                   name(p.accumulator), p.inner_time));
  const auto drained = static_cast<std::uint64_t>(
      std::count_if(p.drain.begin(), p.drain.end(), [](std::int64_t d) { return d >= 0; }));
  line(fmt::format("  lane fold    {} → [T3 {}][P3 {}], {} cells drained, {} padding",
                   to_string(p.mode), p.t3, p.p3, drained, p.drain.size() - drained));
  return out;
}

std::uint64_t fingerprint(const ContractionProgram& p) {
  Fnv1a h;
  for (std::uint64_t v : {static_cast<std::uint64_t>(p.stream_type),
                          static_cast<std::uint64_t>(p.trf_type),
                          static_cast<std::uint64_t>(p.accumulator),
                          static_cast<std::uint64_t>(p.mode),
                          p.spatial,
                          p.time,
                          p.packet,
                          p.lanes,
                          p.element,
                          p.cycles,
                          p.op,
                          p.t2,
                          p.p2,
                          p.t3,
                          p.p3,
                          p.pack_size,
                          p.time_broadcast,
                          p.read_size,
                          static_cast<std::uint64_t>(p.depth),
                          p.group,
                          p.columns,
                          static_cast<std::uint64_t>(p.stream_dense),
                          static_cast<std::uint64_t>(p.trf_dense)})
    h.add(v);
  h.add(p.cycle_nest.size());
  for (const auto& l : p.cycle_nest) {
    h.add(l.size);
    h.add(l.flit_stride);
    h.add(l.trf_stride);
    h.add(l.slot_stride);
  }
  h.add_all(p.spatial_live);
  h.add_all(p.lane_live);
  h.add_all(p.cycle_live);
  h.add_all(p.cell_live);
  h.add_all(p.drain);
  return h.value();
}

} // namespace tujit::ir::seq
