#include "codegen/vector_chain_emit.h"

#include "runtime/vector/ve_scalar.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {
namespace {

llvm::Value* canonical(llvm::IRBuilder<>& b, llvm::Value* f) {
  llvm::Value* nan = b.CreateFCmpUNO(f, f);
  return b.CreateSelect(nan, b.getInt32(runtime::vector::kCanonicalNaN),
                        b.CreateBitCast(f, b.getInt32Ty()), "canonical");
}

llvm::Value* inline_call(llvm::IRBuilder<>& b, llvm::Module& m, const ir::VectorCall& c,
                         llvm::Value* v) {
  llvm::Type* f32 = b.getFloatTy();
  llvm::Value* x = b.CreateBitCast(v, f32);
  if (c.kind == ir::VectorCallKind::FpUnary) {
    llvm::Function* sqrt = llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::sqrt, {f32});
    return canonical(b, b.CreateCall(sqrt, {x}));
  }
  llvm::Value* k = b.CreateBitCast(b.getInt32(c.operand[0]), f32);
  const bool first_is_operand =
      c.mode == ir::BinaryArgMode::Mode10 || c.mode == ir::BinaryArgMode::Mode11;
  const bool second_is_operand =
      c.mode == ir::BinaryArgMode::Mode01 || c.mode == ir::BinaryArgMode::Mode11;
  llvm::Value* lhs = first_is_operand ? k : x;
  llvm::Value* rhs = second_is_operand ? k : x;
  switch (std::get<ir::FpBinaryOp>(c.op)) {
  case ir::FpBinaryOp::AddF:
    return canonical(b, b.CreateFAdd(lhs, rhs));
  case ir::FpBinaryOp::SubF:
    return canonical(b, b.CreateFSub(lhs, rhs));
  case ir::FpBinaryOp::MulF:
    return canonical(b, b.CreateFMul(lhs, rhs));
  case ir::FpBinaryOp::DivF:
    return canonical(b, b.CreateFDiv(lhs, rhs));
  }
  return v;
}

} // namespace

std::uint32_t vector_apply(const ir::VectorCall* call, std::uint32_t dtype, std::uint32_t v) {
  return runtime::vector::apply_call(*call, static_cast<ir::ScalarType>(dtype), v);
}

bool vector_call_inlined(const ir::VectorCall& call) {
  if (call.kind == ir::VectorCallKind::FpUnary)
    return std::get<ir::FpUnaryOp>(call.op) == ir::FpUnaryOp::Sqrt;
  return call.kind == ir::VectorCallKind::FpBinary || call.kind == ir::VectorCallKind::FpDiv;
}

llvm::Value* emit_vector_pass(llvm::IRBuilder<>& b, llvm::Module& m,
                              const ir::seq::VectorProgram& p, llvm::Value* v, llvm::Value* apply,
                              llvm::Value* calls) {
  llvm::Type* ptr = b.getPtrTy();
  auto* apply_ty =
      llvm::FunctionType::get(b.getInt32Ty(), {ptr, b.getInt32Ty(), b.getInt32Ty()}, false);
  // An opaque stand-in for ir::VectorCall: only its size matters (the GEP stride).
  llvm::Type* call_ty = llvm::ArrayType::get(b.getInt8Ty(), sizeof(ir::VectorCall));
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const ir::seq::VectorStepIR& step = p.steps[i];
    if (step.call.kind == ir::VectorCallKind::Reinterpret) continue; // the bits stay
    if (vector_call_inlined(step.call)) {
      v = inline_call(b, m, step.call, v);
      continue;
    }
    llvm::Value* call = b.CreateInBoundsGEP(call_ty, calls, b.getInt64(i));
    v = b.CreateCall(apply_ty, apply, {call, b.getInt32(static_cast<std::uint32_t>(step.dtype)), v},
                     "apply");
  }
  return v;
}

} // namespace tujit::codegen
