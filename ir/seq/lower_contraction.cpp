#include "ir/seq/lower_contraction.h"

#include "ir/mapping/factor.h"
#include "ir/mapping/map_table.h"
#include "ir/seq/digit_sum.h"
#include "ir/seq/run_operands.h"
#include "ir/target/rngd.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/outer_stage.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace tujit::ir::seq {
namespace {

Diagnostic lower_error(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-RUN-101", std::move(message), std::nullopt, std::move(notes));
  d.stage = "run";
  return d;
}

/// Whether a padding node (`# t`) is in the mapping: without one, every position holds a logical
/// element (a stride, modulo, resize or pair of live cells reads only live cells of its operands,
/// docs/mapping.md §3).
bool has_padding(const Mapping& m) {
  switch (m.kind()) {
  case Mapping::Kind::Padding:
    return true;
  case Mapping::Kind::Symbol:
  case Mapping::Kind::Broadcast:
    return false;
  case Mapping::Kind::Pair:
    return has_padding(m.lhs()) || has_padding(m.rhs());
  default:
    return has_padding(m.lhs());
  }
}

std::vector<std::uint8_t> liveness(const Mapping& m) {
  if (!has_padding(m)) return std::vector<std::uint8_t>(m.size(), 1);
  const MappedTable t = map_table(m, {});
  std::vector<std::uint8_t> live(t.size);
  for (std::uint64_t i = 0; i < t.size; ++i) live[i] = t.kind[i] == Cell::Kind::Index ? 1 : 0;
  return live;
}

bool all_live(const std::vector<std::uint8_t>& v) {
  return std::all_of(v.begin(), v.end(), [](std::uint8_t x) { return x != 0; });
}

/// Whether every cell of `[major, minor]` is live by its normal form: a padded axis cut into
/// both (`K # 64 / 32`, `K # 64 % 32`) has padding cells neither slot shows alone (the layouts
/// read it so, runtime/layout/layout.cpp).
bool all_live(const Mapping& major, const Mapping& minor) {
  for (const Mapping* m : {&major, &minor})
    if (has_padding(*m) && !all_live(liveness(*m))) return false;
  const FactorList l = pair(factorize(major), factorize(minor));
  for (const Factor& f : l.factors)
    if (f.is_pad()) return false;
  return true;
}

// The Lane Folder drains 8-element output flits (docs/contraction.md §8).
constexpr std::uint64_t kOutputBus = target::kRngd.output_bus_elements;

// The packet-cycle nest over the given counter boundaries (a divisibility chain from 1 to
// `cycles`), with each address stream's stride per counter; nullopt unless the affine form
// reproduces every live cycle's addresses (each stream walked alongside, digit by digit).
std::optional<std::vector<CycleLoop>> nest_over(const std::vector<std::uint64_t>& bounds,
                                                const std::vector<std::uint8_t>& cycle_live,
                                                const DigitSum& flit, const DigitSum& trf,
                                                const DigitSum& slot) {
  std::vector<CycleLoop> nest; // built inner → outer, reversed at the end
  for (std::size_t i = 0; i + 1 < bounds.size(); ++i) {
    const std::uint64_t e = bounds[i];
    CycleLoop loop;
    loop.size = bounds[i + 1] / e;
    loop.flit_stride = flit(e) - flit(0);
    loop.trf_stride = trf(e) - trf(0);
    loop.slot_stride = slot(e) - slot(0);
    nest.push_back(loop);
  }
  std::reverse(nest.begin(), nest.end());
  if (nest.empty()) nest.push_back(CycleLoop{});
  CycleWalker walk(nest);
  DigitWalker f(flit), r(trf), u(slot);
  do {
    const CycleAddress& a = walk.address();
    if (cycle_live[walk.position()] != 0 &&
        (a.flit != f.value() || a.trf != r.value() || a.slot != u.value()))
      return std::nullopt;
    f.advance();
    r.advance();
    u.advance();
  } while (walk.advance());
  return nest;
}

// The packet-cycle nest: the hardware's counters are the TRF Sequencer's loops, one per digit of
// OutTime (§5.2), split at the time broadcast (§5.1). The Time Reducer's slot (§7) is affine in
// them unless it retains only part of a digit; then the retained digits' boundaries that nest
// with the counters are added. The affine form is proved on every live cycle; padded cycles get
// what the counters give — e.g. `M # 10` (M = 5) walks slots 0..9, not 0..4 twice.
Result<std::vector<CycleLoop>> cycle_nest(std::uint64_t cycles, std::vector<std::uint64_t> bounds,
                                          const std::vector<std::uint64_t>& slot_bounds,
                                          const std::vector<std::uint8_t>& cycle_live,
                                          const DigitSum& flit, const DigitSum& trf,
                                          const DigitSum& slot) {
  bounds.push_back(1);
  bounds.push_back(cycles);
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  while (!bounds.empty() && bounds.back() > cycles) bounds.pop_back();
  for (std::size_t i = 1; i < bounds.size(); ++i)
    if (bounds[i] % bounds[i - 1] != 0)
      return lower_error("internal: the packet-cycle boundaries do not nest",
                         {fmt::format("{} does not divide {}", bounds[i - 1], bounds[i])});
  if (auto nest = nest_over(bounds, cycle_live, flit, trf, slot)) return std::move(*nest);
  for (std::uint64_t b : slot_bounds) {
    const auto at = std::lower_bound(bounds.begin(), bounds.end(), b);
    if (at == bounds.end() || *at == b) continue;
    if (b % *(at - 1) == 0 && *at % b == 0) bounds.insert(at, b); // at > begin: bounds[0] = 1
  }
  if (auto nest = nest_over(bounds, cycle_live, flit, trf, slot)) return std::move(*nest);
  std::string chain;
  for (auto b : bounds) chain += (chain.empty() ? "" : ", ") + std::to_string(b);
  return lower_error("internal: the packet-cycle addresses are not a loop nest",
                     {fmt::format("counter boundaries {} of {} cycles", chain, cycles)});
}

// The spatial liveness: Chip × Cluster × Slice flattened in that order
// (runtime/device/device_image.h).
void spatial_fields(const ChainMappings& m, ContractionProgram& p) {
  p.spatial = m.chip.size() * m.cluster.size() * m.slice.size();
  p.spatial_live.assign(p.spatial, 0);
  const auto chip = liveness(m.chip), cluster = liveness(m.cluster), slice = liveness(m.slice);
  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    const std::uint64_t sl = s % slice.size();
    const std::uint64_t cl = (s / slice.size()) % cluster.size();
    const std::uint64_t ch = s / (slice.size() * cluster.size());
    p.spatial_live[s] = chip[ch] & cluster[cl] & slice[sl];
  }
}

