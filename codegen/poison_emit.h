// LLVM IR of the JIT's poison shadow (docs/design.md §5.4, docs/contraction.md §9.4): the checked
// JIT's own computation of which output cells of a slice would, on hardware, depend on Top
// padding content. It is generated from the run program like the value code and walks the same
// packet-cycle nest (codegen/counted_loop.h), carrying one poison bit per cell instead of a value:
//   Outer          a product is poisoned when one operand cell is Top and the Multiplier reads the
//                  other (live or Top); a part that starts later reads its input tensor's cells,
//                  poisoned when Top;
//   Packet Reducer a column is poisoned when any cell of its group is;
//   Time Reducer   a slot is poisoned when any column summed into it is;
//   Lane Folder    an output cell is poisoned when the slot it drains is.
// Unlike the value code, padded OutTime cycles run too (the hardware's counters still feed their
// flits into the slot their address names; only addresses outside the views read nothing), and
// padded Packet cells are multiplied (the Multiplier reads whatever they hold). A data movement's
// output cell is poisoned when its source cell is Top. The reference interpreter's
// runtime::analyze_poison computes the same set independently; `tujit run --verify` compares the
// two.
#pragma once

#include "ir/seq/run_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

inline constexpr const char* kPoisonSymbol = "tujit_poison";

/// The arguments of one slice (field order is the generated code's struct layout). States are
/// ir::CellState values; a cell's state is combined with its slice's spatial state in the code.
struct PoisonArgs {
  /// The stream cells [|Time|][|Packet|] (a part from contract_outer), the input tensor's cells
  /// [input_outer][input_inner] (a later part) or the source cells (a data movement).
  const std::uint8_t* in;
  const std::uint8_t* trf; // [|Lane|][|Element|]; read only when the Multiplier runs
  std::uint8_t* slots;     // [|Lane|][|T2|][|P2|] scratch
  std::uint8_t* out;       // [output cells] of the slice: 1 = poisoned
  std::uint8_t in_spatial; // the slice's spatial state in the stream (or input, source) tensor
  std::uint8_t trf_spatial;
};
using PoisonFn = std::int32_t (*)(const PoisonArgs* args);

/// The cells of each PoisonArgs buffer for `program`.
struct PoisonShape {
  std::uint64_t in_cells = 0, trf_cells = 0, slot_cells = 0, out_cells = 0;
};
PoisonShape poison_shape(const ir::seq::RunProgram& program);

/// The unoptimised module. Every access is bounds-checked (the shadow is checked code): an index
/// outside its buffer returns kRunBoundsViolation without touching memory.
std::unique_ptr<llvm::Module> emit_poison_module(const ir::seq::RunProgram& program,
                                                 llvm::LLVMContext& context);

} // namespace tujit::codegen
