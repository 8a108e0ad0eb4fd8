#include "codegen/counted_loop.h"

namespace tujit::codegen {

void emit_counted_loop(llvm::IRBuilder<>& b, llvm::Function* f, std::uint64_t n,
                       const std::function<void(llvm::Value*)>& body) {
  if (n == 0) return;
  if (n == 1) {
    body(b.getInt64(0));
    return;
  }
  llvm::LLVMContext& ctx = b.getContext();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx, "loop", f);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(ctx, "loop.end", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* iv = b.CreatePHI(b.getInt64Ty(), 2, "iv");
  iv->addIncoming(b.getInt64(0), pre);
  body(iv);
  llvm::Value* next = b.CreateAdd(iv, b.getInt64(1), "iv.next", true, true);
  iv->addIncoming(next, b.GetInsertBlock());
  b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(n)), head, exit);
  b.SetInsertPoint(exit);
}

llvm::Value* add_scaled(llvm::IRBuilder<>& b, llvm::Value* base, llvm::Value* digit,
                        std::uint64_t stride) {
  if (stride == 0) return base;
  llvm::Value* term = stride == 1 ? digit : b.CreateMul(digit, b.getInt64(stride), "", true, true);
  return b.CreateAdd(base, term, "", true, true);
}

namespace {
void cycle_level(llvm::IRBuilder<>& b, llvm::Function* f,
                 const std::vector<ir::seq::CycleLoop>& nest, std::size_t level, llvm::Value* flit,
                 llvm::Value* trf, llvm::Value* slot, llvm::Value* t, const CycleBody& cycle) {
  if (level == nest.size()) return cycle(flit, trf, slot, t);
  const ir::seq::CycleLoop& loop = nest[level];
  std::uint64_t weight = 1; // cycles per step of this counter
  for (std::size_t i = level + 1; i < nest.size(); ++i) weight *= nest[i].size;
  emit_counted_loop(b, f, loop.size, [&](llvm::Value* d) {
    cycle_level(b, f, nest, level + 1, add_scaled(b, flit, d, loop.flit_stride),
                add_scaled(b, trf, d, loop.trf_stride), add_scaled(b, slot, d, loop.slot_stride),
                add_scaled(b, t, d, weight), cycle);
  });
}
} // namespace

void emit_cycle_nest(llvm::IRBuilder<>& b, llvm::Function* f,
                     const std::vector<ir::seq::CycleLoop>& nest, const CycleBody& cycle) {
  llvm::Value* zero = b.getInt64(0);
  cycle_level(b, f, nest, 0, zero, zero, zero, zero, cycle);
}

} // namespace tujit::codegen