/// The packet cycles' three address streams (flit, TRF element, Time Reducer slot) and the
/// counter boundaries they are affine over.
struct CycleStreams {
  DigitSum flit, trf, slot; // no term: address 0
  std::vector<std::uint64_t> bounds, slot_bounds;
};

// contract_outer's address streams: the Stream Adapter repeats each packet TB cycles (§5.1), so
// cycle t reads flit (t / TB)·PackSize; the TRF address is t's digits over the TRF Sequencer's
// loops (§5.2). The counters' boundaries are TB and each loop's.
void outer_streams(const ContractionProgram& p, const std::vector<verify::TrfLoopEntry>& loops,
                   CycleStreams& cs) {
  const std::uint64_t tb = p.time_broadcast, ps = p.pack_size;
  cs.flit.terms = {{tb, 0, ps}};
  cs.bounds.push_back(tb);
  std::uint64_t inner = 1;
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    cs.trf.terms.push_back({inner, it->size, it->stride});
    cs.bounds.push_back(inner *= it->size);
  }
}

/// What the checker derived for a stage (`known`), or the verifier run on the part's mappings.
template <class Derived, class Verify>
Result<Derived> derived_or(const Derived* known, Verify verify) {
  if (known != nullptr) return *known;
  return verify();
}

// contract_outer (§5): verified; its parameters checked against the shapes the engines walk.
Status lower_outer(const ChainPart& part, ContractionProgram& p, CycleStreams& cs) {
  const ChainMappings& m = part.m;
  auto outer = derived_or(part.derived.outer, [&] {
    verify::ContractOuterInput oin;
    oin.stream_dtype = part.stream_type;
    oin.weight_dtype = part.trf_type;
    oin.time = m.time;
    oin.packet = m.packet;
    oin.lane = m.lane;
    oin.element = m.element;
    oin.out_time = m.out_time;
    oin.out_packet = m.out_packet;
    return verify::verify_contract_outer(oin);
  });
  if (!outer) return outer.diagnostics();
  p.accumulator = outer->operands.accumulator;
  p.time = m.time.size();
  p.packet = m.packet.size();
  p.element = m.element.size();
  p.pack_size = outer->stream_adapter.pack_size;
  p.time_broadcast = outer->stream_adapter.time_broadcast_size;
  p.read_size = outer->trf_sequencer.read_size;
  p.wide_read = outer->trf_sequencer.wide;
  p.stream_dense = all_live(m.time, m.packet);
  p.trf_dense = all_live(m.lane, m.element);

  // The verifiers' values must describe the shapes the engines walk; a failure is a bug in a
  // verifier, reported instead of reading out of bounds.
  const std::uint64_t fe = flit_elements(part.stream_type);
  std::uint64_t loop_cells = 1;
  for (const auto& e : outer->trf_sequencer.loops) loop_cells *= e.size;
  if (p.packet != fe || p.op != p.pack_size * fe || loop_cells != p.cycles ||
      p.time * p.time_broadcast != p.cycles * p.pack_size || p.op % p.read_size != 0)
    return lower_error("internal: the verified contract_outer parameters are inconsistent",
                       {fmt::format("|Packet| {} FE {} |OP| {} PackSize {} loops cover {} of |OT| "
                                    "{} |Time| {} TB {} RS {}",
                                    p.packet, fe, p.op, p.pack_size, loop_cells, p.cycles, p.time,
                                    p.time_broadcast, p.read_size)});
  outer_streams(p, outer->trf_sequencer.loops, cs);
  return {};
}

