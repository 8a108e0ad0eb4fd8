// Small LLVM IR building blocks the contraction code generators share (contraction_emit.cpp,
// partial_emit.cpp).
#pragma once

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

} // namespace tujit::codegen
