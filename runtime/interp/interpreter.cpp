#include "runtime/interp/interpreter.h"

#include "runtime/vector/leave_engines.h"
#include "runtime/vector/ve_scalar.h"

#include "runtime/device/device_image.h"
#include "runtime/engine/operand_read.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/widen.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::runtime {
namespace {

using ir::CellState;
using ir::seq::CellAddress;
using ir::seq::OperandStreams;
using ir::seq::RunProgram;

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

/// The output as written so far, with the check that cells holding the same element agree
/// (only when the program has such cells).
class OutputWriter {
public:
  OutputWriter(const RunProgram& p, LogicalTensor& out)
      : out_(out), check_(p.duplicated_outputs > 0) {
    if (check_) written_.assign(out.elements(), false);
  }
  bool write(std::uint64_t offset, std::uint32_t bits) {
    if (check_) {
      if (written_[offset]) {
        if (out_.get(offset) != (bits & mask())) {
          conflict_ = offset;
          return false;
        }
        return true;
      }
      written_[offset] = true;
    }
    out_.set(offset, bits);
    return true;
  }
  std::optional<Diagnostic> conflict() const {
    if (!conflict_) return std::nullopt;
    return run_error("E-RUN-005",
                     fmt::format("output element {} is held by two cells with different bits",
                                 out_.coordinate_text(*conflict_)));
  }

private:
  std::uint32_t mask() const {
    const std::uint32_t w = element_bytes(out_.dtype);
    return w == 4 ? 0xFFFFFFFFu : (1u << (8 * w)) - 1;
  }
  LogicalTensor& out_;
  bool check_;
  std::vector<bool> written_;
  std::optional<std::uint64_t> conflict_;
};

/// One slice of a contraction program: the packet cycles' cells (products, or the input
/// tensor's cells for a part that starts later), the trees, the accumulator and the output
/// writes (ir/seq/contraction_program.h).
class SliceRun {
public:
  SliceRun(const RunProgram& rp, const RunInputs& in, OutputWriter& writer, RunResult& result)
      : rp_(rp), p_(rp.contraction().chain), writer_(writer), result_(result),
        st_(*in.at(rp.input().streams.tensor)),
        wt_(p_.forms_products() ? in.at(rp.contraction().trf.streams.tensor) : nullptr),
        acc_(p_.accumulator_cells()), packet_(p_.columns * p_.group), vrf_(rp.vrf_operands.size()) {
    for (const OperandStreams& v : rp.vrf_operands) vrf_in_.push_back(in.at(v.streams.tensor));
  }

  /// Runs spatial position s; false on an output conflict (writer.conflict()).
  bool run(std::uint64_t s);

private:
  Operand input_cell(std::uint64_t o, std::uint64_t i) const;
  Operand product(const ir::seq::CycleAddress& a, std::uint64_t l, std::uint64_t x);
  bool cycle(const ir::seq::CycleAddress& a, std::uint64_t t);
  bool put(std::uint64_t o, std::uint64_t i, std::uint32_t bits) {
    const CellAddress oc = rp_.output.at(s_, o, i);
    return oc.state != CellState::Live || writer_.write(oc.offset, bits);
  }

