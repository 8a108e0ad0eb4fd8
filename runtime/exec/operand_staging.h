// Host-side data of a JIT contraction run (codegen/contraction_emit.h): what the generated code
// reads besides the logical tensors themselves.
//   TRF    per slice, [|Element|][kLaneVector]: the 8 lanes of one element are one vector (the
//          hardware's Lane Broadcast, docs/contraction.md §5.4), each cell widened ONCE to
//          accumulator bits (widen_to_accumulator is exact, so widening before the run is
//          faithful to the interpreter's per-product widening), with presence masks (kPresent =
//          the cell is live) only when some TRF cell is padding. Bounded by the TRF's capacity.
//          i16 PAIRS (StagedShape::trf_pairs, chosen by the program alone: an i32 accumulator
//          whose operands both fit in i16, see staged_shape): cell [x][l] holds element x of
//          lane l in its low 16 bits and element x + 1 in its high 16 bits (two's complement;
//          0 past the last element), so one 32-bit word is the TRF half of two adjacent
//          products, as the host's i16 multiply-add pairs read them. A padding cell is 0 there
//          and no mask is staged: its product is 0, the identity of an i32 sum (§9.4).
//          BYTE QUADS (StagedShape::trf_quads, chosen by the program and the host: it multiplies
//          unsigned bytes by signed bytes, see staged_shape): cell [x][l] holds elements x … x + 3
//          of lane l as four bytes (element x lowest), each the element plus 128 (its two's
//          complement byte with the top bit flipped; 128 past the last element and for a padding
//          cell, whose element is 0), so one 32-bit word is the TRF half of four adjacent
//          products as unsigned bytes. The code subtracts 128 times the stream cells' sum, which
//          takes the 128 back out of every product exactly (contraction_emit.cpp, BYTE QUADS).
//          BYTE OCTETS (StagedShape::trf_octets, the same on 16 lanes of i32): two words per cell,
//          [x][l][h] = the quad word of elements x + 4h … x + 4h + 3 of lane l (h = 0, 1), so that
//          one 64-byte vector holds two quads of every lane side by side, which one 8-byte read of
//          the stream's eight cells meets when broadcast.
//   tables per program: the stream's offset of every flit (or of every cell when its streams are
//          not separable) with its liveness, and the output element of every output cell of a
//          slice. Proportional to one dimension, shared by every slice and thread.
#pragma once

#include "ir/seq/run_program.h"
#include "ir/target/rngd.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime::exec {

/// Lanes of one staged TRF vector: the hardware's lane count (docs/contraction.md §1), padded.
inline constexpr std::uint64_t kLaneVector = target::kRngd.lanes;
inline constexpr std::uint32_t kPresent = 0xFFFFFFFFu;

/// Cells of one staged slice, shared by the staging and the code generator.
struct StagedShape {
  std::uint64_t trf_cells = 0;     // |Element|·kLaneVector
  std::uint64_t acc_cells = 0;     // |T2|·|P2|·kLaneVector (the JIT's accumulator scratch)
  std::uint64_t out_cells = 0;     // |T3|·|P3|
  bool trf_masks = false;          // presence masks are staged and read
  bool trf_pairs = false;          // the TRF is staged as i16 pairs (the file comment)
  bool trf_quads = false;          // the TRF is staged as byte quads (the file comment)
  bool trf_octets = false;         // … as byte octets, 2·trf_cells words (the file comment)
  std::uint64_t trf_word_step = 1; // byte quads / octets: only elements x ≡ 0 mod this are read
};

/// The u8 × i8 dot products of the host the code is compiled for (codegen/quad_madd.h).
struct ByteDot {
  bool lanes8 = false;  // on 8 lanes of i32 (AVX-VNNI, or AVX512-VNNI with AVX512VL)
  bool lanes16 = false; // on 16 lanes of i32 (AVX512-VNNI)
};

/// The staged shape of `program` for code that multiplies byte octets (`dot.lanes16`) or quads
/// (`dot.lanes8`) when the program allows it: an i32 accumulator, both operands one-byte tensors,
/// every TRF code widening into [-128, 127] and every stream code to its own byte as a signed
/// value (the code reads the stream's raw bytes), and packet cells that form whole octets /
/// quads (every tree group a multiple of 8 / 4, their TRF elements consecutive, each octet / quad
/// of a flit wholly live at consecutive offsets or wholly padding, in every flit); else i16 pairs
/// where the program allows them.
StagedShape staged_shape(const ir::seq::RunProgram& program, ByteDot dot);

/// The per-program tables (above).
struct ProgramTables {
  std::vector<std::uint64_t> flit_offset;
  std::vector<std::uint8_t> flit_live; // empty when every flit (cell) is live
  std::vector<std::uint64_t> out_offset;
};
/// `no_output` marks output cells a slice does not write.
ProgramTables program_tables(const ir::seq::RunProgram& program, std::uint64_t no_output);

/// One slice's staged TRF (buffers reused from slice to slice by one worker).
struct StagedTrf {
  std::vector<std::uint32_t> values, present;
  std::vector<std::uint32_t> spare; // byte runs are built here, then swapped into `values`
};

/// What staging a slice's TRF needs besides its base offset, computed once per program: the
/// offset from the base of every staged cell [Element][kLaneVector] (kNoCell: a padding cell, lane
/// or lane ≥ |Lane|), and for a one-byte tensor the widened value of each of its 256 codes.
struct TrfPlan {
  static constexpr std::uint64_t kNoCell = ~std::uint64_t{0};
  std::vector<std::uint64_t> offset;
  std::vector<std::uint32_t> widened;
};
TrfPlan trf_plan(const ir::seq::RunProgram& program, const StagedShape& shape,
                 const LogicalTensor& tensor);

/// Stages the slice whose TRF base offset is `base` (a live slice whose TRF spatial state is
/// live) of the TRF operand read from `tensor` (checked against the program by check_run_inputs).
void stage_trf(const ir::seq::RunProgram& program, const StagedShape& shape, const TrfPlan& plan,
               const LogicalTensor& tensor, std::uint64_t base, StagedTrf& out);
/// The same for spatial position `s`, planning on the spot.
void stage_trf(const ir::seq::RunProgram& program, const StagedShape& shape,
               const LogicalTensor& tensor, std::uint64_t s, StagedTrf& out);

} // namespace tujit::runtime::exec
