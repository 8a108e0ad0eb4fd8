// The byte-quad multiply-add of integer contractions (runtime/exec/operand_staging.h, byte
// quads): each 32-bit lane of `u` holds four unsigned bytes and each lane of `s` four signed bytes
// (lowest byte first), and the result lane is acc + Σ_j u_j·s_j in i32 mod 2^32. Each product lies
// in [-32640, 32385] and the four sum to at most 130560 in magnitude, exact in i32; only the add
// to `acc` wraps, and integer sums are associative and commutative mod 2^32 (docs/contraction.md
// §9.1), so quads may be summed in any order. The instruction is chosen from the host's features
// (the object cache key records them): VNNI's vpdpbusd on 256 or 512 bits, whose add wraps (never
// vpdpbusds, which saturates), else plain IR. (AVX2's vpmaddubsw is not a fallback: it saturates
// its i16 pair sums, 2·255·127 > 32767.)
#pragma once

#include "codegen/host_target.h"

#include <llvm/IR/IRBuilder.h>

namespace llvm {
class Module;
class Value;
} // namespace llvm

namespace tujit::codegen {

/// `acc` + dot(`u`, `s`) on <8 x i32> or <16 x i32> (the file comment); `acc` null = 0.
llvm::Value* emit_quad_madd(llvm::IRBuilder<>& b, llvm::Module& m, const HostDot& host,
                            llvm::Value* acc, llvm::Value* u, llvm::Value* s);

} // namespace tujit::codegen
