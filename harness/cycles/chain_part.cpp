#include "harness/cycles/chain_part.h"

#include "ir/seq/lower_contraction.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/outer_stage.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>

namespace tujit::cycles {

namespace {

using ir::seq::ContractionProgram;
using ir::seq::CycleLoop;
using Address = std::function<std::uint64_t(std::uint64_t)>;

// A contraction stage's unit is always timed (cycle_stage).
Stage model_stage(ir::StageOp op) {
  return cycle_stage(ir::descriptor(op).unit).value_or(Stage::ContractLane);
}

std::vector<std::uint8_t> liveness(const ir::Mapping& m) {
  std::vector<std::uint8_t> live(m.size());
  for (std::uint64_t i = 0; i < m.size(); ++i) live[i] = m.map(i).is_live() ? 1 : 0;
  if (std::all_of(live.begin(), live.end(), [](std::uint8_t v) { return v != 0; })) live.clear();
  return live;
}

Diagnostic part_error(std::string message) {
  Diagnostic d = make_error("E-CYCLES-004", std::move(message), std::nullopt,
                            {"this is a bug in tujit: the stage verifiers accepted the chain"});
  d.stage = "cycles";
  return d;
}

// The packet-cycle nest of the part over the counter boundaries `bounds` (each dividing the
// next): per loop, how far each address stream moves per step. The three streams are the ones the
// present stages define (flit: the Stream Adapter's packet, or one input packet cycle per cycle;
// TRF: the TRF Sequencer's address; slot: the Time Reducer's retained digits). Checked on every
// live cycle when the part is short enough to check (kTraceStepLimit).
std::optional<std::vector<CycleLoop>> part_nest(std::vector<std::uint64_t> bounds,
                                                std::uint64_t cycles, const ContractionProgram& p,
                                                const Address& flit, const Address& trf,
                                                const Address& slot) {
  bounds.push_back(1);
  bounds.push_back(cycles);
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  std::vector<std::uint64_t> chain{1}; // the boundaries that nest with the ones kept so far
  for (std::uint64_t b : bounds)
    if (b <= cycles && b % chain.back() == 0 && b != chain.back()) chain.push_back(b);
  if (chain.back() != cycles) return std::nullopt;
  std::vector<CycleLoop> nest;
  for (std::size_t i = chain.size() - 1; i-- > 0;) {
    const std::uint64_t e = chain[i];
    nest.push_back(
        CycleLoop{chain[i + 1] / e, flit(e) - flit(0), trf(e) - trf(0), slot(e) - slot(0)});
  }
  if (nest.empty()) nest.push_back(CycleLoop{});
  if (cycles > kTraceStepLimit) return nest;
  ir::seq::CycleWalker walk(nest);
  do {
    const std::uint64_t t = walk.position();
    if (!p.is_cycle_live(t)) continue;
    const auto& a = walk.address();
    if (a.flit != flit(t) || a.trf != trf(t) || a.slot != slot(t)) return std::nullopt;
  } while (walk.advance());
  return nest;
}

struct PartStages {
  const ir::Stage* outer = nullptr;
  const ir::Stage* packet = nullptr;
  const ir::Stage* time = nullptr;
  const ir::Stage* lane = nullptr;
};

// The Outer stage's fields (docs/contraction.md §5): the stream, the TRF operand and the packet
// cycles.
Result<ir::verify::ContractOuterDerived> outer_fields(const ir::Stage& outer,
                                                      ContractionProgram& p) {
  auto d = ir::verify::verify_contract_outer(
      ir::verify::contract_outer_input(outer.input, *outer.trf, outer.output));
  if (!d) return d;
  p.stream_type = outer.input.dtype;
  p.trf_type = outer.trf->dtype;
  p.time = outer.input.mapping(ir::Slot::Time).size();
  p.packet = outer.input.mapping(ir::Slot::Packet).size();
  p.lanes = outer.trf->mapping(ir::Slot::Lane).size();
  p.element = outer.trf->mapping(ir::Slot::Element).size();
  p.op = outer.output.mapping(ir::Slot::Packet).size();
  p.pack_size = d->stream_adapter.pack_size;
  p.time_broadcast = d->stream_adapter.time_broadcast_size;
  p.read_size = d->trf_sequencer.read_size;
  p.wide_read = d->trf_sequencer.wide;
  p.lane_live = liveness(outer.trf->mapping(ir::Slot::Lane));
  p.cell_live = liveness(outer.output.mapping(ir::Slot::Packet));
  return d;
}

// A part that starts after contract_outer reads a tensor parameter: one packet cycle per cycle
// (docs/cycle-model.md §8), so the "stream" is that tensor's Time, one flit per packet cycle.
void parameter_input(const ir::Stage& first, ContractionProgram& p) {
  const ir::TensorType& in = first.input;
  p.stream_type = in.storage.value_or(in.dtype);
  p.lanes = in.mapping(ir::Slot::Lane).size();
  p.lane_live = liveness(in.mapping(ir::Slot::Lane));
  p.time = p.cycles;
  p.op = in.mapping(ir::Slot::Packet).size();
}

// Chip × Cluster × Slice flattened in that order, with the live positions (§3: identical for
// every tensor of the chain).
void spatial_fields(const ir::TensorType& t, ContractionProgram& p) {
  const ir::Mapping &chip = t.mapping(ir::Slot::Chip), &cluster = t.mapping(ir::Slot::Cluster),
                    &slice = t.mapping(ir::Slot::Slice);
  p.spatial = chip.size() * cluster.size() * slice.size();
  p.spatial_live.assign(p.spatial, 0);
  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    const std::uint64_t sl = s % slice.size(), cl = (s / slice.size()) % cluster.size();
    const std::uint64_t ch = s / (slice.size() * cluster.size());
    p.spatial_live[s] =
        chip.map(ch).is_live() && cluster.map(cl).is_live() && slice.map(sl).is_live() ? 1 : 0;
  }
}

Result<ChainPart> build_part(const ir::Kernel& kernel, const PartStages& st, ChainPart part) {
  ContractionProgram& p = part.program;
  p.kernel_name = kernel.name;
  const ir::Stage& first = st.outer    ? *st.outer
                           : st.packet ? *st.packet
                           : st.time   ? *st.time
                                       : *st.lane;
  spatial_fields(first.input, p);
  p.cycles = first.input.mapping(ir::Slot::Time).size();
  if (st.outer) p.cycles = st.outer->output.mapping(ir::Slot::Time).size();
  const ir::Mapping& ot =
      st.outer ? st.outer->output.mapping(ir::Slot::Time) : first.input.mapping(ir::Slot::Time);
  p.cycle_live = liveness(ot);
  std::vector<std::uint64_t> bounds;
  Address flit = [](std::uint64_t t) { return t; };
  Address trf = [](std::uint64_t) { return std::uint64_t{0}; };
  Address slot = [](std::uint64_t) { return std::uint64_t{0}; };
  std::vector<ir::verify::TrfLoopEntry> loops;
  if (st.outer) {
    auto d = outer_fields(*st.outer, p);
    if (!d) return std::move(d).take_diagnostics();
    loops = d->trf_sequencer.loops;
    const std::uint64_t tb = p.time_broadcast, ps = p.pack_size;
    flit = [tb, ps](std::uint64_t t) { return (t / tb) * ps; };
    trf = [&loops](std::uint64_t t) {
      std::uint64_t rest = t, addr = 0;
      for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
        addr += (rest % it->size) * it->stride;
        rest /= it->size;
      }
      return addr;
    };
    bounds.push_back(tb);
    std::uint64_t inner = 1;
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) bounds.push_back(inner *= it->size);
  } else {
    parameter_input(first, p);
  }
  if (st.packet) {
    const ir::TensorType& in = st.packet->input;
    auto d = ir::verify::verify_contract_packet({in.storage.value_or(in.dtype),
                                                 in.mapping(ir::Slot::Packet),
                                                 st.packet->output.mapping(ir::Slot::Packet)});
    if (!d) return std::move(d).take_diagnostics();
    p.depth = d->depth;
    p.group = d->group;
    p.p2 = st.packet->output.mapping(ir::Slot::Packet).size();
    p.columns = std::min(d->live_columns, p.p2);
  }
  if (!st.packet) {
    p.group = p.op; // no tree in the part: every product of a packet is one result
    p.columns = 1;
  }
  std::vector<ir::DivideTerm> terms;
  if (st.time) {
    auto d = ir::verify::verify_contract_time(
        {st.time->input.mapping(ir::Slot::Time), st.time->output.mapping(ir::Slot::Time)});
    if (!d) return std::move(d).take_diagnostics();
    p.inner_time = d->inner_time;
    p.t2 = st.time->output.mapping(ir::Slot::Time).size();
    terms = d->terms;
    if (st.lane) {
      slot = [&terms](std::uint64_t t) {
        std::uint64_t u = 0;
        for (const auto& term : terms)
          u += ((t / term.dividend_stride) % term.resize) * term.divisor_stride;
        return u;
      };
      for (const auto& term : terms) {
        bounds.push_back(term.dividend_stride);
        bounds.push_back(term.dividend_stride * term.resize);
      }
    }
  }
  if (st.lane) {
    p.mode = st.lane->lane_mode.value_or(ir::LaneMode::Interleaved);
    p.t2 = st.lane->input.mapping(ir::Slot::Time).size();
    p.p2 = st.lane->input.mapping(ir::Slot::Packet).size();
    p.lanes = st.lane->input.mapping(ir::Slot::Lane).size();
    p.t3 = st.lane->output.mapping(ir::Slot::Time).size();
    p.p3 = st.lane->output.mapping(ir::Slot::Packet).size();
  }
  if (part.options.first != Stage::ContractLane) {
    auto nest = part_nest(bounds, p.cycles, p, flit, trf, slot);
    if (!nest)
      return part_error(
          fmt::format("the packet cycles of kernel `{}` are not a loop nest", kernel.name));
    p.cycle_nest = std::move(*nest);
  }
  return part;
}

} // namespace