// contract_packet (§6): `columns` trees of `group` = 2^depth adjacent cells. Outside the part a
// column is one cell: every product (a part ending at contract_outer) or every P2 cell (a part
// from contract_time) is its own tree result.
Status lower_packet(const ChainPart& part, ContractionProgram& p) {
  const bool runs = part.first <= ChainStage::Packet && part.last >= ChainStage::Packet;
  if (!runs) {
    p.depth = 0;
    p.group = 1;
    p.columns = p.op;
    return {};
  }
  auto packet = derived_or(part.derived.packet, [&] {
    return verify::verify_contract_packet({part.stream_type, part.m.out_packet, part.m.p2});
  });
  if (!packet) return packet.diagnostics();
  p.depth = packet->depth;
  p.group = packet->group;
  p.columns = std::min(packet->live_columns, p.p2);
  if (p.op % p.group != 0 || p.columns * p.group > p.op)
    return lower_error("internal: the verified contract_packet parameters are inconsistent",
                       {fmt::format("|OP| {} G {} columns {}", p.op, p.group, p.columns)});
  return {};
}

// contract_time (§7): slot(t) = Σ retained digit · its stride in T2.
Status lower_time(const ChainPart& part, ContractionProgram& p, CycleStreams& cs) {
  if (part.first > ChainStage::Time || part.last < ChainStage::Time) return {};
  auto time = derived_or(part.derived.time, [&] {
    return verify::verify_contract_time({part.m.out_time, part.m.t2});
  });
  if (!time) return time.diagnostics();
  p.inner_time = time->inner_time;
  for (const auto& term : time->terms) {
    cs.slot.terms.push_back({term.dividend_stride, term.resize, term.divisor_stride});
    cs.slot_bounds.push_back(term.dividend_stride);
    cs.slot_bounds.push_back(term.dividend_stride * term.resize);
  }
  return {};
}

