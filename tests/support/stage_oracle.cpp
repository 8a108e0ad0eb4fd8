#include "tests/support/stage_oracle.h"

#include "ir/mapping/divide.h"
#include "ir/mapping/factor.h"
#include "ir/target/rngd.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/outer_stage.h"
#include "runtime/engine/poison.h"
#include "runtime/interp/interpreter.h"
#include "runtime/scalar/float_bits.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace tujit::testing {

using runtime::acc_add;
using runtime::acc_mul;
using runtime::poison_bits;
using runtime::product_poisoned;
using runtime::widen_to_accumulator;
namespace {

using ir::Slot;
using ir::StageOp;

std::vector<std::uint8_t> liveness(const ir::Mapping& m) {
  std::vector<std::uint8_t> live(m.size());
  for (std::uint64_t i = 0; i < m.size(); ++i) live[i] = m.map(i).is_live() ? 1 : 0;
  return live;
}

// Spatial = Chip × Cluster × Slice flattened in that order (device_image.h); a position is live
// when all three are. The mappings pass through every stage unchanged (§3).
std::vector<std::uint8_t> spatial_liveness(const ir::TensorType& t) {
  const auto chip = liveness(t.mapping(Slot::Chip));
  const auto cluster = liveness(t.mapping(Slot::Cluster));
  const auto slice = liveness(t.mapping(Slot::Slice));
  std::vector<std::uint8_t> live;
  live.reserve(chip.size() * cluster.size() * slice.size());
  for (auto a : chip)
    for (auto b : cluster)
      for (auto c : slice) live.push_back(static_cast<std::uint8_t>(a & b & c));
  return live;
}

// E-RUN-102 unless `img` has the dtype and shape of the stage's tensor.
std::optional<Diagnostic> check_image(std::string_view what, const DeviceImage& img,
                                      const std::vector<std::uint8_t>& present,
                                      ir::ScalarType dtype, std::uint64_t spatial,
                                      std::uint64_t outer, std::uint64_t inner) {
  if (img.dtype != dtype || img.spatial != spatial || img.outer != outer || img.inner != inner)
    return run_error("E-RUN-102",
                     fmt::format("the {} image is {} [{}][{}][{}], the stage reads {} [{}][{}][{}]",
                                 what, ir::name(img.dtype), img.spatial, img.outer, img.inner,
                                 ir::name(dtype), spatial, outer, inner));
  if (img.bits.size() != img.cells() || img.state.size() != img.cells() ||
      (!present.empty() && present.size() != img.cells()))
    return run_error("E-RUN-102",
                     fmt::format("the {} image's cell arrays do not match its shape", what));
  return std::nullopt;
}

Diagnostic wrong_stage(const ir::Stage& st, std::string_view expected) {
  return run_error("E-RUN-101", fmt::format("the stage executor was given a `{}` stage where it "
                                            "runs `{}`",
                                            ir::to_string(st.op), expected));
}

// A cell in flight: its value, whether it is present (§9.4) and whether Top content reached it.
struct Cell {
  std::uint32_t value = 0;
  bool present = false;
  bool poisoned = false;
};

// An output image with every cell Zero (bits 0) and a presence mask of zeros.
StageImage blank(ir::ScalarType t, std::uint64_t spatial, std::uint64_t outer,
                 std::uint64_t inner) {
  StageImage out(DeviceImage(t, spatial, outer, inner));
  std::fill(out.image.state.begin(), out.image.state.end(), CellState::Zero);
  out.present.assign(out.image.cells(), 0);
  return out;
}

// A value a stage puts out: every NaN result is the canonical NaN (§9.3), whatever NaN the
// stage's input held (a Lane Folder moves values and sums nothing, yet puts out no payload).
std::uint32_t result_bits(ir::ScalarType t, std::uint32_t v) {
  return t == ir::ScalarType::F32 && runtime::f32_is_nan(v) ? runtime::kF32CanonicalNaN : v;
}

// Writes a cell by the file comment's state rule. `position_live`: the output position holds a
// logical element (a padding position is absent whatever was computed there).
void put(StageImage& out, std::uint64_t i, Cell c, bool position_live) {
  c.present = c.present && position_live;
  out.present[i] = c.present ? 1 : 0;
  if (c.poisoned) {
    out.image.state[i] = CellState::Top;
    out.image.bits[i] =
        c.present ? result_bits(out.image.dtype, c.value) : poison_bits(out.image.dtype);
  } else if (c.present) {
    out.image.state[i] = CellState::Live;
    out.image.bits[i] = result_bits(out.image.dtype, c.value);
  } else {
    out.image.state[i] = CellState::Zero;
    out.image.bits[i] = 0;
  }
}

Cell read(const StageImage& in, std::uint64_t i) {
  Cell c;
  c.present = in.is_present(i);
  c.poisoned = in.image.state[i] == CellState::Top;
  c.value = c.present ? in.image.bits[i] : 0;
  return c;
}

// §9.2 tree pairing over x[0..g-1] (g a power of two): level by level, adjacent pairs,
// ABSENT ⊕ v = v; poison spreads to every sum it enters. In place; the result is x[0].
Cell reduce_tree(ir::ScalarType acc, bool ftz, std::vector<Cell>& x, std::uint64_t g) {
  for (std::uint64_t width = g; width > 1; width /= 2) {
    for (std::uint64_t i = 0; i < width / 2; ++i) {
      const Cell a = x[2 * i], b = x[2 * i + 1];
      Cell r;
      if (a.present && b.present) {
        r.value = acc_add(acc, a.value, b.value, ftz);
        r.present = true;
      } else if (a.present) {
        r = a;
      } else if (b.present) {
        r = b;
      }
      r.poisoned = a.poisoned || b.poisoned;
      x[i] = r;
    }
  }
  return x[0];
}

} // namespace

