#include "codegen/vrf_operand_emit.h"

namespace tujit::codegen {

llvm::StructType* vrf_operand_args_type(llvm::LLVMContext& ctx) {
  llvm::Type* ptr = llvm::PointerType::getUnqual(ctx);
  return llvm::StructType::create(ctx, {ptr, llvm::Type::getInt64Ty(ctx), ptr, ptr},
                                  "VrfOperandArgs");
}

std::vector<llvm::Value*>
emit_vrf_operands(llvm::IRBuilder<>& b, llvm::StructType* args_type, llvm::Value* args,
                  std::size_t count, llvm::Value* cell,
                  const std::function<void(llvm::Value*, llvm::Value*)>& guard) {
  llvm::Type* i64t = b.getInt64Ty();
  llvm::Type* i32t = b.getInt32Ty();
  llvm::Type* i8t = b.getInt8Ty();
  llvm::Type* ptr = b.getPtrTy();
  std::vector<llvm::Value*> values;
  for (std::size_t k = 0; k < count; ++k) {
    llvm::Value* at = b.CreateInBoundsGEP(args_type, args, b.getInt64(k));
    const auto field = [&](unsigned i, llvm::Type* t) {
      return b.CreateLoad(t, b.CreateStructGEP(args_type, at, i));
    };
    llvm::Value* source = field(0, ptr);
    llvm::Value* limit = field(1, i64t);
    llvm::Value* off = b.CreateLoad(i64t, b.CreateInBoundsGEP(i64t, field(2, ptr), cell));
    llvm::Value* live = b.CreateLoad(i8t, b.CreateInBoundsGEP(i8t, field(3, ptr), cell));
    guard(off, limit);
    llvm::Value* x = b.CreateLoad(i32t, b.CreateInBoundsGEP(i32t, source, off));
    values.push_back(b.CreateSelect(b.CreateICmpNE(live, b.getInt8(0)), x, b.getInt32(0)));
  }
  return values;
}

} // namespace tujit::codegen
