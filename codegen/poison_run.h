// The host side of the JIT's poison shadow (poison_emit.h): the cell-state tables it reads, made
// from the program's address streams, and the report of its result. A slice's shadow depends only
// on its spatial states (the cell tables are the same for every slice), so the generated code runs
// once per distinct pair of spatial states, and every live slice reads its pair's result through
// its own output cells.
#pragma once

#include "codegen/contraction_jit.h"
#include "codegen/poison_emit.h"
#include "runtime/engine/poison.h"

#include <cstdint>
#include <vector>

namespace tujit::codegen {

/// What the shadow reads besides the slice's spatial states: the CellState of every cell of the
/// stream (or input, source) and TRF views, from the program's address streams.
struct PoisonTables {
  std::vector<std::uint8_t> in, trf;
};
PoisonTables poison_tables(const ir::seq::RunProgram& program);

/// The poisoned live output cells of `program` by the generated shadow `fn` reading `tables`;
/// E-JIT-003 when the shadow stops an out-of-bounds access.
Result<runtime::PoisonReport> run_poison_shadow(PoisonFn fn, const ir::seq::RunProgram& program,
                                                const PoisonTables& tables);

/// The JIT's poison report of a run of `compiled`: its own shadow's when compiled with one
/// (JitOptions::poison_shadow or checked: `--checked` and every `tujit run --verify`), else the
/// poison analysis (runtime/engine/poison.h), as the interpreter reports.
Result<runtime::PoisonReport> jit_poison(const CompiledContraction& compiled,
                                         const ir::seq::RunProgram& program);

} // namespace tujit::codegen
