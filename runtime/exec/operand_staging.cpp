#include "runtime/exec/operand_staging.h"

#include "runtime/engine/operand_read.h"
#include "runtime/scalar/widen.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace tujit::runtime::exec {

namespace {

bool fits_i16(ir::ScalarType t) {
  const auto range = ir::integer_range(t);
  return range && range->first >= INT16_MIN && range->second <= INT16_MAX;
}

// i16 pairs serve a whole chain with an i32 accumulator whose widened operands are i16 values
// and whose packet cells pair up: every tree group is even, and the TRF element of cell p + 1 is
// the one after cell p's (p even) — true when ReadSize is even or covers the packet.
bool trf_pairs(const ir::seq::RunProgram& rp) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  return p.whole() && p.accumulator == ir::ScalarType::I32 && fits_i16(p.stream_type) &&
         fits_i16(p.trf_type) && p.group >= 2 && p.group % 2 == 0 &&
         (p.read_size % 2 == 0 || p.read_size >= p.op);
}

// The widened value (read_operand + widen_to_accumulator) of every code of a one-byte operand
// as `keep` judges it: true when every code passes.
template <typename Keep>
bool every_code(const ir::seq::OperandStreams& w, Keep keep) {
  if (element_bytes(w.streams.dtype) != 1) return false;
  for (std::uint32_t code = 0; code < 256; ++code) {
    const std::uint8_t raw[4] = {static_cast<std::uint8_t>(code), 0, 0, 0};
    const auto v = static_cast<std::int32_t>(widen_to_accumulator(
        w.type, adapt_element(w, w.streams.dtype, load_element(w.streams.dtype, raw))));
    if (!keep(static_cast<std::uint8_t>(code), v)) return false;
  }
  return true;
}

// Each run of `width` stream cells [e, e + width) of a flit (a quad or an octet) is wholly live
// at consecutive offsets or wholly padding, and wholly live or dead in cell_live, so that one
// read of `width` bytes is its stream half and every run that forms code forms `width` products.
bool stream_runs(const ir::seq::RunProgram& rp, std::uint64_t width) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  const ir::seq::CellStreams& c = rp.input().streams.cells;
  if (!c.separable || c.inner_size % width != 0 || p.op % width != 0) return false;
  for (std::uint64_t e = 0; e < c.inner_size; e += width) {
    const ir::seq::CellAddress first = c.inner.at(e);
    for (std::uint64_t j = 1; j < width; ++j) {
      const ir::seq::CellAddress a = c.inner.at(e + j);
      if (a.state != first.state) return false;
      if (a.state == ir::CellState::Live && a.offset != first.offset + j) return false;
    }
  }
  for (std::uint64_t i = 0; i < p.op; i += width)
    for (std::uint64_t j = 1; j < width; ++j)
      if (p.is_cell_live(i + j) != p.is_cell_live(i)) return false;
  return true;
}

// Byte quads (`width` 4) or octets (8), the header's staged_shape: u8 × i8 products of whole
// runs of adjacent cells.
bool trf_bytes(const ir::seq::RunProgram& rp, std::uint64_t width) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  return p.whole() && p.accumulator == ir::ScalarType::I32 && p.group % width == 0 &&
         (p.read_size % width == 0 || p.read_size >= p.op) &&
         every_code(rp.contraction().trf,
                    [](std::uint8_t, std::int32_t v) { return v >= -128 && v <= 127; }) &&
         every_code(rp.input(),
                    [](std::uint8_t code, std::int32_t v) {
                      return v == static_cast<std::int8_t>(code);
                    }) &&
         stream_runs(rp, width);
}

} // namespace

