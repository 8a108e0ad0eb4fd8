#include "runtime/interp/interpreter.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::runtime {
namespace {

Diagnostic image_error(std::string message) {
  Diagnostic d = make_error("E-RUN-102", std::move(message));
  d.stage = "run";
  return d;
}

std::uint32_t canonical(std::uint32_t f) {
  return f32_is_nan(f) ? kF32CanonicalNaN : f;
}

// One tree operand: a value or ABSENT (§9.4), and whether hardware would have read Top padding
// content into it.
struct Operand {
  std::uint32_t value = 0;
  bool present = false;
  bool poisoned = false;
};

// Packet Reducer tree over x[0..G-1] (§9.2): level by level, adjacent pairs; ABSENT ⊕ v = v.
// Works in place; the result is x[0].
void reduce_tree(ir::ScalarType acc, Operand* x, std::uint64_t g) {
  for (std::uint64_t width = g; width > 1; width /= 2) {
    for (std::uint64_t i = 0; i < width / 2; ++i) {
      const Operand& a = x[2 * i];
      const Operand& b = x[2 * i + 1];
      Operand r;
      r.poisoned = a.poisoned || b.poisoned;
      if (a.present && b.present) {
        r.value = acc_add(acc, a.value, b.value);
        r.present = true;
      } else if (a.present) {
        r.value = a.value;
        r.present = true;
      } else if (b.present) {
        r.value = b.value;
        r.present = true;
      }
      x[i] = r;
    }
  }
}

} // namespace

std::uint32_t widen_to_accumulator(ir::ScalarType t, std::uint32_t bits) {
  switch (t) {
  case ir::ScalarType::BF16:
    return widen_bf16(static_cast<std::uint16_t>(bits & 0xFFFFu));
  case ir::ScalarType::F8E4M3:
    return dec_e4m3(static_cast<std::uint8_t>(bits & 0xFFu));
  case ir::ScalarType::F8E5M2:
    return canonical(dec_e5m2(static_cast<std::uint8_t>(bits & 0xFFu)));
  default:
    return bits; // integers: the container holds the sign-extended value (device_image.h)
  }
}

std::uint32_t acc_add(ir::ScalarType acc, std::uint32_t a, std::uint32_t b) {
  if (acc == ir::ScalarType::I32) return a + b; // u32 wrap = i32 two's complement
  return canonical(f32_bits(f32_from_bits(a) + f32_from_bits(b)));
}

std::uint32_t acc_mul(ir::ScalarType acc, std::uint32_t a, std::uint32_t b) {
  if (acc == ir::ScalarType::I32) return a * b;
  return canonical(f32_bits(f32_from_bits(a) * f32_from_bits(b)));
}

