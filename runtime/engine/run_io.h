// What a run of the Sequencer IR (ir/seq/run_program.h) reads and returns, the same for both
// engines (the reference interpreter, runtime/interp/; the JIT, codegen/): its inputs, the logical
// tensors of its parameters; its result, the logical output with the poison report and the
// products simulated; and the check every engine makes of the inputs before it reads them.
#pragma once

#include "ir/seq/run_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/engine/poison.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <map>
#include <string>

namespace tujit::runtime {

/// The logical tensors a run reads, by parameter name.
using RunInputs = std::map<std::string, const LogicalTensor*>;

struct RunResult {
  /// The logical output over the program's output axes (dtype = the program's output dtype).
  LogicalTensor output;
  /// Live output cells that depend on Top padding content (poison.h; reporting only).
  PoisonReport poison;
  /// Contraction: products present (both operands live at live positions) over all live slices.
  std::uint64_t simulated_macs = 0;
  /// The output's SHA-256 (lower-case hex) when the engine computed it as it wrote the output
  /// (codegen::JitRunOptions::digest_output); empty otherwise.
  std::string sha256;
};

/// E-RUN-004 unless every tensor the program reads is given, with the dtype and shape its
/// streams assume; E-RUN-102 when the program breaks an invariant (ir::seq::verify) or a stream
/// addresses an element outside its tensor (a lowering bug, reported instead of read out of
/// bounds). Shared by every engine.
Status check_run_inputs(const ir::seq::RunProgram& program, const RunInputs& inputs);
/// check_run_inputs without ir::seq::verify: for a program verified before (E-RUN-004, and
/// E-RUN-102 for a stream reaching outside its tensor).
Status check_input_tensors(const ir::seq::RunProgram& program, const RunInputs& inputs);

} // namespace tujit::runtime
