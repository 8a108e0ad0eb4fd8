// The reference interpreter of the Sequencer IR (ir/seq/run_program.h): executes a run program
// on the logical tensors of its parameters, walking its loop nests the way the sequencers'
// counters do and its address streams into the logical tensors, stage by stage and bit-exactly
// (docs/contraction.md §5.4, §6–§9):
//   Stream Adapter + TRF Sequencer + Multiplier: one packet of |OP| widened products per (lane,
//     packet cycle t), computed on the fly (the outer product is never materialised);
//   Packet Reducer: per lane, per column, a binary tree over ADJACENT pairs of G = 2^d cells;
//   Time Reducer: per slot, +0 then the tree results in increasing OT position;
//   Lane Folder: the Interleaved / Sequential drain into 8-element output flits, written to the
//     logical output through its streams.
// Padding follows §9.4 (ABSENT products: a product is present only when both operand cells are
// live), f32 is one IEEE binary32 operation per multiply/add with NaN results canonicalised to
// 0x7FC00000, i32 wraps. It is the simple, obviously correct engine; the JIT must match it bit for
// bit.
#pragma once

#include "ir/seq/run_program.h"
#include "runtime/interp/poison.h"
#include "runtime/scalar/widen.h" // widen_to_accumulator: the Multiplier's widening
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

/// Runs the program on the reference interpreter.
Result<RunResult> interpret(const ir::seq::RunProgram& program, const RunInputs& inputs);

/// An element of `source` type (its 32-bit container) as the consumer of `operand` sees it: the
/// Fetch Adapter's cast or zero-point subtraction applied (docs/datapath.md §6).
std::uint32_t adapt_element(const ir::seq::OperandStreams& operand, ir::ScalarType source,
                            std::uint32_t bits);

/// The element an operand reads at a live cell (logical offset), adapted.
std::uint32_t read_operand(const ir::seq::OperandStreams& operand, const LogicalTensor& tensor,
                           std::uint64_t offset);

/// One ⊕ / × of the accumulator type (§9.2, §9.3): f32 binary32 RNE with NaN canonicalised and,
/// with `ftz`, a subnormal result flushed to signed zero; i32 wrap-around.
std::uint32_t acc_add(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz = false);
std::uint32_t acc_mul(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz = false);

} // namespace tujit::runtime
