#include "codegen/vector_chain_emit.h"

#include "codegen/vector_apply.h"
#include "runtime/vector/ve_scalar.h"
#include "runtime/vector/ve_semantics.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <bit>

namespace tujit::codegen {
namespace {

using llvm::Intrinsic::ID;

/// ve_semantics.h's backend on an IRBuilder: each primitive is the LLVM instruction (or
/// intrinsic) of that name, without fast-math flags.
struct Ir {
  using V = llvm::Value*;
  using W = llvm::Value*;
  using F = llvm::Value*;
  using D = llvm::Value*;
  using Bool = llvm::Value*;
  llvm::IRBuilder<>& b;
  llvm::Module& m;

  llvm::Type* f32() { return b.getFloatTy(); }
  llvm::Type* f64() { return b.getDoubleTy(); }
  V intrinsic(ID id, llvm::Type* t, std::initializer_list<llvm::Value*> args) {
    return b.CreateCall(llvm::Intrinsic::getDeclaration(&m, id, {t}), args);
  }

  V k(std::uint32_t v) { return b.getInt32(v); }
  W k64(std::int64_t v) { return b.getInt64(static_cast<std::uint64_t>(v)); }
  D kd(double v) { return llvm::ConstantFP::get(f64(), v); }
  V add(V x, V y) { return b.CreateAdd(x, y); }
  V sub(V x, V y) { return b.CreateSub(x, y); }
  V mul(V x, V y) { return b.CreateMul(x, y); }
  V band(V x, V y) { return b.CreateAnd(x, y); }
  V bor(V x, V y) { return b.CreateOr(x, y); }
  V bxor(V x, V y) { return b.CreateXor(x, y); }
  V shl(V x, V n) { return b.CreateShl(x, n); }
  V lshr(V x, V n) { return b.CreateLShr(x, n); }
  V ashr(V x, V n) { return b.CreateAShr(x, n); }
  Bool slt(V x, V y) { return b.CreateICmpSLT(x, y); }
  Bool sgt(V x, V y) { return b.CreateICmpSGT(x, y); }
  Bool eq(V x, V y) { return b.CreateICmpEQ(x, y); }
  Bool ult(V x, V y) { return b.CreateICmpULT(x, y); }
  Bool ugt(V x, V y) { return b.CreateICmpUGT(x, y); }
  V select(Bool c, V x, V y) { return b.CreateSelect(c, x, y); }
  Bool bnot(Bool c) { return b.CreateNot(c); }
  Bool band_b(Bool x, Bool y) { return b.CreateAnd(x, y); }
  W sext(V x) { return b.CreateSExt(x, b.getInt64Ty()); }
  V trunc(W w) { return b.CreateTrunc(w, b.getInt32Ty()); }
  W add64(W x, W y) { return b.CreateAdd(x, y); }
  W sub64(W x, W y) { return b.CreateSub(x, y); }
  W mul64(W x, W y) { return b.CreateMul(x, y); }
  W ashr64(W x, int n) { return b.CreateAShr(x, static_cast<std::uint64_t>(n)); }
  Bool slt64(W x, W y) { return b.CreateICmpSLT(x, y); }
  Bool sgt64(W x, W y) { return b.CreateICmpSGT(x, y); }
  W select64(Bool c, W x, W y) { return b.CreateSelect(c, x, y); }
  F as_f(V v) { return b.CreateBitCast(v, f32()); }
  V as_v(F f) { return b.CreateBitCast(f, b.getInt32Ty()); }
  F fadd(F x, F y) { return b.CreateFAdd(x, y); }
  F fsub(F x, F y) { return b.CreateFSub(x, y); }
  F fmul(F x, F y) { return b.CreateFMul(x, y); }
  F fdiv(F x, F y) { return b.CreateFDiv(x, y); }
  F fma(F x, F y, F z) { return intrinsic(llvm::Intrinsic::fma, f32(), {x, y, z}); }
  F sqrt(F x) { return intrinsic(llvm::Intrinsic::sqrt, f32(), {x}); }
  F fabs(F x) { return intrinsic(llvm::Intrinsic::fabs, f32(), {x}); }
  Bool flt(F x, F y) { return b.CreateFCmpOLT(x, y); }
  Bool fgt(F x, F y) { return b.CreateFCmpOGT(x, y); }
  Bool feq(F x, F y) { return b.CreateFCmpOEQ(x, y); }
  Bool is_nan(F x) { return b.CreateFCmpUNO(x, x); }
  F sitofp(V v) { return b.CreateSIToFP(v, f32()); }
  D fpext(F f) { return b.CreateFPExt(f, f64()); }
  D dmul(D x, D y) { return b.CreateFMul(x, y); }
  Bool doge(D x, D y) { return b.CreateFCmpOGE(x, y); }
  Bool dole(D x, D y) { return b.CreateFCmpOLE(x, y); }
  D select_d(Bool c, D x, D y) { return b.CreateSelect(c, x, y); }
  D dround(D d) { return intrinsic(llvm::Intrinsic::round, f64(), {d}); }
  V fptosi(D d) { return b.CreateFPToSI(d, b.getInt32Ty()); }
  V transcendental(ir::FpUnaryOp op, V x) {
    auto* ty = llvm::FunctionType::get(b.getInt32Ty(), {b.getInt32Ty(), b.getInt32Ty()}, false);
    llvm::FunctionCallee f = m.getOrInsertFunction(kTranscendentalSymbol, ty);
    if (auto* fn = llvm::dyn_cast<llvm::Function>(f.getCallee())) {
      fn->setDoesNotThrow();
      fn->setOnlyAccessesInaccessibleMemory(); // a pure function of its arguments
    }
    return b.CreateCall(f, {k(static_cast<std::uint32_t>(op)), x});
  }
};

} // namespace

llvm::Value* emit_vector_pass(llvm::IRBuilder<>& b, llvm::Module& m,
                              const ir::seq::VectorProgram& p, llvm::Value* v,
                              std::span<llvm::Value* const> vrf) {
  Ir ir{b, m};
  return runtime::vector::semantics::apply_steps(ir, p.steps, v,
                                                 [&](std::size_t j) { return vrf[j]; });
}

} // namespace tujit::codegen
