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
#include "runtime/engine/run_io.h"
#include "runtime/scalar/widen.h" // widen_to_accumulator: the Multiplier's widening

#include <cstdint>

namespace tujit::runtime {

/// Runs the program on the reference interpreter.
Result<RunResult> interpret(const ir::seq::RunProgram& program, const RunInputs& inputs);

/// One ⊕ / × of the accumulator type (§9.2, §9.3): f32 binary32 RNE with NaN canonicalised and,
/// with `ftz`, a subnormal result flushed to signed zero; i32 wrap-around.
std::uint32_t acc_add(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz = false);
std::uint32_t acc_mul(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz = false);

} // namespace tujit::runtime
