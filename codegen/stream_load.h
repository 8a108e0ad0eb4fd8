// How generated code reads the stream operand of a contraction: the address of each packet cell
// through the program's address streams (ir/seq/address_stream.h), its liveness, and the widening
// of the element in the load (stream_widen.h). Packet cells whose state is padding in every flit
// are statically absent; a flit's liveness is read from the per-flit table when some flit is
// padding.
#pragma once

#include "codegen/stream_widen.h"
#include "ir/seq/run_program.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

namespace llvm {
class Module;
class Function;
class BasicBlock;
class Value;
class GlobalVariable;
} // namespace llvm

namespace tujit::codegen {

class StreamLoad {
public:
  StreamLoad(const ir::seq::RunProgram& program, llvm::Module& module, bool checked, bool pairs,
             llvm::Value* stream, llvm::Value* stream_limit, llvm::Value* flit_offset,
             llvm::Value* flit_live, llvm::BasicBlock* violation, llvm::Function* function);

  /// The flits one packet cycle reads (offsets and liveness loaded on first use).
  struct Packet {
    llvm::Value* flit = nullptr;
    std::vector<llvm::Value*> offset, live;
    std::vector<llvm::Value*> widened; // per flit of the packet: its widened cells (a vector)
  };
  Packet packet(llvm::IRBuilder<>& b, llvm::Value* flit, std::uint64_t cells) const;

  /// One packet cell: its widened value (i32 accumulator bits), null when statically absent; and
  /// its liveness (i1), null when statically live.
  struct Cell {
    llvm::Value* value = nullptr;
    llvm::Value* live = nullptr;
    llvm::Value* flit = nullptr; // the widened flit vector holding it (vector path; for a pair,
                                 // as i32 words), else null
    std::uint64_t element = 0;   // its element in `flit`
  };
  Cell cell(llvm::IRBuilder<>& b, Packet& packet, std::uint64_t i) const;
  /// The cell's value in every lane of an <`lanes` x `scalar`> vector. A cell of a flit vector is
  /// one cross-lane permute of the flit's `lanes`-wide part (with `permute`: the host's vpermps /
  /// vpermd, an index vector from a table the optimiser does not fold, so that it is not turned
  /// back into a generic shuffle the backend lowers in two steps).
  llvm::Value* splat(llvm::IRBuilder<>& b, const Cell& cell, llvm::Type* scalar, unsigned lanes,
                     bool permute) const;
  /// Two cells side by side on 16 f32 lanes: `lo` in lanes 0–7, `hi` in lanes 8–15 (a null cell:
  /// the other's value, for a half whose product is masked). Cells of flit vectors take one
  /// vpermps of a 16-element window of the two flits (with `permute`), else two splats.
  llvm::Value* splat_halves(llvm::IRBuilder<>& b, const Cell* lo, const Cell* hi,
                            bool permute) const;
  /// Cells i and i + 1 as one i32 word of two i16 (low half = cell i) when both are live cells of
  /// one flit read as a vector (`pairs` only); else a null value.
  Cell pair(llvm::IRBuilder<>& b, Packet& packet, std::uint64_t i) const;
  /// Cells i … i + width − 1 (width 4 or 8, i a multiple of it) as their raw bytes, one integer
  /// of 8·width bits (cell i lowest), for a program staged as byte quads / octets
  /// (runtime/exec/operand_staging.h: the run of cells is wholly live at consecutive offsets,
  /// and its raw bytes are its values as signed bytes); null when it is padding in every flit.
  Cell bytes(llvm::IRBuilder<>& b, Packet& packet, std::uint64_t i, unsigned width) const;

private:
  llvm::Value* guard(llvm::IRBuilder<>& b, llvm::Value* index, llvm::Value* limit) const;
  llvm::Value* widen(llvm::IRBuilder<>& b, llvm::Value* address) const;
  llvm::Value* widen_bits(llvm::IRBuilder<>& b, llvm::Value* raw) const;
  llvm::Value* flit_vector(llvm::IRBuilder<>& b, Packet& packet, std::uint64_t k) const;
  llvm::Value* flit_entry(llvm::IRBuilder<>& b, Packet& packet, std::uint64_t k,
                          std::uint64_t e) const;

  const ir::seq::RunProgram& rp_;
  bool checked_;
  bool pairs_;
  llvm::Value *stream_, *limit_, *flit_offset_, *flit_live_;
  llvm::BasicBlock* violation_;
  llvm::Function* f_;
  StreamWiden widen_;
  llvm::GlobalVariable* table_ = nullptr;
  mutable llvm::GlobalVariable* lane_index_ = nullptr; // splat(): index vectors, [lanes][lanes]
  mutable llvm::GlobalVariable* half_index_ = nullptr; // splat_halves(): [8][8][16]
  /// How a Table widening acts on the byte, when it is an arithmetic extension.
  enum class Extension : std::uint8_t { None, Sign, Zero } extension_ = Extension::None;
  std::uint64_t run_ = 0;    // > 0: the vector path reads elements [0, run_) of each flit
  std::uint64_t packet_ = 1; // |Packet|
  std::uint64_t flits_ = 1;  // |Time|
  bool separable_ = true;
  bool dynamic_live_ = false;
};

} // namespace tujit::codegen
