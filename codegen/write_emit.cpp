#include "codegen/write_emit.h"

#include "codegen/loop_nest.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {

std::unique_ptr<llvm::Module> emit_write_module(const ir::seq::WriteProgram& p, bool checked,
                                                llvm::LLVMContext& ctx) {
  auto module = std::make_unique<llvm::Module>(
      (p.kernel_name.empty() ? std::string("kernel") : p.kernel_name) + ".write." + p.target, ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type* ptr = b.getPtrTy();
  auto* fty = llvm::FunctionType::get(b.getInt32Ty(), {ptr, ptr, ptr}, false);
  llvm::Function* f =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, kWriteSymbol, module.get());
  f->addFnAttr(llvm::Attribute::NoUnwind);
  for (unsigned i = 0; i < 3; ++i) f->addParamAttr(i, llvm::Attribute::NoAlias);
  auto arg = f->arg_begin();
  llvm::Value* stream = &*arg++;
  llvm::Value* live = &*arg++;
  llvm::Value* buffer = &*arg++;
  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx, "entry", f);
  llvm::BasicBlock* violation = llvm::BasicBlock::Create(ctx, "bounds.violation", f);
  b.SetInsertPoint(violation);
  b.CreateRet(b.getInt32(static_cast<std::uint32_t>(kRunBoundsViolation)));
  b.SetInsertPoint(entry);
  emit_loop_nest(b, f, p.sequencer.entries, [&](llvm::Value* addr, llvm::Value* pos) {
    // A padded position is dropped: store only where the live mask says so.
    llvm::Value* flag = b.CreateAlignedLoad(
        b.getInt8Ty(), b.CreateInBoundsGEP(b.getInt8Ty(), live, pos), llvm::Align(1), "live");
    llvm::BasicBlock* store = llvm::BasicBlock::Create(ctx, "store", f);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx, "next", f);
    b.CreateCondBr(b.CreateICmpNE(flag, b.getInt8(0)), store, next);
    b.SetInsertPoint(store);
    if (checked) {
      llvm::BasicBlock* ok = llvm::BasicBlock::Create(ctx, "inbounds", f);
      b.CreateCondBr(b.CreateICmpULT(addr, b.getInt64(p.buffer_cells)), ok, violation);
      b.SetInsertPoint(ok);
    }
    llvm::Value* v = b.CreateAlignedLoad(
        b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), stream, pos), llvm::Align(4), "v");
    b.CreateAlignedStore(v, b.CreateInBoundsGEP(b.getInt32Ty(), buffer, addr), llvm::Align(4));
    b.CreateBr(next);
    b.SetInsertPoint(next);
  });
  b.CreateRet(b.getInt32(static_cast<std::uint32_t>(kRunOk)));
  return module;
}

} // namespace tujit::codegen