std::vector<std::size_t> contraction_stages(const ir::Kernel& kernel, std::size_t chain) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < kernel.stages.size(); ++i)
    if (kernel.stages[i].chain == chain && ir::is_contraction(kernel.stages[i].op))
      out.push_back(i);
  return out;
}

Result<ChainPart> chain_part(const ir::Kernel& kernel, const std::vector<std::size_t>& stages) {
  PartStages st;
  for (std::size_t i : stages) {
    const ir::Stage& s = kernel.stages[i];
    switch (ir::descriptor(s.op).unit) {
    case ir::StageUnit::ContractOuter:
      st.outer = &s;
      break;
    case ir::StageUnit::PacketReducer:
      st.packet = &s;
      break;
    case ir::StageUnit::TimeReducer:
      st.time = &s;
      break;
    case ir::StageUnit::LaneFolder:
      st.lane = &s;
      break;
    default: // contraction_stages() gives contraction stages only
      break;
    }
  }
  if (stages.empty() || (st.outer && !st.outer->trf))
    return part_error(fmt::format("kernel `{}` has no contraction stage to time", kernel.name));
  ChainPart part;
  part.options = st.outer ? cycle_options_for(kernel, *st.outer) : CycleOptions{};
  part.options.first = model_stage(kernel.stages[stages.front()].op);
  part.options.last = model_stage(kernel.stages[stages.back()].op);
  if (st.outer && st.packet && st.time && st.lane) {
    auto program = ir::seq::lower_contraction(kernel);
    if (!program) return std::move(program).take_diagnostics();
    part.program = std::move(*program);
    part.complete = true;
    return part;
  }
  part.options.concurrent_store = false; // only a complete chain reads the refilled half
  return build_part(kernel, st, std::move(part));
}

} // namespace tujit::cycles
