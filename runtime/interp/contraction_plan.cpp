#include "runtime/interp/contraction_plan.h"

#include "ir/mapping/factor.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/outer_stage.h"

#include <fmt/format.h>

#include <optional>

namespace tujit::runtime {
namespace {

Diagnostic run_error(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-RUN-101", std::move(message), std::nullopt, std::move(notes));
  d.stage = "run";
  return d;
}

std::vector<std::uint8_t> liveness(const ir::Mapping& m) {
  std::vector<std::uint8_t> live(m.size());
  for (std::uint64_t i = 0; i < m.size(); ++i) live[i] = m.map(i).is_live() ? 1 : 0;
  return live;
}

const ir::Stage* find_stage(const ir::Kernel& k, std::size_t from, ir::StageOp op,
                            std::size_t chain) {
  for (std::size_t i = from; i < k.stages.size(); ++i)
    if (k.stages[i].chain == chain && k.stages[i].op == op) return &k.stages[i];
  return nullptr;
}

} // namespace

Result<ContractionPlan> plan_contraction(const ir::SpecFile& /*file*/, const ir::Kernel& kernel) {
  if (!kernel.ok)
    return run_error(
        fmt::format("kernel `{}` has errors; fix them before running it", kernel.name));
  for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
    const ir::Stage& outer = kernel.stages[i];
    if (outer.op != ir::StageOp::ContractOuter || !outer.trf) continue;
    const ir::Stage* packet = find_stage(kernel, i + 1, ir::StageOp::ContractPacket, outer.chain);
    const ir::Stage* time = find_stage(kernel, i + 1, ir::StageOp::ContractTime, outer.chain);
    const ir::Stage* lane = find_stage(kernel, i + 1, ir::StageOp::ContractLane, outer.chain);
    if (packet == nullptr || time == nullptr || lane == nullptr || !lane->lane_mode) continue;
    using ir::Slot;
    ContractionMappings m;
    m.chip = outer.input.mapping(Slot::Chip);
    m.cluster = outer.input.mapping(Slot::Cluster);
    m.slice = outer.input.mapping(Slot::Slice);
    m.time = outer.input.mapping(Slot::Time);
    m.packet = outer.input.mapping(Slot::Packet);
    m.lane = outer.trf->mapping(Slot::Lane);
    m.element = outer.trf->mapping(Slot::Element);
    m.out_time = outer.output.mapping(Slot::Time);
    m.out_packet = outer.output.mapping(Slot::Packet);
    m.p2 = packet->output.mapping(Slot::Packet);
    m.t2 = time->output.mapping(Slot::Time);
    m.t3 = lane->output.mapping(Slot::Time);
    m.p3 = lane->output.mapping(Slot::Packet);
    return plan_contraction(m, outer.input.dtype, outer.trf->dtype, *lane->lane_mode);
  }
  return run_error(
      fmt::format("kernel `{}` has no contract_outer → contract_packet → contract_time → "
                  "contract_lane chain to run",
                  kernel.name),
      {"the reference interpreter runs complete contraction chains (contraction.md §5–§8)"});
}

