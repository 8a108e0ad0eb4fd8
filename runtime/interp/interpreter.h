// The reference interpreter of the Contraction Engine (docs/contraction.md §5.4, §6–§9): executes
// the Sequencer IR program (ir/seq/contraction_program.h) on per-slice device images, walking its
// loop nests the way the sequencers' counters do, stage by stage and bit-exactly:
//   Stream Adapter + TRF Sequencer + Multiplier: one packet of |OP| widened products per (lane,
//     packet cycle t), computed on the fly (the outer product is never materialised);
//   Packet Reducer: per lane, per column, a binary tree over ADJACENT pairs of G = 2^d cells;
//   Time Reducer: per slot, +0 then the tree results in increasing OT position;
//   Lane Folder: the Interleaved / Sequential drain into 8-element output flits.
// Padding follows §9.4 (ABSENT products), f32 is one IEEE binary32 operation per multiply/add
// with NaN results canonicalised to 0x7FC00000, i32 wraps.
#pragma once

#include "ir/seq/contraction_program.h"
#include "runtime/device/device_image.h"
#include "runtime/interp/poison.h"
#include "runtime/scalar/widen.h" // widen_to_accumulator: the Multiplier's widening

#include <cstdint>
#include <vector>

namespace tujit::runtime {

struct ContractionResult {
  /// [spatial][|T3|][8], dtype = the accumulator (i32 / f32). Live output cells are Live;
  /// output padding and cells of padding slices hold 0 and are Zero.
  DeviceImage output;
  /// Live output cells whose accumulator slot received (on hardware) a product of a Top padding
  /// cell with a live or Top operand cell in a live column (poison.h; reporting only, the values
  /// follow the ABSENT rule). Top × Zero padding is not poison.
  PoisonReport poison;
  /// Products that were present (both operands live at live positions), over all live slices.
  std::uint64_t simulated_macs = 0;
};

/// Runs the program. `stream` is the Collect output ([spatial][|Time|][|Packet|], the program's
/// stream type), `trf` the TRF operand ([spatial][|Lane|][|Element|], its TRF type). Fails with a
/// diagnostic (E-RUN-102) when an image's type or shape does not match the program.
Result<ContractionResult> run_contraction(const ir::seq::ContractionProgram& program,
                                          const DeviceImage& stream, const DeviceImage& trf);

/// E-RUN-102 unless the images' types and shapes are the program's operands (shared by every
/// engine).
Status check_operand_images(const ir::seq::ContractionProgram& program, const DeviceImage& stream,
                            const DeviceImage& trf);

/// One ⊕ / × of the accumulator type (§9.2, §9.3): f32 binary32 RNE with NaN canonicalised and,
/// with `ftz`, a subnormal result flushed to signed zero; i32 wrap-around.
std::uint32_t acc_add(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz = false);
std::uint32_t acc_mul(ir::ScalarType acc, std::uint32_t a, std::uint32_t b, bool ftz = false);

} // namespace tujit::runtime