// The Lane Folder's output order (§8): output cell (u3, j) drains accumulator cell
// (l·T2 + u)·P2 + c, Interleaved (lanes side by side in a flit) or Sequential (each lane's P2
// cells in ceil(|P2| / 8) flits, lane after lane); output padding, and positions past the
// accumulator, drain nothing (-1: written 0).
std::vector<std::int64_t> drain_order(const ContractionProgram& p, const ChainMappings& m) {
  const auto t3_live = liveness(m.t3);
  const auto p3_live = liveness(m.p3);
  std::vector<std::int64_t> drain(p.t3 * p.p3, -1);
  const std::uint64_t po = (p.p2 + kOutputBus - 1) / kOutputBus;
  for (std::uint64_t u3 = 0; u3 < p.t3; ++u3) {
    for (std::uint64_t j = 0; j < p.p3; ++j) {
      std::uint64_t l = 0, u = 0, c = 0;
      if (p.mode == LaneMode::Interleaved) {
        u = u3 / p.p2;
        c = u3 % p.p2;
        l = j;
      } else {
        const std::uint64_t q = u3 % po;
        l = (u3 / po) % p.lanes;
        u = u3 / (po * p.lanes);
        c = kOutputBus * q + j;
      }
      if (!t3_live[u3] || !p3_live[j] || l >= p.lanes || c >= p.p2 || u >= p.t2) continue;
      drain[u3 * p.p3 + j] = static_cast<std::int64_t>((l * p.t2 + u) * p.p2 + c);
    }
  }
  return drain;
}

// contract_lane (§8): verified, then its output order.
Status lower_lane(const ChainPart& part, ContractionProgram& p) {
  if (part.last != ChainStage::Lane) return {};
  const ChainMappings& m = part.m;
  auto lane = derived_or(part.derived.lane, [&] {
    verify::ContractLaneInput lin;
    lin.mode = part.mode;
    lin.lane = m.lane;
    lin.t2 = m.t2;
    lin.p2 = m.p2;
    lin.t3 = m.t3;
    lin.p3 = m.p3;
    lin.pre_reduce_time = m.out_time;
    return verify::verify_contract_lane(lin);
  });
  if (!lane) return lane.diagnostics();
  p.mode = part.mode;
  p.t3 = m.t3.size();
  p.p3 = m.p3.size();
  if (p.p3 != kOutputBus)
    return lower_error("internal: the Lane Folder's OutPacket is not one output flit",
                       {fmt::format("|P3| {}", p.p3)});
  p.drain = drain_order(p, m);
  return {};
}

// The packet-cycle nest of the part (its stages' address streams) and the cycle / cell liveness.
Status lower_cycles(const ChainPart& part, ContractionProgram& p, const CycleStreams& cs) {
  if (!p.walks_cycles()) {
    p.cycles = 0;
    return {};
  }
  p.cycle_live = liveness(part.m.out_time);
  p.cell_live = liveness(part.first == ChainStage::Time ? part.m.p2 : part.m.out_packet);
  std::vector<std::uint64_t> bounds = cs.bounds;
  if (!p.forms_products()) {
    // The counters are still the TRF Sequencer's, one per OutTime digit with its padding (§5.2):
    // a padded cycle walks to the slot its digits name, as in the whole chain.
    const FactorList ot = factorize(part.m.out_time);
    for (std::size_t j = 1; j <= ot.factors.size(); ++j)
      if (j == ot.factors.size() || !ot.factors[j].is_pad()) bounds.push_back(ot.extent_before(j));
  }
  auto nest = cycle_nest(p.cycles, bounds, cs.slot_bounds, p.cycle_live, cs.flit, cs.trf, cs.slot);
  if (!nest) return nest.diagnostics();
  p.cycle_nest = std::move(*nest);
  // The nest gives every live cycle's slot: no slot of any cycle reaches past OutTime, or none of
  // a live one (walked only then).
  if (!p.cycle_output() && !all_cycles_below(p.cycle_nest, &CycleLoop::slot_stride, p.t2))
    for (CycleWalker walk(p.cycle_nest);;) {
      if (p.cycle_live[walk.position()] != 0 && walk.address().slot >= p.t2)
        return lower_error("internal: a Time Reducer slot lies outside OutTime");
      if (!walk.advance()) break;
    }
  if (all_live(p.cycle_live)) p.cycle_live.clear();
  if (all_live(p.cell_live)) p.cell_live.clear();
  return {};
}

