#include "tests/support/loop_nest.h"

#include <llvm/IR/Function.h>

namespace tujit::testing {

namespace {

struct Nest {
  llvm::IRBuilder<>& b;
  llvm::Function* f;
  const std::vector<ir::datapath::SeqEntry>& entries;
  const std::function<void(llvm::Value*, llvm::Value*)>& body;
  std::vector<std::uint64_t> weight;

  llvm::Value* add_scaled(llvm::Value* base, llvm::Value* digit, std::uint64_t scale) {
    if (scale == 0) return base; // stride 0: a broadcast entry re-reads the same address
    llvm::Value* term = scale == 1 ? digit : b.CreateMul(digit, b.getInt64(scale));
    return b.CreateAdd(base, term);
  }

  // for (iv = 0; iv < n; ++iv) emit(iv), bottom-tested; one trip emits no loop, zero trips
  // nothing (for_each_offset: an entry of size 0 enumerates no position).
  void loop(std::uint64_t n, const std::function<void(llvm::Value*)>& emit) {
    if (n == 0) return;
    if (n == 1) {
      emit(b.getInt64(0));
      return;
    }
    llvm::BasicBlock* pre = b.GetInsertBlock();
    llvm::BasicBlock* head = llvm::BasicBlock::Create(f->getContext(), "entry.loop", f);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(f->getContext(), "entry.end", f);
    b.CreateBr(head);
    b.SetInsertPoint(head);
    llvm::PHINode* iv = b.CreatePHI(b.getInt64Ty(), 2, "digit");
    iv->addIncoming(b.getInt64(0), pre);
    emit(iv);
    llvm::Value* next = b.CreateAdd(iv, b.getInt64(1), "digit.next");
    iv->addIncoming(next, b.GetInsertBlock());
    b.CreateCondBr(b.CreateICmpULT(next, b.getInt64(n)), head, exit);
    b.SetInsertPoint(exit);
  }

  void level(std::size_t i, llvm::Value* addr, llvm::Value* pos) {
    if (i == entries.size()) {
      body(addr, pos);
      return;
    }
    const ir::datapath::SeqEntry& e = entries[i];
    loop(e.size, [&](llvm::Value* d) {
      level(i + 1, add_scaled(addr, d, e.stride), add_scaled(pos, d, weight[i]));
    });
  }
};

} // namespace

void emit_loop_nest(llvm::IRBuilder<>& b, llvm::Function* f,
                    const std::vector<ir::datapath::SeqEntry>& entries,
                    const std::function<void(llvm::Value* addr, llvm::Value* pos)>& body) {
  Nest n{b, f, entries, body, std::vector<std::uint64_t>(entries.size(), 1)};
  for (std::size_t i = entries.size(); i-- > 1;) n.weight[i - 1] = n.weight[i] * entries[i].size;
  n.level(0, b.getInt64(0), b.getInt64(0));
}

} // namespace tujit::testing