  const RunProgram& rp_;
  const ir::seq::ContractionProgram& p_;
  OutputWriter& writer_;
  RunResult& result_;
  const LogicalTensor& st_;
  const LogicalTensor* wt_;
  std::vector<std::uint32_t> acc_; // [Lane][T2][P2] of one slice
  std::vector<Operand> packet_;    // one lane's cells of one packet cycle
  std::uint64_t s_ = 0;
  CellAddress sbase_, wbase_;
  std::vector<std::uint32_t> vrf_;           // the pass's `&vrf` operands at one output cell
  std::vector<const LogicalTensor*> vrf_in_; // their sources
};

// A cell of the input tensor of a part that does not start at contract_outer: present iff it
// holds a logical element. It already holds an accumulator value; widening it to the accumulator
// changes only a NaN, which enters as the canonical NaN so that every NaN the part puts out is
// 0x7FC00000 (docs/contraction.md §9.3), a Lane Folder alone included.
Operand SliceRun::input_cell(std::uint64_t o, std::uint64_t i) const {
  Operand x;
  if (sbase_.state != CellState::Live) return x;
  const CellAddress c = rp_.input().streams.cells.at(o, i);
  if (c.state != CellState::Live) return x;
  const OperandStreams& so = rp_.input();
  x.value = widen_to_accumulator(so.type, read_operand(so, st_, sbase_.offset + c.offset));
  x.present = true;
  return x;
}

// Stream Adapter + TRF Sequencer + Multiplier (§5.4): cell x of lane l's packet.
Operand SliceRun::product(const ir::seq::CycleAddress& a, std::uint64_t l, std::uint64_t x) {
  Operand o;
  if (!p_.is_cell_live(x) || sbase_.state != CellState::Live || wbase_.state != CellState::Live)
    return o;
  const ir::seq::OperandStreams& so = rp_.input();
  const ir::seq::OperandStreams& wo = rp_.contraction().trf;
  const CellAddress sc = so.streams.cells.at(a.flit + x / p_.packet, x % p_.packet);
  const CellAddress wc = wo.streams.cells.at(l, a.trf + x % p_.read_size);
  if (sc.state != CellState::Live || wc.state != CellState::Live) return o;
  const std::uint32_t sv = read_operand(so, st_, sbase_.offset + sc.offset);
  const std::uint32_t wv = read_operand(wo, *wt_, wbase_.offset + wc.offset);
  o.value = acc_mul(p_.accumulator, widen_to_accumulator(so.type, sv),
                    widen_to_accumulator(wo.type, wv), p_.ftz_results);
  o.present = true;
  ++result_.simulated_macs;
  return o;
}

// One packet cycle t of every live lane: its cells, the Packet Reducer per column (§6), then the
// Time Reducer's accumulation in flit order (§7) or, for a part ending before it, the output row.
bool SliceRun::cycle(const ir::seq::CycleAddress& a, std::uint64_t t) {
  for (std::uint64_t l = 0; l < p_.lanes; ++l) {
    if (!p_.lane_live[l]) continue; // its columns drain to output padding only
    const std::uint64_t row = l * p_.cycles + t;
    for (std::uint64_t x = 0; x < packet_.size(); ++x)
      packet_[x] = p_.forms_products() ? product(a, l, x) : input_cell(row, x);
    for (std::uint64_t c = 0; c < p_.columns; ++c) {
      Operand* group = &packet_[c * p_.group];
      reduce_tree(p_.accumulator, p_.ftz_results, group, p_.group);
      if (p_.cycle_output()) {
        if (!put(row, c, group[0].present ? group[0].value : 0u)) return false;
        continue;
      }
      const std::uint64_t ai = (l * p_.t2 + a.slot) * p_.p2 + c;
      if (group[0].present)
        acc_[ai] = acc_add(p_.accumulator, acc_[ai], group[0].value, p_.ftz_results);
    }
  }
  return true;
}

bool SliceRun::run(std::uint64_t s) {
  s_ = s;
  sbase_ = rp_.input().streams.spatial.at(s);
  if (p_.forms_products()) wbase_ = rp_.contraction().trf.streams.spatial.at(s);
  std::fill(acc_.begin(), acc_.end(), 0u); // +0.0f and 0 share the bits 0 (§9.2 step 2)
  if (p_.walks_cycles()) {
    // The packet-cycle nest in increasing OT position: flit order (§7).
    ir::seq::CycleWalker walk(p_.cycle_nest);
    do {
      if (!p_.is_cycle_live(walk.position())) continue; // pre-reduce OT padding: absent (§9.4)
      if (!cycle(walk.address(), walk.position())) return false;
    } while (walk.advance());
  } else {
    for (std::uint64_t r = 0; r < p_.input_outer(); ++r)
      for (std::uint64_t c = 0; c < p_.p2; ++c) {
        const Operand x = input_cell(r, c);
        acc_[r * p_.p2 + c] = x.present ? x.value : 0u;
      }
  }
  if (p_.last == ir::seq::ChainStage::Time) {
    for (std::uint64_t r = 0; r < p_.output_outer(); ++r)
      for (std::uint64_t c = 0; c < p_.p2; ++c)
        if (!put(r, c, acc_[r * p_.p2 + c])) return false;
  } else if (p_.last == ir::seq::ChainStage::Lane) {
    // Lane Folder (§8): drain in output order; output padding drains nothing (0).
    for (std::uint64_t o = 0; o < p_.drain.size(); ++o) {
      const std::int64_t d = p_.drain[o];
      std::uint32_t v = d < 0 ? 0u : acc_[static_cast<std::uint64_t>(d)];
      // A Vector Engine pass after the chain takes every drained cell (docs/vector-engine.md §4.1),
      // then the output path's cast (docs/output-path.md).
      for (std::size_t k = 0; k < vrf_.size(); ++k)
        vrf_[k] = read_vrf_operand(rp_.vrf_operands[k], *vrf_in_[k],
                                   rp_.vrf_operands[k].streams.at(s_, o / p_.p3, o % p_.p3));
      if (!put(o / p_.p3, o % p_.p3, leave_engines(rp_.vector, rp_.output_cast, v, vrf_)))
        return false;
    }
  }
  return true;
}

Result<RunResult> interpret_contraction(const RunProgram& rp, const RunInputs& in) {
  RunResult result;
  auto out = make_logical_tensor(rp.output.dtype, rp.output.axes);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);
  OutputWriter writer(rp, result.output);
  SliceRun slice(rp, in, writer, result);
  for (std::uint64_t s : rp.live_slices())
    if (!slice.run(s)) return *writer.conflict();
  result.poison = analyze_poison(rp);
  return result;
}

