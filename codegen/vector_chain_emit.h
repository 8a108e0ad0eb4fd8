// LLVM IR of a Vector Engine pass's value calls on one element (ir/seq/vector_program.h): the
// data-movement code generator (move_emit.h) runs it on every live element it moves, the
// contraction code generator (contraction_emit.h) on every output cell the Lane Folder drains.
// Every op is runtime/vector/ve_semantics.h instantiated on an IRBuilder backend, the description
// the interpreter runs too; the transcendental ops call codegen/vector_apply.h's host function.
#pragma once

#include "ir/seq/vector_program.h"

#include <llvm/IR/IRBuilder.h>

#include <span>

namespace tujit::codegen {

/// `v` (i32 bits) through every value call of `p`, at the builder's insert point; `vrf` holds the
/// element's `&vrf` operands (i32 bits) in call order.
llvm::Value* emit_vector_pass(llvm::IRBuilder<>& b, llvm::Module& m,
                              const ir::seq::VectorProgram& p, llvm::Value* v,
                              std::span<llvm::Value* const> vrf = {});

} // namespace tujit::codegen