StagedShape staged_shape(const ir::seq::RunProgram& rp, ByteDot dot) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  StagedShape s;
  s.trf_cells = p.element * kLaneVector;
  s.acc_cells = p.t2 * p.p2 * kLaneVector;
  s.out_cells = p.t3 * p.p3;
  s.trf_octets = dot.lanes16 && trf_bytes(rp, 8);
  s.trf_quads = !s.trf_octets && dot.lanes8 && trf_bytes(rp, 4);
  s.trf_pairs = !s.trf_octets && !s.trf_quads && trf_pairs(rp);
  s.trf_masks = !s.trf_pairs && !s.trf_quads && !s.trf_octets &&
                !rp.contraction().trf.streams.cells.all_live();
  if (s.trf_quads || s.trf_octets) {
    // The code reads the run at element addr + (i mod read_size), i a multiple of the width; both
    // terms are multiples of it when every TRF stride of the cycle nest is.
    const std::uint64_t width = s.trf_octets ? 8 : 4;
    s.trf_word_step = width;
    for (const ir::seq::CycleLoop& loop : p.cycle_nest)
      if (loop.size > 1 && loop.trf_stride % width != 0) s.trf_word_step = 1;
  }
  return s;
}

ProgramTables program_tables(const ir::seq::RunProgram& rp, std::uint64_t no_output) {
  ProgramTables t;
  const ir::seq::CellStreams& c = rp.input().streams.cells;
  const ir::seq::AddressTable& flits = c.separable ? c.outer : c.full;
  t.flit_offset.resize(flits.size());
  for (std::uint64_t f = 0; f < flits.size(); ++f) t.flit_offset[f] = flits.offset(f);
  if (!flits.all_live()) {
    t.flit_live.resize(flits.size());
    for (std::uint64_t f = 0; f < flits.size(); ++f)
      t.flit_live[f] = flits.state(f) == ir::CellState::Live ? 1 : 0;
  }
  const ir::seq::CellStreams& o = rp.output.cells;
  t.out_offset.resize(o.outer_size * o.inner_size);
  for (std::uint64_t u = 0; u < o.outer_size; ++u)
    for (std::uint64_t j = 0; j < o.inner_size; ++j) {
      const ir::seq::CellAddress a = o.at(u, j);
      t.out_offset[u * o.inner_size + j] = a.state == ir::CellState::Live ? a.offset : no_output;
    }
  return t;
}

TrfPlan trf_plan(const ir::seq::RunProgram& rp, const StagedShape& sh,
                 const LogicalTensor& tensor) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  const ir::seq::OperandStreams& w = rp.contraction().trf;
  // [Lane][Element] → [Element][kLaneVector]; lanes ≥ |Lane| and padding lanes (which form no
  // product, §5.4) stay 0 / absent. An absent cell's value is never observed (masked to the
  // identity).
  TrfPlan plan;
  plan.offset.assign(sh.trf_cells, TrfPlan::kNoCell);
  for (std::uint64_t l = 0; l < p.lanes; ++l) {
    if (!p.lane_live[l]) continue;
    for (std::uint64_t x = 0; x < p.element; ++x) {
      const ir::seq::CellAddress a = w.streams.cells.at(l, x);
      if (a.state == ir::CellState::Live) plan.offset[x * kLaneVector + l] = a.offset;
    }
  }
  if (element_bytes(tensor.dtype) == 1) {
    plan.widened.resize(256);
    for (std::uint32_t code = 0; code < 256; ++code) {
      const std::uint8_t raw[4] = {static_cast<std::uint8_t>(code), 0, 0, 0};
      plan.widened[code] = widen_to_accumulator(
          w.type, adapt_element(w, tensor.dtype, load_element(tensor.dtype, raw)));
    }
  }
  return plan;
}

