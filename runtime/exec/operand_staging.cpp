// The widening loops below run over every operand cell on each JIT run; GCC's -O2 cost model
// does not vectorise them, its dynamic model does (a pure function of each cell: no effect on
// values).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif
#include "runtime/exec/operand_staging.h"

#include "runtime/interp/interpreter.h"

#include <cstring>

namespace tujit::runtime::exec {

static_assert(sizeof(CellState) == 1 && static_cast<unsigned>(CellState::Live) == 0,
              "the state scans read 8 states per 64-bit word, Live = 0");

bool any_not_live(const CellState* states, std::uint64_t n) {
  std::uint64_t i = 0, acc = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, states + i, 8);
    acc |= w;
  }
  for (; i < n; ++i) acc |= static_cast<std::uint64_t>(states[i]);
  return acc != 0;
}

bool any_state(const CellState* states, std::uint64_t n, CellState v) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const std::uint64_t pattern = kOnes * static_cast<std::uint64_t>(v);
  std::uint64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, states + i, 8);
    const std::uint64_t x = w ^ pattern; // a byte equal to v becomes 0
    if (((x - kOnes) & ~x & kHighs) != 0) return true;
  }
  for (; i < n; ++i)
    if (states[i] == v) return true;
  return false;
}

namespace {

// widen_to_accumulator with the type switch hoisted out of the cell loop (the same functions).
// Dense rows (no presence mask) first check that every cell is live, then widen without a branch
// on the state, a loop the compiler can vectorise.
template <typename Widen>
bool widen_cells(const std::uint32_t* bits, const CellState* state, std::uint64_t n,
                 std::uint64_t stride, std::uint32_t* out, std::uint32_t* present, Widen widen) {
  if (present == nullptr) {
    if (any_not_live(state, n)) return false;
    std::uint64_t i = 0;
    if (stride == 1) // blocks of 8: a fixed trip count the compiler vectorises at -O2
      for (; i + 8 <= n; i += 8)
        for (std::uint64_t j = 0; j < 8; ++j) out[i + j] = widen(bits[i + j]);
    for (; i < n; ++i) out[i * stride] = widen(bits[i]);
    return true;
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    const bool live = state[i] == CellState::Live;
    present[i * stride] = live ? kPresent : 0;
    // An absent cell's value is never observed (masked to the identity); stage 0.
    out[i * stride] = live ? widen(bits[i]) : 0;
  }
  return true;
}

// widen_bf16 (docs/scalars.md §4.1) in select form: NaN → 0x7FC00000, zero / subnormal → signed
// zero, else the bits shifted by 16.
inline std::uint32_t widen_bf16_select(std::uint32_t b) {
  const std::uint32_t h = b & 0xFFFFu;
  const std::uint32_t shifted = ((h & 0x7F80u) == 0 ? (h & 0x8000u) : h) << 16;
  return (h & 0x7FFFu) > 0x7F80u ? 0x7FC00000u : shifted;
}

bool widen_row(ir::ScalarType t, const std::uint32_t* bits, const CellState* state, std::uint64_t n,
               std::uint64_t stride, std::uint32_t* out, std::uint32_t* present) {
  switch (t) {
  case ir::ScalarType::BF16:
    return widen_cells(bits, state, n, stride, out, present, widen_bf16_select);
  case ir::ScalarType::F8E4M3:
  case ir::ScalarType::F8E5M2:
    return widen_cells(bits, state, n, stride, out, present,
                       [t](std::uint32_t b) { return widen_to_accumulator(t, b); });
  default: // integers: the container holds the sign-extended value (device_image.h)
    return widen_cells(bits, state, n, stride, out, present, [](std::uint32_t b) { return b; });
  }
}

bool is_integer_stream(ir::ScalarType t) {
  return t != ir::ScalarType::BF16 && t != ir::ScalarType::F8E4M3 && t != ir::ScalarType::F8E5M2;
}

} // namespace

StagedShape staged_shape(const ir::seq::ContractionProgram& p) {
  StagedShape s;
  s.stream_cells = p.time * p.packet;
  s.trf_cells = p.element * kLaneVector;
  s.acc_cells = p.t2 * p.p2 * kLaneVector;
  s.out_cells = p.t3 * p.p3;
  s.stream_masks = !p.stream_dense;
  s.trf_masks = !p.trf_dense;
  s.stream_in_place = p.stream_dense && is_integer_stream(p.stream_type);
  return s;
}

bool stage_slice(const ir::seq::ContractionProgram& p, const StagedShape& sh,
                 const DeviceImage& stream, const DeviceImage& trf, std::uint64_t s,
                 StagedSlice& out) {
  const std::uint64_t sb = stream.index(s, 0, 0);
  if (sh.stream_in_place) {
    if (any_not_live(stream.state.data() + sb, sh.stream_cells)) return false;
    out.stream = stream.bits.data() + sb;
  } else {
    out.stream_buf.resize(sh.stream_cells);
    if (sh.stream_masks) out.stream_present_buf.resize(sh.stream_cells);
    if (!widen_row(stream.dtype, stream.bits.data() + sb, stream.state.data() + sb, sh.stream_cells,
                   1, out.stream_buf.data(),
                   sh.stream_masks ? out.stream_present_buf.data() : nullptr))
      return false;
    out.stream = out.stream_buf.data();
  }
  out.stream_present = sh.stream_masks ? out.stream_present_buf.data() : nullptr;

  // TRF: [Lane][Element] → [Element][kLaneVector]; lanes ≥ |Lane| and padding lanes (which form
  // no product, §5.4) stay 0 / absent.
  out.trf_buf.assign(sh.trf_cells, 0);
  if (sh.trf_masks) out.trf_present_buf.assign(sh.trf_cells, 0);
  for (std::uint64_t l = 0; l < p.lanes; ++l) {
    if (!p.lane_live[l]) continue;
    const std::uint64_t wb = trf.index(s, l, 0);
    if (!widen_row(trf.dtype, trf.bits.data() + wb, trf.state.data() + wb, p.element, kLaneVector,
                   out.trf_buf.data() + l, sh.trf_masks ? out.trf_present_buf.data() + l : nullptr))
      return false;
  }
  out.trf = out.trf_buf.data();
  out.trf_present = sh.trf_masks ? out.trf_present_buf.data() : nullptr;
  return true;
}

} // namespace tujit::runtime::exec
