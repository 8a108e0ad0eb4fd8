// The host side of a JIT run of part of a contraction chain (partial_emit.h).
#pragma once

#include "codegen/contraction_jit.h"

namespace tujit::codegen {

/// Runs compiled code of a partial program (partial_emit.h is_partial) on the logical inputs,
/// checked like run_contraction_jit's; bit-identical to runtime::interpret's result, poison and
/// simulated_macs included.
Result<runtime::RunResult> run_partial_jit(const CompiledContraction& compiled,
                                           const ir::seq::RunProgram& program,
                                           const runtime::RunInputs& inputs,
                                           JitRunOptions options = {});

} // namespace tujit::codegen