Result<ContractionPlan> plan_contraction(const ContractionMappings& m, ir::ScalarType stream_dtype,
                                         ir::ScalarType trf_dtype, ir::LaneMode mode) {
  namespace v = ir::verify;
  ContractionPlan p;
  p.m = m;
  p.stream_dtype = stream_dtype;
  p.trf_dtype = trf_dtype;
  p.mode = mode;

  v::ContractOuterInput oin;
  oin.stream_dtype = stream_dtype;
  oin.weight_dtype = trf_dtype;
  oin.time = m.time;
  oin.packet = m.packet;
  oin.lane = m.lane;
  oin.element = m.element;
  oin.out_time = m.out_time;
  oin.out_packet = m.out_packet;
  auto outer = v::verify_contract_outer(oin);
  if (!outer) return outer.diagnostics();
  auto packet = v::verify_contract_packet({stream_dtype, m.out_packet, m.p2});
  if (!packet) return packet.diagnostics();
  auto time = v::verify_contract_time({m.out_time, m.t2});
  if (!time) return time.diagnostics();
  v::ContractLaneInput lin;
  lin.mode = mode;
  lin.lane = m.lane;
  lin.t2 = m.t2;
  lin.p2 = m.p2;
  lin.t3 = m.t3;
  lin.p3 = m.p3;
  lin.pre_reduce_time = m.out_time;
  auto lane = v::verify_contract_lane(lin);
  if (!lane) return lane.diagnostics();

  p.accumulator = outer->operands.accumulator;
  p.spatial = m.chip.size() * m.cluster.size() * m.slice.size();
  p.time = m.time.size();
  p.packet = m.packet.size();
  p.lanes = m.lane.size();
  p.element = m.element.size();
  p.ot = m.out_time.size();
  p.op = m.out_packet.size();
  p.p2 = m.p2.size();
  p.t2 = m.t2.size();
  p.t3 = m.t3.size();
  p.p3 = m.p3.size();
  p.pack_size = outer->stream_adapter.pack_size;
  p.time_broadcast = outer->stream_adapter.time_broadcast_size;
  p.flit_elements = ir::flit_elements(stream_dtype);
  p.read_size = outer->trf_sequencer.read_size;
  p.loops = outer->trf_sequencer.loops;
  p.depth = packet->depth;
  p.group = packet->group;
  p.live_columns = std::min(packet->live_columns, p.p2);
  p.inner_time = time->inner_time;

  // Internal consistency of the verifiers' values with the shapes the interpreter walks; a
  // failure is a bug in a verifier, reported instead of reading out of bounds.
  std::uint64_t loop_cells = 1;
  for (const auto& e : p.loops) loop_cells *= e.size;
  if (p.packet != p.flit_elements || p.op != p.pack_size * p.flit_elements || loop_cells != p.ot ||
      p.op % p.group != 0 || p.time * p.time_broadcast != p.ot * p.pack_size || p.p3 != 8)
    return run_error("internal: the verified contraction parameters are inconsistent",
                     {fmt::format("|Packet| {} FE {} |OP| {} PackSize {} loops cover {} of |OT| {} "
                                  "G {} |Time| {} TB {} |P3| {}",
                                  p.packet, p.flit_elements, p.op, p.pack_size, loop_cells, p.ot,
                                  p.group, p.time, p.time_broadcast, p.p3)});

  p.lane_live = liveness(m.lane);
  p.ot_live = liveness(m.out_time);
  p.op_live = liveness(m.out_packet);

  // Spatial = Chip × Cluster × Slice flattened in that order (device_image.h).
  p.spatial_live.assign(p.spatial, 0);
  {
    const auto chip = liveness(m.chip), cluster = liveness(m.cluster), slice = liveness(m.slice);
    for (std::uint64_t s = 0; s < p.spatial; ++s) {
      const std::uint64_t sl = s % slice.size();
      const std::uint64_t cl = (s / slice.size()) % cluster.size();
      const std::uint64_t ch = s / (slice.size() * cluster.size());
      p.spatial_live[s] = chip[ch] & cluster[cl] & slice[sl];
    }
  }

  // TRF Sequencer addresses (§5.2 loop configuration): t's mixed-radix digits over the loops.
  p.trf_addr.assign(p.ot, 0);
  for (std::uint64_t t = 0; t < p.ot; ++t) {
    std::uint64_t rest = t, addr = 0;
    for (auto it = p.loops.rbegin(); it != p.loops.rend(); ++it) {
      addr += (rest % it->size) * it->stride;
      rest /= it->size;
    }
    p.trf_addr[t] = addr;
  }

  // Time Reducer slots (§7): u = Σ retained digit · its stride in T2.
  p.slot.assign(p.ot, -1);
  for (std::uint64_t t = 0; t < p.ot; ++t) {
    if (!p.ot_live[t]) continue;
    std::uint64_t u = 0;
    for (const auto& term : time->terms)
      u += ((t / term.dividend_stride) % term.resize) * term.divisor_stride;
    if (u >= p.t2) return run_error("internal: a Time Reducer slot lies outside OutTime");
    p.slot[t] = static_cast<std::int64_t>(u);
  }

  // Lane Folder output order (§8); output padding cells drain nothing (written 0).
  const auto t3_live = liveness(m.t3);
  const auto p3_live = liveness(m.p3);
  p.out_source.assign(p.t3 * p.p3, -1);
  const std::uint64_t po = (p.p2 + 7) / 8;
  for (std::uint64_t u3 = 0; u3 < p.t3; ++u3) {
    for (std::uint64_t j = 0; j < p.p3; ++j) {
      std::uint64_t l = 0, u = 0, c = 0;
      if (mode == ir::LaneMode::Interleaved) {
        u = u3 / p.p2;
        c = u3 % p.p2;
        l = j;
      } else {
        const std::uint64_t q = u3 % po;
        l = (u3 / po) % p.lanes;
        u = u3 / (po * p.lanes);
        c = 8 * q + j;
      }
      if (!t3_live[u3] || !p3_live[j] || l >= p.lanes || c >= p.p2 || u >= p.t2) continue;
      p.out_source[u3 * p.p3 + j] = static_cast<std::int64_t>((l * p.t2 + u) * p.p2 + c);
    }
  }
  return p;
}

} // namespace tujit::runtime
