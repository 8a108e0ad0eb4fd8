// What every runner of compiled run-program code checks before it calls the code
// (contraction_run.cpp, partial_run.cpp, move_run.cpp), and the diagnostic of checked code that
// stopped an out-of-bounds access. Internal to codegen/.
#pragma once

#include "codegen/contraction_jit.h"

namespace tujit::codegen {

/// `compiled` is this back end's code for exactly `rp` (its fingerprint; E-JIT-002), the inputs
/// are the program's (runtime::check_run_inputs), and no two output cells hold one element
/// (E-RUN-110: only the interpreter checks such outputs).
Status checked_jit_run(const CompiledContraction& compiled, const ir::seq::RunProgram& rp,
                       const runtime::RunInputs& inputs);

/// E-JIT-003: checked code stopped an out-of-bounds access of `rp`.
Diagnostic out_of_bounds_error(const ir::seq::RunProgram& rp);

} // namespace tujit::codegen
