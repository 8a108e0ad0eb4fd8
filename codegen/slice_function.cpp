#include "codegen/slice_function.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {

SliceFunction begin_slice_function(llvm::IRBuilder<>& b, llvm::Module& module, const char* symbol,
                                   const char* args_name, const std::vector<llvm::Type*>& fields) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::StructType* args_ty = llvm::StructType::create(ctx, fields, args_name);
  auto* fty = llvm::FunctionType::get(b.getInt32Ty(), {b.getPtrTy()}, false);
  SliceFunction fn;
  fn.f = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, symbol, module);
  fn.f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx, "entry", fn.f);
  fn.violation = llvm::BasicBlock::Create(ctx, "bounds.violation", fn.f);
  b.SetInsertPoint(fn.violation);
  b.CreateRet(b.getInt32(kRunBoundsViolation));
  b.SetInsertPoint(entry);
  for (unsigned k = 0; k < fields.size(); ++k)
    fn.fields.push_back(
        b.CreateLoad(fields[k], b.CreateStructGEP(args_ty, &*fn.f->arg_begin(), k)));
  return fn;
}

llvm::Value* guarded_element(llvm::IRBuilder<>& b, const SliceFunction& fn, bool checked,
                             llvm::Type* type, llvm::Value* base, llvm::Value* index,
                             std::uint64_t limit) {
  if (checked) {
    llvm::BasicBlock* ok = llvm::BasicBlock::Create(b.getContext(), "inbounds", fn.f);
    b.CreateCondBr(b.CreateICmpULT(index, b.getInt64(limit)), ok, fn.violation);
    b.SetInsertPoint(ok);
  }
  return b.CreateInBoundsGEP(type, base, index);
}

void emit_when(llvm::IRBuilder<>& b, llvm::Function* f, llvm::Value* cond,
               const std::function<void()>& body) {
  llvm::BasicBlock* then = llvm::BasicBlock::Create(b.getContext(), "then", f);
  llvm::BasicBlock* next = llvm::BasicBlock::Create(b.getContext(), "next", f);
  b.CreateCondBr(cond, then, next);
  b.SetInsertPoint(then);
  body();
  b.CreateBr(next);
  b.SetInsertPoint(next);
}

llvm::GlobalVariable* drain_table(llvm::Module& module, const ir::seq::ContractionProgram& p) {
  std::vector<std::uint32_t> drain(p.drain.size());
  for (std::size_t o = 0; o < drain.size(); ++o)
    drain[o] = p.drain[o] < 0 ? kDrainsNothing : static_cast<std::uint32_t>(p.drain[o]);
  auto* init =
      llvm::ConstantDataArray::get(module.getContext(), llvm::ArrayRef<std::uint32_t>(drain));
  return new llvm::GlobalVariable(module, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                  init, "drain");
}

} // namespace tujit::codegen