namespace {

// [x][l] ← (element x) | (element x + 1) << 16 in place, in increasing x: element x + 1 is still
// unchanged when pair x reads it. The values fit in i16 (trf_pairs), so the low half is exact.
void pair_up(std::vector<std::uint32_t>& v) {
  const std::uint64_t n = v.size();
  for (std::uint64_t c = 0; c < n; ++c) {
    const std::uint32_t next = c + kLaneVector < n ? v[c + kLaneVector] : 0;
    v[c] = (v[c] & 0xFFFFu) | (next << 16);
  }
}

// The staged byte runs (the header's byte quads / octets) of `values` ([Element][kLaneVector]
// widened elements, in [-128, 127]) into `runs`: word [x][l] (quads) or words [x][l][h] (octets)
// for every element x that is a multiple of `step`, the others left as they are (the code reads
// only those, StagedShape::trf_word_step). An element is its byte (v mod 256) with the top bit
// flipped, v + 128 exactly; past the last element, 128.
void stage_runs(const std::vector<std::uint32_t>& values, std::uint64_t words, std::uint64_t step,
                std::vector<std::uint32_t>& runs) {
  const std::uint64_t n = values.size(), elements = n / kLaneVector;
  runs.resize(n * words);
  const auto byte = [&](std::uint64_t c) { return ((c < n ? values[c] : 0u) & 0xFFu) ^ 0x80u; };
  for (std::uint64_t x = 0; x < elements; x += step)
    for (std::uint64_t l = 0; l < kLaneVector; ++l) {
      const std::uint64_t c = x * kLaneVector + l;
      for (std::uint64_t h = 0; h < words; ++h) {
        const std::uint64_t first = c + 4 * h * kLaneVector;
        runs[c * words + h] = byte(first) | byte(first + kLaneVector) << 8 |
                              byte(first + 2 * kLaneVector) << 16 |
                              byte(first + 3 * kLaneVector) << 24;
      }
    }
}

} // namespace

void stage_trf(const ir::seq::RunProgram& rp, const StagedShape& sh, const TrfPlan& plan,
               const LogicalTensor& tensor, std::uint64_t base, StagedTrf& out) {
  const ir::seq::OperandStreams& w = rp.contraction().trf;
  out.values.assign(sh.trf_cells, 0);
  if (sh.trf_masks) out.present.assign(sh.trf_cells, 0);
  const std::uint32_t bytes = element_bytes(tensor.dtype);
  const auto stage = [&](const auto& widened) {
    for (std::uint64_t c = 0; c < sh.trf_cells; ++c) {
      const std::uint64_t offset = plan.offset[c];
      if (offset == TrfPlan::kNoCell) continue;
      out.values[c] = widened(tensor.data.data() + (base + offset) * bytes, base + offset);
      if (sh.trf_masks) out.present[c] = kPresent;
    }
  };
  // read_operand + widen_to_accumulator: through the table for one-byte tensors; for bf16 without
  // a Fetch Adapter (the element is its own operand value) widen_bf16 itself, whose NaN is already
  // the canonical one (docs/scalars.md §4.1); otherwise element by element.
  constexpr ir::ScalarType kBf16 = ir::ScalarType::BF16;
  if (!plan.widened.empty())
    stage([&](const std::uint8_t* at, std::uint64_t) { return plan.widened[*at]; });
  else if (w.adapter.identity() && tensor.dtype == kBf16 && w.type == kBf16)
    stage([](const std::uint8_t* at, std::uint64_t) {
      std::uint16_t h;
      std::memcpy(&h, at, 2);
      return widen_bf16(h);
    });
  else
    stage([&](const std::uint8_t*, std::uint64_t i) {
      return widen_to_accumulator(w.type, read_operand(w, tensor, i));
    });
  if (sh.trf_pairs) pair_up(out.values);
  if (sh.trf_quads || sh.trf_octets) {
    stage_runs(out.values, sh.trf_octets ? 2 : 1, sh.trf_word_step, out.spare);
    out.values.swap(out.spare);
  }
}

void stage_trf(const ir::seq::RunProgram& rp, const StagedShape& sh, const LogicalTensor& tensor,
               std::uint64_t s, StagedTrf& out) {
  stage_trf(rp, sh, trf_plan(rp, sh, tensor), tensor,
            rp.contraction().trf.streams.spatial.offset(s), out);
}

} // namespace tujit::runtime::exec