/// The mappings a stage's tensors give the chain (each stage passes its spatial mappings and Lane
/// through unchanged, §3).
void take_mappings(const Stage& st, ChainMappings& m) {
  const TensorType& in = st.input;
  m.chip = in.mapping(Slot::Chip);
  m.cluster = in.mapping(Slot::Cluster);
  m.slice = in.mapping(Slot::Slice);
  switch (st.unit()) {
  case StageUnit::ContractOuter:
    m.time = in.mapping(Slot::Time);
    m.packet = in.mapping(Slot::Packet);
    if (st.trf) {
      m.lane = st.trf->mapping(Slot::Lane);
      m.element = st.trf->mapping(Slot::Element);
    }
    m.out_time = st.output.mapping(Slot::Time);
    m.out_packet = st.output.mapping(Slot::Packet);
    break;
  case StageUnit::PacketReducer:
    m.lane = in.mapping(Slot::Lane);
    m.out_time = in.mapping(Slot::Time);
    m.out_packet = in.mapping(Slot::Packet);
    m.p2 = st.output.mapping(Slot::Packet);
    break;
  case StageUnit::TimeReducer:
    m.lane = in.mapping(Slot::Lane);
    m.out_time = in.mapping(Slot::Time);
    m.p2 = in.mapping(Slot::Packet);
    m.t2 = st.output.mapping(Slot::Time);
    break;
  default: // contract_lane
    m.lane = in.mapping(Slot::Lane);
    m.t2 = in.mapping(Slot::Time);
    m.p2 = in.mapping(Slot::Packet);
    m.t3 = st.output.mapping(Slot::Time);
    m.p3 = st.output.mapping(Slot::Packet);
    break;
  }
}

ChainStage chain_stage(StageUnit unit) {
  switch (unit) {
  case StageUnit::ContractOuter:
    return ChainStage::Outer;
  case StageUnit::PacketReducer:
    return ChainStage::Packet;
  case StageUnit::TimeReducer:
    return ChainStage::Time;
  default:
    return ChainStage::Lane;
  }
}

/// The part's stages' derived values from the kernel's check: E-RUN-101 for a stage the checker
/// did not verify (a kernel with errors is refused before lowering).
Status take_derived(const verify::CheckedKernel& ck, const Stage& st, ChainPart::Derived& d) {
  bool found = false;
  switch (st.unit()) {
  case StageUnit::ContractOuter:
    found = (d.outer = ck.derived<verify::ContractOuterDerived>(st)) != nullptr;
    break;
  case StageUnit::PacketReducer:
    found = (d.packet = ck.derived<verify::ContractPacketDerived>(st)) != nullptr;
    break;
  case StageUnit::TimeReducer:
    found = (d.time = ck.derived<verify::ContractTimeDerived>(st)) != nullptr;
    break;
  default:
    found = (d.lane = ck.derived<verify::ContractLaneDerived>(st)) != nullptr;
    break;
  }
  if (found) return {};
  return lower_error(fmt::format("internal: `{}` reached lowering without its verifier's result",
                                 to_string(st.op)));
}

} // namespace

Result<ContractionProgram> lower_contraction(const verify::CheckedKernel& ck) {
  const Kernel& kernel = ck;
  if (!kernel.ok)
    return lower_error(
        fmt::format("kernel `{}` has errors; fix them before running it", kernel.name));
  if (const std::optional<ContractionChain> c = find_contraction_chain(kernel);
      c && c->lane->lane_mode) {
    const auto first = static_cast<std::size_t>(c->outer - kernel.stages.data());
    const auto last = static_cast<std::size_t>(c->lane - kernel.stages.data());
    return lower_contraction(ck, first, last);
  }
  return lower_error(
      fmt::format("kernel `{}` has no contract_outer → contract_packet → contract_time → "
                  "contract_lane chain to run",
                  kernel.name),
      {"the engines run complete contraction chains (docs/contraction.md §5–§8)"});
}