// ---------------------------------------------------------------------------------------------
// contract_outer (§5)
// ---------------------------------------------------------------------------------------------

Result<StageImage> exec_contract_outer(const ir::Stage& st, const DeviceImage& stream,
                                       const DeviceImage& trf, const StageOptions& opt) {
  if (st.op != StageOp::ContractOuter || !st.trf) return wrong_stage(st, "contract_outer");
  const ir::TensorType& in = st.input;
  const ir::TensorType& w = *st.trf;
  const ir::verify::ContractOuterInput ci = ir::verify::contract_outer_input(in, w, st.output);
  auto d = ir::verify::verify_contract_outer(ci);
  if (!d) return d.diagnostics();

  const auto spatial = spatial_liveness(in);
  const std::uint64_t S = spatial.size();
  const std::uint64_t n_time = ci.time.size(), n_packet = ci.packet.size();
  const std::uint64_t lanes = ci.lane.size(), n_element = ci.element.size();
  const std::uint64_t n_ot = ci.out_time.size(), n_op = ci.out_packet.size();
  if (auto e = check_image("stream", stream, {}, in.dtype, S, n_time, n_packet))
    return std::move(*e);
  if (auto e = check_image("TRF", trf, {}, w.dtype, S, lanes, n_element)) return std::move(*e);

  const ir::ScalarType acc = d->operands.accumulator;
  const std::uint64_t ps = d->stream_adapter.pack_size;
  const std::uint64_t tb = d->stream_adapter.time_broadcast_size;
  const std::uint64_t rs = d->trf_sequencer.read_size;
  const auto& loops = d->trf_sequencer.loops; // outer → inner, one per OT digit (§5.2)
  std::uint64_t loop_cells = 1;
  for (const auto& l : loops) loop_cells *= l.size;
  // The verified parameters must describe the shapes walked (a failure is a verifier bug,
  // reported instead of read out of bounds).
  if (loop_cells != n_ot || n_time * tb != n_ot * ps || n_op != ps * n_packet || rs == 0 ||
      n_op % rs != 0)
    return run_error("E-RUN-101",
                     "internal: the verified contract_outer parameters do not fit its shapes",
                     {fmt::format("|Time| {} |Packet| {} |OT| {} |OP| {} PackSize {} TB {} RS {} "
                                  "TRF loops cover {}",
                                  n_time, n_packet, n_ot, n_op, ps, tb, rs, loop_cells)});

  // addr(t) = Σ digit_f(t)·stride_f over the TRF Sequencer loops (innermost digit fastest).
  std::vector<std::uint64_t> addr(n_ot, 0);
  for (std::uint64_t t = 0; t < n_ot; ++t) {
    std::uint64_t rest = t;
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      addr[t] += (rest % it->size) * it->stride;
      rest /= it->size;
    }
  }
  const auto lane_live = liveness(ci.lane);
  const auto ot_live = liveness(ci.out_time);
  const auto op_live = liveness(ci.out_packet);

  StageImage x = blank(acc, S, lanes * n_ot, n_op);
  for (std::uint64_t s = 0; s < S; ++s) {
    if (!spatial[s]) continue;
    for (std::uint64_t l = 0; l < lanes; ++l)
      for (std::uint64_t t = 0; t < n_ot; ++t) {
        const std::uint64_t f0 = (t / tb) * ps; // first stream flit of this packet (§5.4)
        for (std::uint64_t p = 0; p < n_op; ++p) {
          const std::uint64_t a = addr[t] + p % rs;
          Cell c;
          if (a < n_element) { // an address past the lane is never read
            const std::uint64_t si = stream.index(s, f0 + p / n_packet, p % n_packet);
            const std::uint64_t wi = trf.index(s, l, a);
            const CellState ss = stream.state[si], ws = trf.state[wi];
            c.poisoned = product_poisoned(ss, ws);
            c.present = lane_live[l] && ot_live[t] && op_live[p] && ss == CellState::Live &&
                        ws == CellState::Live;
            if (c.present)
              c.value = acc_mul(acc, widen_to_accumulator(stream.dtype, stream.bits[si]),
                                widen_to_accumulator(trf.dtype, trf.bits[wi]), opt.ftz_results);
          }
          put(x, x.image.index(s, l * n_ot + t, p), c, true);
        }
      }
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// contract_packet (§6)
// ---------------------------------------------------------------------------------------------

Result<StageImage> exec_contract_packet(const ir::Stage& st, const StageImage& in,
                                        const StageOptions& opt) {
  if (st.op != StageOp::ContractPacket) return wrong_stage(st, "contract_packet");
  const ir::TensorType& it = st.input;
  const ir::Mapping& op = it.mapping(Slot::Packet);
  const ir::Mapping& p2 = st.output.mapping(Slot::Packet);
  // Packet sizes count in the stream's storage type (§6), carried by the ContractOuterTensor.
  auto d = ir::verify::verify_contract_packet({it.storage.value_or(it.dtype), op, p2});
  if (!d) return d.diagnostics();

  const auto spatial = spatial_liveness(it);
  const std::uint64_t S = spatial.size();
  const std::uint64_t rows = it.mapping(Slot::Lane).size() * it.mapping(Slot::Time).size();
  const std::uint64_t n_op = op.size(), n_p2 = p2.size();
  if (auto e = check_image("ContractOuterTensor", in.image, in.present, it.dtype, S, rows, n_op))
    return std::move(*e);
  const std::uint64_t g = d->group;
  if (g == 0 || n_op % g != 0)
    return run_error("E-RUN-101", "internal: the tree group does not divide the packet",
                     {fmt::format("|OP| {} G {}", n_op, g)});
  const std::uint64_t tree_columns = std::min(n_op / g, n_p2); // |RP| trimmed to P2
  const std::uint64_t live_columns = d->live_columns;          // L: the live prefix of RP

  const ir::ScalarType acc = it.dtype;
  StageImage r = blank(acc, S, rows, n_p2);
  std::vector<Cell> group(g);
  for (std::uint64_t s = 0; s < S; ++s) {
    if (!spatial[s]) continue;
    for (std::uint64_t row = 0; row < rows; ++row)
      for (std::uint64_t c = 0; c < tree_columns; ++c) {
        for (std::uint64_t k = 0; k < g; ++k)
          group[k] = read(in, in.image.index(s, row, c * g + k));
        const Cell v = reduce_tree(acc, opt.ftz_results, group, g);
        put(r, r.image.index(s, row, c), v, c < live_columns);
      }
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// contract_time (§7)
// ---------------------------------------------------------------------------------------------

Result<StageImage> exec_contract_time(const ir::Stage& st, const StageImage& in,
                                      const StageOptions& opt) {
  if (st.op != StageOp::ContractTime) return wrong_stage(st, "contract_time");
  const ir::TensorType& it = st.input;
  const ir::Mapping& ot = it.mapping(Slot::Time);
  const ir::Mapping& t2 = st.output.mapping(Slot::Time);
  auto d = ir::verify::verify_contract_time({ot, t2});
  if (!d) return d.diagnostics();

  const auto spatial = spatial_liveness(it);
  const std::uint64_t S = spatial.size();
  const ir::Mapping& lane = it.mapping(Slot::Lane);
  const ir::Mapping& p2 = it.mapping(Slot::Packet);
  const std::uint64_t lanes = lane.size(), n_ot = ot.size(), n_t2 = t2.size(), n_p2 = p2.size();
  if (auto e = check_image("ContractPacketTensor", in.image, in.present, it.dtype, S, lanes * n_ot,
                           n_p2))
    return std::move(*e);

  // The slot of OT position t: Σ retained digit · its stride in T2 (the verifier's division).
  // A retained whole factor keeps its padding in T2 (§7 rule 3), so its digit runs over the
  // padded extent: a padded OT position then names the padded T2 position the counters reach
  // (`M # 8` walks slots 0..7), never a live slot.
  const auto ot_padding = ir::padding_per_stride(ir::factorize(ot));
  std::vector<std::uint64_t> slot(n_ot, 0);
  for (const auto& term : d->terms) {
    const std::uint64_t extent = ir::padded_extent_at(ot_padding, term).value_or(term.resize);
    for (std::uint64_t t = 0; t < n_ot; ++t)
      slot[t] += ((t / term.dividend_stride) % extent) * term.divisor_stride;
  }
  const auto ot_live = liveness(ot);
  for (std::uint64_t t = 0; t < n_ot; ++t)
    if (ot_live[t] && slot[t] >= n_t2)
      return run_error("E-RUN-101", "internal: a Time Reducer slot lies outside OutTime",
                       {fmt::format("OT position {} → slot {} of {}", t, slot[t], n_t2)});
  const auto lane_live = liveness(lane);
  const auto t2_live = liveness(t2);
  const auto p2_live = liveness(p2);

  const ir::ScalarType acc = it.dtype;
  StageImage a = blank(acc, S, lanes * n_t2, n_p2);
  std::vector<Cell> slots(lanes * n_t2 * n_p2);
  for (std::uint64_t s = 0; s < S; ++s) {
    if (!spatial[s]) continue;
    std::fill(slots.begin(), slots.end(), Cell{0, true, false}); // +0 / 0 (§9.2 step 2)
    for (std::uint64_t t = 0; t < n_ot; ++t) {                   // flit order (§7)
      // A padded OT position adds nothing (§9.4) but the counters still run through it, so Top
      // content there reaches the slot its digits name (poison.h).
      if (slot[t] >= n_t2) continue;
      for (std::uint64_t l = 0; l < lanes; ++l)
        for (std::uint64_t c = 0; c < n_p2; ++c) {
          const Cell v = read(in, in.image.index(s, l * n_ot + t, c));
          Cell& dst = slots[(l * n_t2 + slot[t]) * n_p2 + c];
          dst.poisoned = dst.poisoned || v.poisoned;
          if (ot_live[t] && v.present)
            dst.value = acc_add(acc, dst.value, v.value, opt.ftz_results);
        }
    }
    for (std::uint64_t l = 0; l < lanes; ++l)
      for (std::uint64_t u = 0; u < n_t2; ++u)
        for (std::uint64_t c = 0; c < n_p2; ++c)
          put(a, a.image.index(s, l * n_t2 + u, c), slots[(l * n_t2 + u) * n_p2 + c],
              lane_live[l] && t2_live[u] && p2_live[c]);
  }
  return a;
}

// ---------------------------------------------------------------------------------------------
// contract_lane (§8)
// ---------------------------------------------------------------------------------------------

Result<StageImage> exec_contract_lane(const ir::Stage& st, const StageImage& in) {
  if (st.op != StageOp::ContractLane) return wrong_stage(st, "contract_lane");
  const ir::TensorType& it = st.input;
  ir::verify::ContractLaneInput ci;
  ci.mode = st.lane_mode.value_or(ir::LaneMode::Interleaved);
  ci.lane = it.mapping(Slot::Lane);
  ci.t2 = it.mapping(Slot::Time);
  ci.p2 = it.mapping(Slot::Packet);
  ci.t3 = st.output.mapping(Slot::Time);
  ci.p3 = st.output.mapping(Slot::Packet);
  // As the kernel checker: a parameter's producer is unknown, assume nothing was reduced.
  ci.pre_reduce_time = it.pre_time ? it.pre_time->mapping : ci.t2;
  auto d = ir::verify::verify_contract_lane(ci);
  if (!d) return d.diagnostics();

  const auto spatial = spatial_liveness(it);
  const std::uint64_t S = spatial.size();
  const std::uint64_t lanes = ci.lane.size(), n_t2 = ci.t2.size(), n_p2 = ci.p2.size();
  const std::uint64_t n_t3 = ci.t3.size(), n_p3 = ci.p3.size();
  if (auto e =
          check_image("ContractTimeTensor", in.image, in.present, it.dtype, S, lanes * n_t2, n_p2))
    return std::move(*e);
  const auto t3_live = liveness(ci.t3);
  const auto p3_live = liveness(ci.p3);
  constexpr std::uint64_t bus = target::kRngd.output_bus_elements;
  const std::uint64_t po = (n_p2 + bus - 1) / bus; // Sequential: 8-element flits per column run

  StageImage out = blank(it.dtype, S, n_t3, n_p3);
  for (std::uint64_t s = 0; s < S; ++s) {
    if (!spatial[s]) continue;
    for (std::uint64_t u3 = 0; u3 < n_t3; ++u3)
      for (std::uint64_t j = 0; j < n_p3; ++j) {
        if (!t3_live[u3] || !p3_live[j]) continue; // output padding: 0
        // Output order (§8): Interleaved T3 = [T2, P2], P3 = [Lane # 8];
        // Sequential T3 = [T2, Lane, po], P3 = the inner 8 of P2 padded to a multiple of 8.
        std::uint64_t l = j, u = u3 / n_p2, c = u3 % n_p2;
        if (ci.mode == ir::LaneMode::Sequential) {
          c = bus * (u3 % po) + j;
          l = (u3 / po) % lanes;
          u = u3 / (po * lanes);
        }
        if (l >= lanes || u >= n_t2 || c >= n_p2) continue;
        const std::uint64_t src = in.image.index(s, l * n_t2 + u, c);
        const std::uint64_t dst = out.image.index(s, u3, j);
        out.present[dst] = in.is_present(src) ? 1 : 0;
        out.image.bits[dst] =
            out.present[dst] ? result_bits(it.dtype, in.image.bits[src]) : in.image.bits[src];
        out.image.state[dst] = in.image.state[src];
      }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Chains
// ---------------------------------------------------------------------------------------------

Result<StageImage> exec_contraction_stages(const ir::Kernel& k, std::size_t first, std::size_t last,
                                           const StageImage& input, const DeviceImage* trf,
                                           const StageOptions& opt) {
  auto path = ir::seq::contraction_path(k, first, last);
  if (!path) return path.diagnostics();
  StageImage current;
  const StageImage* in = &input;
  for (std::size_t idx : *path) {
    const ir::Stage& st = k.stages[idx];
    Result<StageImage> r = Diagnostics{};
    switch (st.op) {
    case StageOp::ContractOuter:
      if (trf == nullptr)
        return run_error("E-RUN-102", "contract_outer needs the TRF operand's image");
      r = exec_contract_outer(st, in->image, *trf, opt);
      break;
    case StageOp::ContractPacket:
      r = exec_contract_packet(st, *in, opt);
      break;
    case StageOp::ContractTime:
      r = exec_contract_time(st, *in, opt);
      break;
    default:
      r = exec_contract_lane(st, *in);
      break;
    }
    if (!r) return r.diagnostics();
    current = std::move(*r);
    in = &current;
  }
  return current;
}

std::uint64_t poisoned_cells(const StageImage& si) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < si.image.cells(); ++i)
    n += si.image.state[i] == CellState::Top && si.is_present(i);
  return n;
}

} // namespace tujit::testing
