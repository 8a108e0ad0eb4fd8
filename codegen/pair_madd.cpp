#include "codegen/pair_madd.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace tujit::codegen {

namespace {

// The call of a non-overloaded intrinsic, its arguments bitcast to the declared parameter types
// (LLVM spells the i16 pairs as <16 x i16> or <8 x i32> depending on the intrinsic).
llvm::Value* call(llvm::IRBuilder<>& b, llvm::Module& m, llvm::Intrinsic::ID id,
                  std::initializer_list<llvm::Value*> args, llvm::Type* result) {
  llvm::Function* f = llvm::Intrinsic::getDeclaration(&m, id);
  std::vector<llvm::Value*> cast;
  unsigned i = 0;
  for (llvm::Value* a : args) cast.push_back(b.CreateBitCast(a, f->getArg(i++)->getType()));
  return b.CreateBitCast(b.CreateCall(f, cast), result);
}

// lo(a)·lo(b) + hi(a)·hi(b) per lane in plain IR (sign-extended halves, i32 wrap).
llvm::Value* generic_madd(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* w) {
  auto* vt = llvm::cast<llvm::FixedVectorType>(a->getType());
  const unsigned n = vt->getNumElements();
  auto* halves = llvm::FixedVectorType::get(b.getInt16Ty(), 2 * n);
  auto* wide = llvm::FixedVectorType::get(b.getInt32Ty(), 2 * n);
  llvm::Value* p = b.CreateMul(b.CreateSExt(b.CreateBitCast(a, halves), wide),
                               b.CreateSExt(b.CreateBitCast(w, halves), wide));
  std::vector<int> lo, hi;
  for (unsigned i = 0; i < n; ++i) {
    lo.push_back(static_cast<int>(2 * i));
    hi.push_back(static_cast<int>(2 * i + 1));
  }
  return b.CreateAdd(b.CreateShuffleVector(p, lo), b.CreateShuffleVector(p, hi));
}

} // namespace

llvm::Value* emit_pair_madd(llvm::IRBuilder<>& b, llvm::Module& m, const HostDot& host,
                            llvm::Value* acc, llvm::Value* a, llvm::Value* w) {
  llvm::Type* vt = a->getType();
  if (host.vnni && acc != nullptr)
    return call(b, m, llvm::Intrinsic::x86_avx512_vpdpwssd_256, {acc, a, w}, vt);
  llvm::Value* p = host.avx2 ? call(b, m, llvm::Intrinsic::x86_avx2_pmadd_wd, {a, w}, vt)
                             : generic_madd(b, a, w);
  return acc == nullptr ? p : b.CreateAdd(acc, p);
}

} // namespace tujit::codegen
