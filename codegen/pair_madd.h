// The i16 pair multiply-add of integer contractions (runtime/exec/operand_staging.h, i16 pairs):
// each 32-bit lane of `a` and `b` holds two i16 operands (low half first), and the result lane is
// lo(a)·lo(b) + hi(a)·hi(b) in i32 — exactly the interpreter's two products and their sum, mod
// 2^32: each i16 × i16 product is exact in i32 (|p| ≤ 2^30), and the sum of two wraps only when
// both products are 2^30, to 0x80000000, which is the true sum 2^31 mod 2^32. Integer sums are
// associative and commutative mod 2^32 (docs/contraction.md §9.1), so pairs may be summed in any
// order. The instruction is chosen from the host's features (the object cache key records them):
// VNNI's vpdpwssd (the add fused), else AVX2's vpmaddwd, else plain IR.
#pragma once

#include "codegen/host_target.h"

#include <llvm/IR/IRBuilder.h>

namespace llvm {
class Module;
class Value;
} // namespace llvm

namespace tujit::codegen {

/// `acc` + madd(`a`, `b`) on <8 x i32> (the file comment); `acc` null = 0.
llvm::Value* emit_pair_madd(llvm::IRBuilder<>& b, llvm::Module& m, const HostDot& host,
                            llvm::Value* acc, llvm::Value* a, llvm::Value* w);

} // namespace tujit::codegen
