#include "codegen/poison_run.h"

#include "codegen/contraction_emit.h"
#include "codegen/jit_run_checks.h"

#include <map>
#include <utility>

namespace tujit::codegen {
namespace {

using ir::CellState;

std::vector<std::uint8_t> states(const ir::seq::CellStreams& cells) {
  std::vector<std::uint8_t> v(cells.outer_size * cells.inner_size);
  for (std::uint64_t o = 0; o < cells.outer_size; ++o)
    for (std::uint64_t i = 0; i < cells.inner_size; ++i)
      v[o * cells.inner_size + i] = static_cast<std::uint8_t>(cells.at(o, i).state);
  return v;
}

bool reads_trf(const ir::seq::RunProgram& rp) {
  return !rp.is_move() && rp.contraction().chain.forms_products();
}

} // namespace

PoisonTables poison_tables(const ir::seq::RunProgram& rp) {
  PoisonTables t;
  t.in = states(rp.input().streams.cells);
  if (reads_trf(rp)) t.trf = states(rp.contraction().trf.streams.cells);
  return t;
}

Result<runtime::PoisonReport> run_poison_shadow(PoisonFn fn, const ir::seq::RunProgram& rp,
                                                const PoisonTables& tables) {
  const PoisonShape sh = poison_shape(rp);
  if (tables.in.size() != sh.in_cells || tables.trf.size() != sh.trf_cells)
    return run_error("E-JIT-002", "internal: the poison shadow's tables do not fit its program");
  const std::uint64_t inner = rp.output.cells.inner_size;
  std::vector<std::uint8_t> slots(sh.slot_cells);
  using SpatialStates = std::pair<CellState, CellState>;
  std::map<SpatialStates, std::vector<std::uint8_t>> by_states;
  runtime::PoisonReport report;
  for (std::uint64_t s : rp.live_slices()) {
    const SpatialStates k{rp.input().streams.spatial.state(s),
                          reads_trf(rp) ? rp.contraction().trf.streams.spatial.state(s)
                                        : CellState::Live};
    auto it = by_states.find(k);
    if (it == by_states.end()) {
      std::vector<std::uint8_t> out(sh.out_cells);
      const PoisonArgs args{tables.in.data(),
                            tables.trf.empty() ? nullptr : tables.trf.data(),
                            slots.data(),
                            out.data(),
                            static_cast<std::uint8_t>(k.first),
                            static_cast<std::uint8_t>(k.second)};
      if (fn(&args) != kRunOk) return out_of_bounds_error(rp);
      it = by_states.emplace(k, std::move(out)).first;
    }
    const std::vector<std::uint8_t>& poisoned = it->second;
    for (std::uint64_t o = 0; o < poisoned.size(); ++o)
      if (poisoned[o] != 0 && rp.output.at(s, o / inner, o % inner).state == CellState::Live)
        runtime::add_poisoned(report, {s, o / inner, o % inner});
  }
  return report;
}

Result<runtime::PoisonReport> jit_poison(const CompiledContraction& compiled,
                                         const ir::seq::RunProgram& rp) {
  const auto fn = compiled.poison_function<PoisonFn>();
  if (fn == nullptr) return runtime::analyze_poison(rp);
  return run_poison_shadow(fn, rp, poison_tables(rp));
}

// The shapes poison_emit.cpp and this runner share.
PoisonShape poison_shape(const ir::seq::RunProgram& rp) {
  PoisonShape s;
  if (rp.is_move()) {
    const auto& cells = rp.input().streams.cells;
    s.in_cells = s.out_cells = cells.outer_size * cells.inner_size;
    return s;
  }
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  s.in_cells = p.forms_products() ? p.time * p.packet : p.input_outer() * p.input_inner();
  s.trf_cells = p.forms_products() ? p.lanes * p.element : 0;
  s.slot_cells = p.cycle_output() ? 0 : p.accumulator_cells();
  s.out_cells = p.output_outer() * p.output_inner();
  return s;
}

} // namespace tujit::codegen