Result<RunResult> interpret_move(const RunProgram& rp, const RunInputs& in) {
  const OperandStreams& src = rp.move().source;
  const LogicalTensor& t = *in.at(src.streams.tensor);
  RunResult result;
  auto out = make_logical_tensor(rp.output.dtype, rp.output.axes);
  if (!out) return std::move(out).take_diagnostics();
  result.output = std::move(*out);
  OutputWriter writer(rp, result.output);
  const auto& cells = rp.output.cells;
  // The pass's `&vrf` operands, read at the same cell (docs/vector-engine.md §3.2).
  std::vector<const LogicalTensor*> vrf_in;
  for (const OperandStreams& v : rp.vrf_operands) vrf_in.push_back(in.at(v.streams.tensor));
  std::vector<std::uint32_t> vrf(rp.vrf_operands.size());
  for (std::uint64_t s : rp.live_slices()) {
    for (std::uint64_t o = 0; o < cells.outer_size; ++o)
      for (std::uint64_t i = 0; i < cells.inner_size; ++i) {
        const CellAddress oc = rp.output.at(s, o, i);
        if (oc.state != CellState::Live) continue;
        const CellAddress sc = src.streams.at(s, o, i);
        std::uint32_t v = 0;
        if (sc.state == CellState::Live) {
          v = read_operand(src, t, sc.offset);
          for (std::size_t k = 0; k < vrf.size(); ++k)
            vrf[k] = read_vrf_operand(rp.vrf_operands[k], *vrf_in[k],
                                      rp.vrf_operands[k].streams.at(s, o, i));
          if (rp.vector) v = vector::apply_pass(*rp.vector, v, vrf);
        }
        if (sc.state == CellState::Top) v = poison_bits(src.type);
        // Whatever the stream holds, the output path casts (docs/output-path.md §1).
        v = leave_engines(std::nullopt, rp.output_cast, v);
        if (!writer.write(oc.offset, v)) return *writer.conflict();
      }
  }
  result.poison = analyze_poison(rp);
  return result;
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

Result<RunResult> interpret(const RunProgram& p, const RunInputs& inputs) {
  if (auto ok = check_run_inputs(p, inputs); !ok) return ok.diagnostics();
  if (p.is_move()) return interpret_move(p, inputs);
  return interpret_contraction(p, inputs);
}

} // namespace tujit::runtime
