// LLVM IR of a contraction program that runs part of a chain (ir/seq/contraction_program.h: a
// kernel that starts from a ContractOuter / Packet / Time tensor, or returns one). The program
// becomes one function with the whole-chain code's symbol and C signature (kContractionSymbol,
// `i32 (const PartialArgs*)`) that runs ONE slice on staged buffers: the host gathers the slice's
// input cells through the program's address streams (partial_run.cpp), the generated code runs
// the part's packet-cycle nest, products, trees, accumulation and Lane Folder drain with every
// trip count, stride, tree shape, slot stride and liveness a constant, and the host scatters the
// slice's output cells into the logical output.
#pragma once

#include "ir/seq/run_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

/// The staged buffers of one slice (field order is the generated code's struct layout). Values are
/// accumulator bits; a presence byte is 1 where the cell holds a value (docs/contraction.md §9.4).
struct PartialArgs {
  /// A part from contract_outer: the slice's stream cells [|Time|][|Packet|], widened to the
  /// accumulator; else the input tensor's cells [input_outer][input_inner], widened the same way
  /// (they hold accumulator values: a NaN becomes the canonical NaN, docs/contraction.md §9.3).
  const std::uint32_t* in;
  const std::uint8_t* in_present;
  const std::uint32_t* trf;        // [|Lane|][|Element|] widened (a part from contract_outer)
  const std::uint8_t* trf_present; // same shape
  std::uint32_t* acc;              // [|Lane|][|T2|][|P2|] scratch
  std::uint32_t* out;              // [output_outer][output_inner]: the slice's output cells
};
using PartialFn = std::int32_t (*)(const PartialArgs* args);

/// Staged cells of one slice, shared by the host runner and the code generator.
struct PartialShape {
  std::uint64_t in_cells = 0, trf_cells = 0, acc_cells = 0, out_cells = 0;
};
PartialShape partial_shape(const ir::seq::ContractionProgram& program);

/// Whether `program` runs part of a chain (compiled here, not by contraction_emit.h).
bool is_partial(const ir::seq::RunProgram& program);

/// The unoptimised module. `checked`: every staged access is bounds-checked (a violation returns
/// kRunBoundsViolation without touching memory).
std::unique_ptr<llvm::Module> emit_partial_module(const ir::seq::RunProgram& program, bool checked,
                                                  llvm::LLVMContext& context);

} // namespace tujit::codegen
