#include "codegen/quad_madd.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace tujit::codegen {

namespace {

// Σ_j u_j·s_j per lane in plain IR: zero-extended and sign-extended bytes, i32 products, the four
// of a lane added (i32 wrap; the sum is exact, the file comment).
llvm::Value* generic_dot(llvm::IRBuilder<>& b, llvm::Value* u, llvm::Value* s) {
  auto* vt = llvm::cast<llvm::FixedVectorType>(u->getType());
  const unsigned n = vt->getNumElements();
  auto* bytes = llvm::FixedVectorType::get(b.getInt8Ty(), 4 * n);
  auto* wide = llvm::FixedVectorType::get(b.getInt32Ty(), 4 * n);
  llvm::Value* p = b.CreateMul(b.CreateZExt(b.CreateBitCast(u, bytes), wide),
                               b.CreateSExt(b.CreateBitCast(s, bytes), wide));
  llvm::Value* sum = nullptr;
  for (unsigned j = 0; j < 4; ++j) {
    std::vector<int> pick;
    for (unsigned i = 0; i < n; ++i) pick.push_back(static_cast<int>(4 * i + j));
    llvm::Value* part = b.CreateShuffleVector(p, pick);
    sum = sum == nullptr ? part : b.CreateAdd(sum, part);
  }
  return sum;
}

} // namespace

llvm::Value* emit_quad_madd(llvm::IRBuilder<>& b, llvm::Module& m, const HostDot& host,
                            llvm::Value* acc, llvm::Value* u, llvm::Value* s) {
  llvm::Type* vt = u->getType();
  const bool wide = llvm::cast<llvm::FixedVectorType>(vt)->getNumElements() == 16;
  if (wide ? host.vnni512 : host.vnni) {
    llvm::Function* f =
        llvm::Intrinsic::getDeclaration(&m, wide ? llvm::Intrinsic::x86_avx512_vpdpbusd_512
                                                 : llvm::Intrinsic::x86_avx512_vpdpbusd_256);
    llvm::Value* start = acc != nullptr ? acc : llvm::Constant::getNullValue(vt);
    llvm::Value* args[3] = {start, u, s};
    for (unsigned i = 0; i < 3; ++i) args[i] = b.CreateBitCast(args[i], f->getArg(i)->getType());
    return b.CreateBitCast(b.CreateCall(f, args), vt);
  }
  llvm::Value* p = generic_dot(b, u, s);
  return acc == nullptr ? p : b.CreateAdd(acc, p);
}

} // namespace tujit::codegen
