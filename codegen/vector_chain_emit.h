// LLVM IR of a Vector Engine pass's value calls on one element (ir/seq/vector_program.h): the
// data-movement code generator (move_emit.h) runs it on every live element it moves. Sqrt and
// AddF / SubF / MulF / DivF are emitted as the IEEE instruction (llvm.sqrt, fadd, …: no fast-math
// flag, correctly rounded) followed by the canonical-NaN select of runtime/vector/ve_scalar.h;
// every other value call is a call of `apply(&calls[i], dtype, v)` (codegen/vector_apply.h).
#pragma once

#include "codegen/vector_apply.h"
#include "ir/seq/vector_program.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

namespace tujit::codegen {

/// Whether the code generator emits `call` inline (else it calls `apply`).
bool vector_call_inlined(const ir::VectorCall& call);

/// `v` (i32 bits) through every value call of `p`, at the builder's insert point. `apply` is the
/// callback (VectorApplyFn), `calls` the address of p's calls as one array of ir::VectorCall.
llvm::Value* emit_vector_pass(llvm::IRBuilder<>& b, llvm::Module& m,
                              const ir::seq::VectorProgram& p, llvm::Value* v, llvm::Value* apply,
                              llvm::Value* calls);

} // namespace tujit::codegen
