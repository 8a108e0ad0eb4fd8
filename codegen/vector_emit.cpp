// LLVM IR of one VectorProgram (vector_emit.h). Per output position the backward trace of
// ir::seq::vector_source is spelled as integer arithmetic and selects: a narrow_trim maps n to
// (n / 4)·8 + n mod 4, a widen_pad maps n to (n / 8)·4 + n mod 8 or marks a padding lane. The
// origin (the input, or the last widen_pad whose lane it is) picks one of a few straight-line
// value chains, which meet in a phi.
#include "codegen/vector_emit.h"

#include "runtime/device/device_image.h"
#include "runtime/vector/ve_scalar.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace tujit::codegen {
namespace {

using Program = ir::seq::VectorProgram;
using ir::VectorCallKind;

class VectorEmitter {
public:
  VectorEmitter(const Program& p, bool checked, llvm::LLVMContext& ctx)
      : p_(p), checked_(checked), ctx_(ctx), b_(ctx) {}

  std::unique_ptr<llvm::Module> run();

private:
  llvm::Value* i64(std::uint64_t v) { return b_.getInt64(v); }
  llvm::Value* i32(std::uint32_t v) { return b_.getInt32(v); }
  void emit_position(llvm::Value* s, llvm::Value* n);
  /// The value calls from step `first` on, applied to `v`.
  llvm::Value* value_chain(llvm::Value* v, std::size_t first);
  llvm::Value* inline_call(const ir::seq::VectorStepIR& step, llvm::Value* v);
  llvm::Value* canonical(llvm::Value* f);

