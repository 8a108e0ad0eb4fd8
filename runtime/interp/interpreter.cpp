#include "runtime/interp/interpreter.h"

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

// §9.3 ftz_results: a subnormal f32 (exponent field 0, fraction ≠ 0) becomes the zero of its sign.
std::uint32_t flush(std::uint32_t f, bool ftz) {
  return ftz && (f & 0x7F800000u) == 0 ? (f & 0x80000000u) : f;
}

// One tree operand: a value or ABSENT (§9.4).
struct Operand {
  std::uint32_t value = 0;
  bool present = false;
};

// Packet Reducer tree over x[0..G-1] (§9.2): level by level, adjacent pairs; ABSENT ⊕ v = v.
// Works in place; the result is x[0].
void reduce_tree(ir::ScalarType acc, bool ftz, Operand* x, std::uint64_t g) {
  for (std::uint64_t width = g; width > 1; width /= 2) {
    for (std::uint64_t i = 0; i < width / 2; ++i) {
      const Operand& a = x[2 * i];
      const Operand& b = x[2 * i + 1];
      Operand r;
      if (a.present && b.present) {
        r.value = acc_add(acc, a.value, b.value, ftz);
        r.present = true;
      } else if (a.present) {
        r = a;
      } else if (b.present) {
        r = b;
      }
      x[i] = r;
    }
  }
}

} // namespace

std::uint32_t acc_add(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz) {
  if (acc == ir::ScalarType::I32) return a + b; // u32 wrap = i32 two's complement
  return flush(canonical(f32_bits(f32_from_bits(a) + f32_from_bits(b))), ftz);
}

std::uint32_t acc_mul(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz) {
  if (acc == ir::ScalarType::I32) return a * b;
  return flush(canonical(f32_bits(f32_from_bits(a) * f32_from_bits(b))), ftz);
}

Status check_operand_images(const ir::seq::ContractionProgram& p, const DeviceImage& stream,
                            const DeviceImage& trf) {
  if (stream.dtype != p.stream_type || stream.spatial != p.spatial || stream.outer != p.time ||
      stream.inner != p.packet)
    return image_error(
        fmt::format("the stream image is {} [{}][{}][{}], the kernel's stream is {} [{}][{}][{}]",
                    ir::name(stream.dtype), stream.spatial, stream.outer, stream.inner,
                    ir::name(p.stream_type), p.spatial, p.time, p.packet));
  if (trf.dtype != p.trf_type || trf.spatial != p.spatial || trf.outer != p.lanes ||
      trf.inner != p.element)
    return image_error(
        fmt::format("the TRF image is {} [{}][{}][{}], the kernel's TRF operand is {} [{}][{}][{}]",
                    ir::name(trf.dtype), trf.spatial, trf.outer, trf.inner, ir::name(p.trf_type),
                    p.spatial, p.lanes, p.element));
  if (stream.bits.size() != stream.cells() || stream.state.size() != stream.cells() ||
      trf.bits.size() != trf.cells() || trf.state.size() != trf.cells())
    return image_error("a device image's cell arrays do not match its shape");
  // Every address the program can form must lie inside the images (a verified program's do; a
  // failure is a lowering bug, reported instead of read out of bounds).
  const std::uint64_t cells = p.columns * p.group;
  if (cells == 0) return {};
  ir::seq::CycleWalker walk(p.cycle_nest);
  do {
    if (!p.is_cycle_live(walk.position())) continue;
    const ir::seq::CycleAddress& a = walk.address();
    if (a.flit + (cells - 1) / p.packet >= p.time ||
        a.trf + std::min(cells, p.read_size) - 1 >= p.element || a.slot >= p.t2)
      return image_error(fmt::format(
          "internal: packet cycle {} addresses flit {}, TRF element {}, slot {}: outside the "
          "operand images",
          walk.position(), a.flit, a.trf, a.slot));
  } while (walk.advance());
  return {};
}

Result<ContractionResult> run_contraction(const ir::seq::ContractionProgram& p,
                                          const DeviceImage& stream, const DeviceImage& trf) {
  if (auto ok = check_operand_images(p, stream, trf); !ok) return ok.diagnostics();

  const ir::ScalarType acc_t = p.accumulator;
  ContractionResult result;
  result.output = DeviceImage(acc_t, p.spatial, p.t3, p.p3);
  std::fill(result.output.state.begin(), result.output.state.end(), CellState::Zero);

  // Per slice: the accumulator [Lane][T2][P2] — proportional to the output.
  std::vector<std::uint32_t> acc(p.accumulator_cells());
  std::vector<Operand> packet(p.columns * p.group); // one lane's products of one packet cycle

  for (std::uint64_t s = 0; s < p.spatial; ++s) {
    if (!p.spatial_live[s]) continue;
    std::fill(acc.begin(), acc.end(), 0u); // +0.0f and 0 share the bits 0 (§9.2 step 2)

    // The packet-cycle nest in increasing OT position: flit order (§7).
    ir::seq::CycleWalker walk(p.cycle_nest);
    do {
      if (!p.is_cycle_live(walk.position())) continue; // pre-reduce OT padding: absent (§9.4)
      const ir::seq::CycleAddress& a = walk.address();
      for (std::uint64_t l = 0; l < p.lanes; ++l) {
        if (!p.lane_live[l]) continue; // its columns drain to output padding only
        // Stream Adapter + TRF Sequencer + Multiplier (§5.4) for the cells of live columns.
        for (std::uint64_t x = 0; x < packet.size(); ++x) {
          Operand& o = packet[x];
          o = Operand{};
          const std::uint64_t si = stream.index(s, a.flit + x / p.packet, x % p.packet);
          const std::uint64_t wi = trf.index(s, l, a.trf + x % p.read_size);
          if (p.is_cell_live(x) && stream.state[si] == CellState::Live &&
              trf.state[wi] == CellState::Live) {
            o.value = acc_mul(acc_t, widen_to_accumulator(stream.dtype, stream.bits[si]),
                              widen_to_accumulator(trf.dtype, trf.bits[wi]), p.ftz_results);
            o.present = true;
            ++result.simulated_macs;
          }
        }
        // Packet Reducer (§6) per column, then Time Reducer accumulation (§7).
        for (std::uint64_t c = 0; c < p.columns; ++c) {
          Operand* group = &packet[c * p.group];
          reduce_tree(acc_t, p.ftz_results, group, p.group);
          const std::uint64_t ai = (l * p.t2 + a.slot) * p.p2 + c;
          if (group[0].present) acc[ai] = acc_add(acc_t, acc[ai], group[0].value, p.ftz_results);
        }
      }
    } while (walk.advance());

    // Lane Folder (§8): drain in output order; padding cells stay 0.
    for (std::uint64_t o = 0; o < p.drain.size(); ++o) {
      if (p.drain[o] < 0) continue;
      const std::uint64_t oi = s * p.drain.size() + o;
      result.output.bits[oi] = acc[static_cast<std::uint64_t>(p.drain[o])];
      result.output.state[oi] = CellState::Live;
    }
  }
  result.poison = analyze_poison(p, stream, trf);
  return result;
}

} // namespace tujit::runtime
