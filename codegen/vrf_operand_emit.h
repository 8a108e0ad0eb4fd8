// The generated code's loads of a Vector Engine pass's `&vrf` operands (docs/vector-engine.md
// §3.2), shared by the data-movement and the contraction code generators: at the output cell it
// computes, each operand's element from the tables of codegen/vrf_operand_tables.h.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace tujit::codegen {

/// The LLVM struct type of VrfOperandArgs (vrf_operand_tables.h).
llvm::StructType* vrf_operand_args_type(llvm::LLVMContext& ctx);

/// The operands output cell `cell` reads, from `args` (a `VrfOperandArgs*` of `count` entries);
/// `guard(index, limit)` is the caller's bounds check of each load.
std::vector<llvm::Value*>
emit_vrf_operands(llvm::IRBuilder<>& b, llvm::StructType* args_type, llvm::Value* args,
                  std::size_t count, llvm::Value* cell,
                  const std::function<void(llvm::Value*, llvm::Value*)>& guard);

} // namespace tujit::codegen