  const Program& p_;
  bool checked_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Module* m_ = nullptr;
  llvm::Function* f_ = nullptr;
  llvm::Value *in_ = nullptr, *out_ = nullptr, *apply_ = nullptr, *calls_ = nullptr;
  llvm::FunctionType* apply_ty_ = nullptr;
  llvm::StructType* call_ty_ = nullptr; // opaque stand-in: only its size matters (GEP stride)
};

llvm::Value* VectorEmitter::canonical(llvm::Value* f) {
  llvm::Value* nan = b_.CreateFCmpUNO(f, f);
  return b_.CreateSelect(nan, i32(runtime::vector::kCanonicalNaN),
                         b_.CreateBitCast(f, b_.getInt32Ty()), "canonical");
}

llvm::Value* VectorEmitter::inline_call(const ir::seq::VectorStepIR& step, llvm::Value* v) {
  const ir::VectorCall& c = step.call;
  llvm::Type* f32 = b_.getFloatTy();
  llvm::Value* x = b_.CreateBitCast(v, f32);
  if (c.kind == VectorCallKind::FpUnary) {
    llvm::Function* sqrt = llvm::Intrinsic::getDeclaration(m_, llvm::Intrinsic::sqrt, {f32});
    return canonical(b_.CreateCall(sqrt, {x}));
  }
  llvm::Value* k = b_.CreateBitCast(i32(c.operand[0]), f32);
  const bool first_is_operand =
      c.mode == ir::BinaryArgMode::Mode10 || c.mode == ir::BinaryArgMode::Mode11;
  const bool second_is_operand =
      c.mode == ir::BinaryArgMode::Mode01 || c.mode == ir::BinaryArgMode::Mode11;
  llvm::Value* a = first_is_operand ? k : x;
  llvm::Value* bb = second_is_operand ? k : x;
  llvm::Value* r = nullptr;
  switch (std::get<ir::FpBinaryOp>(c.op)) {
  case ir::FpBinaryOp::AddF:
    r = b_.CreateFAdd(a, bb);
    break;
  case ir::FpBinaryOp::SubF:
    r = b_.CreateFSub(a, bb);
    break;
  case ir::FpBinaryOp::MulF:
    r = b_.CreateFMul(a, bb);
    break;
  case ir::FpBinaryOp::DivF:
    r = b_.CreateFDiv(a, bb);
    break;
  }
  return canonical(r);
}

llvm::Value* VectorEmitter::value_chain(llvm::Value* v, std::size_t first) {
  for (std::size_t i = first; i < p_.steps.size(); ++i) {
    const ir::seq::VectorStepIR& step = p_.steps[i];
    const VectorCallKind k = step.call.kind;
    const bool value_call = k == VectorCallKind::FpUnary || k == VectorCallKind::FpBinary ||
                            k == VectorCallKind::FpTernary || k == VectorCallKind::FpDiv ||
                            k == VectorCallKind::Fxp || k == VectorCallKind::Logic ||
                            k == VectorCallKind::Clip || k == VectorCallKind::FxpToFp ||
                            k == VectorCallKind::FpToFxp;
    if (!value_call) continue;
    if (vector_call_inlined(step.call)) {
      v = inline_call(step, v);
      continue;
    }
    llvm::Value* call = b_.CreateInBoundsGEP(call_ty_, calls_, i64(i));
    v = b_.CreateCall(apply_ty_, apply_, {call, i32(static_cast<std::uint32_t>(step.dtype)), v},
                      "apply");
  }
  return v;
}

void VectorEmitter::emit_position(llvm::Value* s, llvm::Value* n) {
  // Backward trace: the position in the input, and the origin (0: the input, k + 1: the lane of
  // the widen_pad at step k; the last such step wins, as vector_source returns at the first one
  // met walking backwards).
  llvm::Value* pos = n;
  llvm::Value* origin = i32(0);
  llvm::Value* found = b_.getFalse();
  for (std::size_t i = p_.steps.size(); i-- > 0;) {
    const VectorCallKind k = p_.steps[i].call.kind;
    if (k == VectorCallKind::NarrowTrim) {
      pos = b_.CreateAdd(b_.CreateMul(b_.CreateUDiv(pos, i64(4)), i64(8)),
                         b_.CreateURem(pos, i64(4)));
    } else if (k == VectorCallKind::WidenPad) {
      llvm::Value* lane = b_.CreateURem(pos, i64(8));
      llvm::Value* pad = b_.CreateICmpUGE(lane, i64(4));
      llvm::Value* take = b_.CreateAnd(pad, b_.CreateNot(found));
      origin = b_.CreateSelect(take, i32(static_cast<std::uint32_t>(i + 1)), origin);
      found = b_.CreateOr(found, pad);
      pos = b_.CreateAdd(b_.CreateMul(b_.CreateUDiv(pos, i64(8)), i64(4)),
                         b_.CreateSelect(pad, i64(0), lane));
    }
  }
  llvm::BasicBlock* join = llvm::BasicBlock::Create(ctx_, "value", f_);
  llvm::BasicBlock* from_input = llvm::BasicBlock::Create(ctx_, "from.input", f_);
  llvm::SwitchInst* sw = b_.CreateSwitch(origin, from_input);
  std::vector<std::pair<llvm::Value*, llvm::BasicBlock*>> incoming;
  b_.SetInsertPoint(from_input);
  llvm::Value* at = b_.CreateAdd(b_.CreateMul(s, i64(p_.in_cells())), pos);
  llvm::Value* loaded = b_.CreateAlignedLoad(
      b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), in_, at), llvm::Align(4), "in");
  incoming.emplace_back(value_chain(loaded, 0), b_.GetInsertBlock());
  b_.CreateBr(join);
  for (std::size_t i = 0; i < p_.steps.size(); ++i) {
    if (p_.steps[i].call.kind != VectorCallKind::WidenPad) continue;
    llvm::BasicBlock* lane = llvm::BasicBlock::Create(ctx_, "pad.lane", f_);
    sw->addCase(b_.getInt32(static_cast<std::uint32_t>(i + 1)), lane);
    b_.SetInsertPoint(lane);
    llvm::Value* poison = i32(runtime::poison_bits(p_.steps[i].dtype));
    incoming.emplace_back(value_chain(poison, i + 1), b_.GetInsertBlock());
    b_.CreateBr(join);
  }
  b_.SetInsertPoint(join);
  llvm::PHINode* v = b_.CreatePHI(b_.getInt32Ty(), static_cast<unsigned>(incoming.size()), "v");
  for (auto& [val, bb] : incoming) v->addIncoming(val, bb);
  llvm::Value* dst = b_.CreateAdd(b_.CreateMul(s, i64(p_.out_cells())), n);
  b_.CreateAlignedStore(v, b_.CreateInBoundsGEP(b_.getInt32Ty(), out_, dst), llvm::Align(4));
}

