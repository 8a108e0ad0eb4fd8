// LLVM IR emission of a data-movement run program (ir/seq/run_program.h, a MoveRun: a
// register-file store or a collected stream returned as the output). The program becomes one
// function, kMoveSymbol, `i32 tujit_move(const MoveArgs*)`, that moves ONE slice: every output
// cell the slice writes takes its source cell — the source element through the Fetch Adapter (and
// the value calls of the program's Vector Engine pass, codegen/vector_chain_emit.h) when the cell
// is live, the poison pattern when it is Top padding, 0 otherwise — exactly as the interpreter's
// run of a move does (runtime::interpret, docs/design.md §2.4). Source elements of one byte
// are converted through a 256-entry table of adapted values; two- and four-byte sources without
// an adapter are copied; any other source is read from a copy the host adapts once.
#pragma once

#include "codegen/vrf_operand_tables.h"
#include "ir/seq/run_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

inline constexpr const char* kMoveSymbol = "tujit_move";

/// What a source cell of the slice holds (the `source_state` table).
enum class MoveCell : std::uint8_t { Live = 0, Top = 1, Empty = 2 };

/// The arguments of one slice (field order is the generated code's struct layout).
struct MoveArgs {
  const std::uint8_t* source;         // the source tensor (or its adapted copy) at the slice base
  std::uint64_t source_limit;         // elements from `source` to its end
  std::uint8_t* out;                  // the logical output at the slice base
  std::uint64_t out_limit;            // elements from `out` to its end
  const std::uint64_t* source_offset; // [cells] offset of each live source cell of a slice
  const std::uint8_t* source_state;   // [cells] MoveCell of each source cell
  const std::uint64_t* out_offset;    // [cells] output element of each cell, or kNoOutput
  const VrfOperandArgs* vrf;          // [program.vrf_operands.size()] (vrf_operand.h)
};
using MoveFn = std::int32_t (*)(const MoveArgs* args);

/// How the generated code converts a source element (move_emit.cpp).
enum class MoveConvert : std::uint8_t { Table, Copy, Preadapted };
MoveConvert move_convert(const ir::seq::RunProgram& program);
/// Bytes per element of the source buffer the generated code reads (4 for Preadapted).
std::uint32_t move_source_bytes(const ir::seq::RunProgram& program);

/// The unoptimised module (target triple / data layout are set by the caller).
std::unique_ptr<llvm::Module> emit_move_module(const ir::seq::RunProgram& program, bool checked,
                                               llvm::LLVMContext& context);

} // namespace tujit::codegen
