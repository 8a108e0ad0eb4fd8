#include "codegen/trf_halves.h"

#include "codegen/counted_loop.h"

#include <llvm/IR/Constants.h>

#include <algorithm>
#include <vector>

namespace tujit::codegen {

llvm::Value* emit_trf_halves(llvm::IRBuilder<>& b, llvm::Function* f, llvm::Value* trf,
                             std::uint64_t elements, std::uint64_t half) {
  constexpr unsigned kHalf = 8;
  const std::uint64_t bytes = elements * 2 * kHalf * 4;
  if (elements == 0 || bytes > kMaxTrfHalvesBytes) return nullptr;
  llvm::Type* f32 = b.getFloatTy();
  auto* half_ty = llvm::FixedVectorType::get(f32, kHalf);
  llvm::AllocaInst* copy = b.CreateAlloca(f32, b.getInt64(elements * 2 * kHalf), "trf_halves");
  copy->setAlignment(llvm::Align(64));
  std::vector<int> concat;
  for (int j = 0; j < static_cast<int>(2 * kHalf); ++j) concat.push_back(j);
  const auto load = [&](llvm::Value* x) {
    llvm::Value* at =
        b.CreateInBoundsGEP(f32, trf, b.CreateMul(x, b.getInt64(kHalf), "", true, true));
    return b.CreateAlignedLoad(half_ty, at, llvm::Align(4));
  };
  const auto store = [&](llvm::Value* x, llvm::Value* row) {
    llvm::Value* at =
        b.CreateInBoundsGEP(f32, copy, b.CreateMul(x, b.getInt64(2 * kHalf), "", true, true));
    b.CreateAlignedStore(row, at, llvm::Align(64));
  };
  const std::uint64_t paired = elements > half ? elements - half : 0;
  emit_counted_loop(b, f, paired, [&](llvm::Value* x) {
    llvm::Value* upper = load(b.CreateAdd(x, b.getInt64(half), "", true, true));
    store(x, b.CreateShuffleVector(load(x), upper, concat));
  });
  llvm::Value* zero = llvm::Constant::getNullValue(half_ty);
  emit_counted_loop(b, f, elements - paired, [&](llvm::Value* i) {
    llvm::Value* x = b.CreateAdd(i, b.getInt64(paired), "", true, true);
    store(x, b.CreateShuffleVector(load(x), zero, concat));
  });
  return copy;
}

} // namespace tujit::codegen