std::unique_ptr<llvm::Module> VectorEmitter::run() {
  auto module = std::make_unique<llvm::Module>(
      (p_.kernel_name.empty() ? std::string("kernel") : p_.kernel_name) + ".vector", ctx_);
  m_ = module.get();
  llvm::Type* ptr = b_.getPtrTy();
  apply_ty_ =
      llvm::FunctionType::get(b_.getInt32Ty(), {ptr, b_.getInt32Ty(), b_.getInt32Ty()}, false);
  call_ty_ = llvm::StructType::create(
      ctx_, {llvm::ArrayType::get(b_.getInt8Ty(), sizeof(ir::VectorCall))}, "VectorCall");
  auto* fty = llvm::FunctionType::get(
      b_.getInt32Ty(), {ptr, ptr, b_.getInt64Ty(), b_.getInt64Ty(), ptr, ptr}, false);
  f_ = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, kVectorSymbol, m_);
  f_->addParamAttr(0, llvm::Attribute::NoAlias);
  f_->addParamAttr(0, llvm::Attribute::ReadOnly);
  f_->addParamAttr(1, llvm::Attribute::NoAlias);
  auto arg = f_->arg_begin();
  in_ = &*arg++;
  out_ = &*arg++;
  llvm::Value* begin = &*arg++;
  llvm::Value* end = &*arg++;
  apply_ = &*arg++;
  calls_ = &*arg++;

  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx_, "entry", f_);
  llvm::BasicBlock* violation = llvm::BasicBlock::Create(ctx_, "bounds.violation", f_);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "done", f_);
  b_.SetInsertPoint(violation);
  b_.CreateRet(i32(static_cast<std::uint32_t>(kRunBoundsViolation)));
  b_.SetInsertPoint(entry);
  if (checked_) {
    llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx_, "inbounds", f_);
    b_.CreateCondBr(
        b_.CreateAnd(b_.CreateICmpULE(begin, end), b_.CreateICmpULE(end, i64(p_.spatial))), ok,
        violation);
    b_.SetInsertPoint(ok);
  }
  if (p_.out_cells() == 0) {
    b_.CreateBr(done);
  } else {
    // for (s = begin; s < end; ++s) for (n = 0; n < out_cells; ++n)
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* slice = llvm::BasicBlock::Create(ctx_, "slice", f_);
    b_.CreateCondBr(b_.CreateICmpULT(begin, end), slice, done);
    b_.SetInsertPoint(slice);
    llvm::PHINode* s = b_.CreatePHI(b_.getInt64Ty(), 2, "s");
    s->addIncoming(begin, pre);
    llvm::BasicBlock* cell = llvm::BasicBlock::Create(ctx_, "cell", f_);
    b_.CreateBr(cell);
    b_.SetInsertPoint(cell);
    llvm::PHINode* n = b_.CreatePHI(b_.getInt64Ty(), 2, "n");
    n->addIncoming(i64(0), slice);
    emit_position(s, n);
    llvm::Value* n_next = b_.CreateAdd(n, i64(1));
    n->addIncoming(n_next, b_.GetInsertBlock());
    llvm::BasicBlock* slice_end = llvm::BasicBlock::Create(ctx_, "slice.end", f_);
    b_.CreateCondBr(b_.CreateICmpULT(n_next, i64(p_.out_cells())), cell, slice_end);
    b_.SetInsertPoint(slice_end);
    llvm::Value* s_next = b_.CreateAdd(s, i64(1));
    s->addIncoming(s_next, slice_end);
    b_.CreateCondBr(b_.CreateICmpULT(s_next, end), slice, done);
  }
  b_.SetInsertPoint(done);
  b_.CreateRet(i32(static_cast<std::uint32_t>(kRunOk)));
  return module;
}

} // namespace

bool vector_call_inlined(const ir::VectorCall& call) {
  if (call.kind == VectorCallKind::FpUnary)
    return std::get<ir::FpUnaryOp>(call.op) == ir::FpUnaryOp::Sqrt;
  return call.kind == VectorCallKind::FpBinary || call.kind == VectorCallKind::FpDiv;
}

std::unique_ptr<llvm::Module> emit_vector_module(const ir::seq::VectorProgram& program,
                                                 bool checked, llvm::LLVMContext& context) {
  return VectorEmitter(program, checked, context).run();
}

} // namespace tujit::codegen
