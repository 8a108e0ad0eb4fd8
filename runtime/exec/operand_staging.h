// Host-side staging of one slice of a contraction's operands for the JIT
// (codegen/contraction_jit.h): every operand cell is widened ONCE to accumulator bits
// (widen_to_accumulator is exact, so widening before the run is faithful to the interpreter's
// per-product widening, docs/contraction.md §2.1, docs/scalars.md §5.4) and laid out the way the
// generated code reads it:
//   stream [|Time|·|Packet|]            one scalar per cell, broadcast to every lane
//   TRF    [|Element|][kLaneVector]     the 8 lanes of one element are one vector (the
//                                       hardware's Lane Broadcast, §5.4)
// Presence masks (kPresent = the cell holds a logical element, else 0) exist only when the
// program is not stream_dense / trf_dense: otherwise no product can be ABSENT because of an
// operand (§9.4) and the generated code does not read them. A dense integer stream needs no
// staging at all: the image already holds sign-extended i32 bits in the staged order, so the
// generated code reads the image itself. Staging is per slice, into per-worker buffers, so the
// run's memory stays operands + outputs + a few slices.
#pragma once

#include "ir/seq/contraction_program.h"
#include "ir/target/rngd.h"
#include "runtime/device/device_image.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime::exec {

/// Lanes of one staged TRF vector: the hardware's lane count (docs/contraction.md §1), padded.
inline constexpr std::uint64_t kLaneVector = target::kRngd.lanes;
inline constexpr std::uint32_t kPresent = 0xFFFFFFFFu;

/// Cells of one staged slice, shared by the staging and the code generator.
struct StagedShape {
  std::uint64_t stream_cells = 0; // |Time|·|Packet|
  std::uint64_t trf_cells = 0;    // |Element|·kLaneVector
  std::uint64_t acc_cells = 0;    // |T2|·|P2|·kLaneVector (the JIT's accumulator scratch)
  std::uint64_t out_cells = 0;    // |T3|·|P3|
  bool stream_masks = false;      // presence masks are staged and read
  bool trf_masks = false;
  bool stream_in_place = false; // the stream image's bits are read directly
};

StagedShape staged_shape(const ir::seq::ContractionProgram& program);

/// Whether any of `n` cell states equals `v` (a word-at-a-time scan: the dense-operand checks and
/// the poison pre-check read every state of the operands on each run).
bool any_state(const CellState* states, std::uint64_t n, CellState v);
/// Whether any of `n` cell states differs from Live.
bool any_not_live(const CellState* states, std::uint64_t n);

/// One slice's staged operands (buffers reused from slice to slice by one worker).
struct StagedSlice {
  const std::uint32_t* stream = nullptr; // the image's bits when stream_in_place
  const std::uint32_t* stream_present = nullptr;
  const std::uint32_t* trf = nullptr;
  const std::uint32_t* trf_present = nullptr;
  std::vector<std::uint32_t> stream_buf, stream_present_buf, trf_buf, trf_present_buf;
};

/// Stages spatial position `s` (a live slice) of the images (already checked against the program
/// by check_operand_images). False when an image of a dense operand holds a non-live cell in
/// this slice (the program was lowered from other mappings than the image's; E-RUN-102).
bool stage_slice(const ir::seq::ContractionProgram& program, const StagedShape& shape,
                 const DeviceImage& stream, const DeviceImage& trf, std::uint64_t s,
                 StagedSlice& out);

} // namespace tujit::runtime::exec
