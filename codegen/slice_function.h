// The frame of a generated slice function `i32 symbol(const Args*)` and small IR pieces the
// scalar code generators of a run program share (partial_emit.cpp, poison_emit.cpp): the entry
// with every field of Args loaded, the bounds-violation exit, a guarded element address, a
// conditional block and the Lane Folder's drain table.
#pragma once

#include "codegen/contraction_emit.h"
#include "ir/seq/contraction_program.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace tujit::codegen {

struct SliceFunction {
  llvm::Function* f = nullptr;
  llvm::BasicBlock* violation = nullptr; // returns kRunBoundsViolation
  std::vector<llvm::Value*> fields;      // Args' fields, loaded in the entry block
};

/// Creates `i32 symbol(const Args*)` in `module` (Args a struct of `fields`, named `args_name`),
/// its violation exit, and the entry block that loads every field; the builder is left there.
SliceFunction begin_slice_function(llvm::IRBuilder<>& b, llvm::Module& module, const char* symbol,
                                   const char* args_name, const std::vector<llvm::Type*>& fields);

/// &base[index] for elements of `type`; with `checked`, the function leaves through `violation`
/// unless index < limit, so nothing outside the buffer is touched.
llvm::Value* guarded_element(llvm::IRBuilder<>& b, const SliceFunction& fn, bool checked,
                             llvm::Type* type, llvm::Value* base, llvm::Value* index,
                             std::uint64_t limit);

/// if (cond) body(): the builder is left after the block.
void emit_when(llvm::IRBuilder<>& b, llvm::Function* f, llvm::Value* cond,
               const std::function<void()>& body);

/// The Lane Folder's drain (ContractionProgram::drain) as a constant i32 table: the accumulator
/// cell of each output cell, ~0 for an output padding cell.
inline constexpr std::uint32_t kDrainsNothing = ~0u;
llvm::GlobalVariable* drain_table(llvm::Module& module, const ir::seq::ContractionProgram& p);

} // namespace tujit::codegen