Result<ContractionResult> run_contraction(const ContractionPlan& plan, const DeviceImage& stream,
                                          const DeviceImage& trf) {
  if (stream.dtype != plan.stream_dtype || stream.spatial != plan.spatial ||
      stream.outer != plan.time || stream.inner != plan.packet)
    return image_error(
        fmt::format("the stream image is {} [{}][{}][{}], the kernel's stream is {} [{}][{}][{}]",
                    ir::name(stream.dtype), stream.spatial, stream.outer, stream.inner,
                    ir::name(plan.stream_dtype), plan.spatial, plan.time, plan.packet));
  if (trf.dtype != plan.trf_dtype || trf.spatial != plan.spatial || trf.outer != plan.lanes ||
      trf.inner != plan.element)
    return image_error(
        fmt::format("the TRF image is {} [{}][{}][{}], the kernel's TRF operand is {} [{}][{}][{}]",
                    ir::name(trf.dtype), trf.spatial, trf.outer, trf.inner,
                    ir::name(plan.trf_dtype), plan.spatial, plan.lanes, plan.element));
  if (stream.bits.size() != stream.cells() || stream.state.size() != stream.cells() ||
      trf.bits.size() != trf.cells() || trf.state.size() != trf.cells())
    return image_error("a device image's cell arrays do not match its shape");

  const ir::ScalarType acc_t = plan.accumulator;
  ContractionResult result;
  result.output = DeviceImage(acc_t, plan.spatial, plan.t3, plan.p3);
  std::fill(result.output.state.begin(), result.output.state.end(), CellState::Zero);

  // Per slice: the accumulator [Lane][T2][P2] and its poison flags — proportional to the output.
  const std::uint64_t acc_cells = plan.lanes * plan.t2 * plan.p2;
  std::vector<std::uint32_t> acc(acc_cells);
  std::vector<std::uint8_t> acc_poison(acc_cells);
  std::vector<Operand> packet(plan.op); // one lane's products of one packet cycle

  for (std::uint64_t s = 0; s < plan.spatial; ++s) {
    if (!plan.spatial_live[s]) continue;
    std::fill(acc.begin(), acc.end(), 0u); // +0.0f and 0 share the bits 0 (§9.2 step 2)
    std::fill(acc_poison.begin(), acc_poison.end(), 0);

    for (std::uint64_t t = 0; t < plan.ot; ++t) { // increasing OT position: flit order (§7)
      if (plan.slot[t] < 0) continue;             // pre-reduce OT padding: absent (§9.4)
      const auto u = static_cast<std::uint64_t>(plan.slot[t]);
      for (std::uint64_t l = 0; l < plan.lanes; ++l) {
        if (!plan.lane_live[l]) continue; // its columns drain to output padding only
        // Stream Adapter + TRF Sequencer + Multiplier (§5.4) for the cells of live columns.
        const std::uint64_t cells = plan.live_columns * plan.group;
        for (std::uint64_t p = 0; p < cells; ++p) {
          Operand& x = packet[p];
          x = Operand{};
          const std::uint64_t f = plan.stream_flit(t, p);
          const std::uint64_t a = plan.trf_element(t, p);
          if (f >= plan.time || a >= plan.element) continue; // cannot happen for verified plans
          const std::uint64_t si = stream.index(s, f, plan.stream_element(p));
          const std::uint64_t wi = trf.index(s, l, a);
          const CellState ss = stream.state[si], ws = trf.state[wi];
          if (plan.op_live[p] && ss == CellState::Live && ws == CellState::Live) {
            x.value = acc_mul(acc_t, widen_to_accumulator(stream.dtype, stream.bits[si]),
                              widen_to_accumulator(trf.dtype, trf.bits[wi]));
            x.present = true;
            ++result.simulated_macs;
          } else {
            // Hardware multiplies whatever the cells hold: Top content reaches the column when
            // the other operand is live or Top (Zero padding is a real zero, Bottom never read).
            const bool s_top = ss == CellState::Top, w_top = ws == CellState::Top;
            const bool s_read = ss == CellState::Live || s_top;
            const bool w_read = ws == CellState::Live || w_top;
            x.poisoned = (s_top && w_read) || (w_top && s_read);
          }
        }
        // Packet Reducer (§6) per column, then Time Reducer accumulation (§7).
        for (std::uint64_t c = 0; c < plan.live_columns; ++c) {
          Operand* group = &packet[c * plan.group];
          reduce_tree(acc_t, group, plan.group);
          const std::uint64_t ai = (l * plan.t2 + u) * plan.p2 + c;
          if (group[0].present) acc[ai] = acc_add(acc_t, acc[ai], group[0].value);
          if (group[0].poisoned) acc_poison[ai] = 1;
        }
      }
    }

    // Lane Folder (§8): drain in output order; padding cells stay 0.
    for (std::uint64_t o = 0; o < plan.t3 * plan.p3; ++o) {
      const std::int64_t src = plan.out_source[o];
      if (src < 0) continue;
      const std::uint64_t oi = s * plan.t3 * plan.p3 + o;
      result.output.bits[oi] = acc[static_cast<std::uint64_t>(src)];
      result.output.state[oi] = CellState::Live;
      if (acc_poison[static_cast<std::uint64_t>(src)]) {
        ++result.poisoned_outputs;
        if (result.first_poisoned.size() < kMaxPoisonReported)
          result.first_poisoned.push_back({s, o / plan.p3, o % plan.p3});
      }
    }
  }
  return result;
}

} // namespace tujit::runtime
