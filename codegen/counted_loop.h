// Small LLVM IR building blocks the contraction code generators share (contraction_emit.cpp,
// partial_emit.cpp).
#pragma once

#include "ir/seq/contraction_program.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>

namespace tujit::codegen {

/// for (iv = 0; iv < n; ++iv) body(iv) at the builder's insert point inside `f`, bottom-tested
/// (i64 induction variable); one trip emits no loop, none emits nothing. The builder is left after
/// the loop.
void emit_counted_loop(llvm::IRBuilder<>& b, llvm::Function* f, std::uint64_t n,
                       const std::function<void(llvm::Value*)>& body);

/// base + digit·stride (i64, no wrap); `base` itself when the stride is 0.
llvm::Value* add_scaled(llvm::IRBuilder<>& b, llvm::Value* base, llvm::Value* digit,
                        std::uint64_t stride);

/// The packet-cycle nest (outermost loop first) as counted loops: `cycle(flit, trf, slot, t)` once
/// per cycle, each address advanced by its loop's stride from the given bases and t the cycle's
/// position in the nest.
using CycleBody =
    std::function<void(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t)>;
void emit_cycle_nest(llvm::IRBuilder<>& b, llvm::Function* f,
                     const std::vector<ir::seq::CycleLoop>& nest, const CycleBody& cycle);

} // namespace tujit::codegen