Result<ContractionProgram> lower_contraction(const verify::CheckedKernel& ck, std::size_t first,
                                             std::size_t last) {
  const Kernel& kernel = ck;
  if (!kernel.ok)
    return lower_error(
        fmt::format("kernel `{}` has errors; fix them before running it", kernel.name));
  auto path = contraction_path(kernel, first, last);
  if (!path) return path.diagnostics();
  ChainPart part;
  const Stage& head = kernel.stages[path->front()];
  const Stage& tail = kernel.stages[path->back()];
  part.first = chain_stage(head.unit());
  part.last = chain_stage(tail.unit());
  for (std::size_t idx : *path) {
    take_mappings(kernel.stages[idx], part.m);
    if (auto ok = take_derived(ck, kernel.stages[idx], part.derived); !ok) return ok.diagnostics();
  }
  if (part.first == ChainStage::Outer && !head.trf)
    return lower_error(
        fmt::format("kernel `{}`: its contract_outer has no TRF operand", kernel.name));
  // The stream's storage type sizes the Packet Reducer's tree (§6); a ContractOuter tensor
  // carries it as its `Storage` argument.
  part.stream_type = head.input.storage.value_or(head.input.dtype);
  part.trf_type = head.trf ? head.trf->dtype : head.input.dtype;
  part.accumulator = head.input.dtype;
  part.mode = tail.lane_mode.value_or(LaneMode::Interleaved);
  // A Lane Folder fed by a parameter: as the kernel checker, nothing is assumed reduced unless
  // the type remembers its pre-reduce Time.
  if (part.first == ChainStage::Lane)
    part.m.out_time = head.input.pre_time ? head.input.pre_time->mapping : part.m.t2;
  auto program = lower_contraction(part);
  if (program) program->kernel_name = kernel.name;
  return program;
}

Result<ContractionProgram> lower_contraction(const ChainMappings& m, ScalarType stream_type,
                                             ScalarType trf_type, LaneMode mode) {
  ChainPart part;
  part.m = m;
  part.stream_type = stream_type;
  part.trf_type = trf_type;
  part.mode = mode;
  return lower_contraction(part);
}

Result<ContractionProgram> lower_contraction(const ChainPart& part) {
  const ChainMappings& m = part.m;
  ContractionProgram p;
  p.m = m;
  p.first = part.first;
  p.last = part.last;
  p.stream_type = part.stream_type;
  p.trf_type = part.trf_type;
  p.accumulator = part.accumulator;
  p.mode = part.mode;
  spatial_fields(m, p);
  p.lanes = m.lane.size();
  p.lane_live = liveness(m.lane);
  p.cycles = m.out_time.size();
  p.op = part.first == ChainStage::Time ? m.p2.size() : m.out_packet.size();
  p.p2 = m.p2.size();
  p.t2 = m.t2.size();
  p.t3 = m.t3.size();
  p.p3 = m.p3.size();
  if (p.last == ChainStage::Outer) p.p2 = p.t2 = 1; // no accumulator
  CycleStreams cs;
  if (p.forms_products())
    if (auto ok = lower_outer(part, p, cs); !ok) return ok.diagnostics();
  if (p.walks_cycles())
    if (auto ok = lower_packet(part, p); !ok) return ok.diagnostics();
  if (auto ok = lower_time(part, p, cs); !ok) return ok.diagnostics();
  if (auto ok = lower_lane(part, p); !ok) return ok.diagnostics();
  if (auto ok = lower_cycles(part, p, cs); !ok) return ok.diagnostics();
  if (auto ok = verify(p); !ok) return ok.diagnostics();
  return p;
}

} // namespace tujit::ir::seq
