#include "codegen/move_emit.h"

#include "codegen/contraction_emit.h"
#include "codegen/narrow_emit.h"
#include "codegen/vector_chain_emit.h"
#include "codegen/vrf_operand_emit.h"
#include "runtime/device/device_image.h"
#include "runtime/engine/operand_read.h"
#include "runtime/tensor/logical_tensor.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace tujit::codegen {

namespace {

enum Field : unsigned {
  kSource,
  kSourceLimit,
  kOut,
  kOutLimit,
  kSrcOffset,
  kSrcState,
  kOutOffset,
  kVrf,
  kFields
};

/// The move function's frame: `i32 f(MoveArgs*)`, its argument fields loaded in the entry block,
/// the bounds-violation exit, and the builder positioned after the loads.
struct MoveFrame {
  llvm::IRBuilder<>& b;
  llvm::Function* f = nullptr;
  llvm::BasicBlock* violation = nullptr;
  llvm::Value* arg[kFields] = {};
  llvm::StructType* vrf_ty = nullptr; // VrfOperandArgs
  bool checked = false;

  MoveFrame(llvm::IRBuilder<>& builder, llvm::Module& module, bool checked_)
      : b(builder), checked(checked_) {
    llvm::LLVMContext& ctx = module.getContext();
    llvm::Type* ptr = b.getPtrTy();
    llvm::Type* i64t = b.getInt64Ty();
    llvm::StructType* args_ty =
        llvm::StructType::create(ctx, {ptr, i64t, ptr, i64t, ptr, ptr, ptr, ptr}, "MoveArgs");
    vrf_ty = vrf_operand_args_type(ctx);
    auto* fty = llvm::FunctionType::get(b.getInt32Ty(), {ptr}, false);
    f = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, kMoveSymbol, &module);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    llvm::BasicBlock* entry = block("entry");
    violation = block("bounds.violation");
    b.SetInsertPoint(violation);
    b.CreateRet(b.getInt32(kRunBoundsViolation));
    b.SetInsertPoint(entry);
    for (unsigned k = 0; k < kFields; ++k)
      arg[k] =
          b.CreateLoad(args_ty->getElementType(k), b.CreateStructGEP(args_ty, &*f->arg_begin(), k));
  }

  llvm::BasicBlock* block(const char* name) {
    return llvm::BasicBlock::Create(b.getContext(), name, f);
  }
  /// --checked: `index < limit`, else the function returns kRunBoundsViolation.
  void guard(llvm::Value* index, llvm::Value* limit) {
    if (!checked) return;
    llvm::BasicBlock* cont = block("inbounds");
    b.CreateCondBr(b.CreateICmpULT(index, limit), cont, violation);
    b.SetInsertPoint(cont);
  }
};

/// The adapted container of every source byte, as the interpreter's read_operand makes it.
llvm::GlobalVariable* adapt_table(const ir::seq::RunProgram& p, llvm::Module& module) {
  std::vector<std::uint32_t> t(256);
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    const std::uint8_t raw[4] = {static_cast<std::uint8_t>(byte), 0, 0, 0};
    t[byte] = runtime::adapt_element(p.move().source, p.move().source.streams.dtype,
                                     runtime::load_element(p.move().source.streams.dtype, raw));
  }
  auto* init = llvm::ConstantDataArray::get(module.getContext(), llvm::ArrayRef<std::uint32_t>(t));
  return new llvm::GlobalVariable(module, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                  init, "move_adapt");
}

/// A live cell's value: the source element at `c`'s offset, converted (move_convert) and put
/// through the Vector Engine pass when the program has one.
llvm::Value* emit_live_value(const ir::seq::RunProgram& p, MoveFrame& fr, llvm::Module& module,
                             llvm::GlobalVariable* table, llvm::Value* c) {
  llvm::IRBuilder<>& b = fr.b;
  llvm::Type* i64t = b.getInt64Ty();
  llvm::Type* i32t = b.getInt32Ty();
  const std::uint32_t src_bytes = move_source_bytes(p);
  llvm::Value* src_off = b.CreateLoad(i64t, b.CreateInBoundsGEP(i64t, fr.arg[kSrcOffset], c));
  fr.guard(src_off, fr.arg[kSourceLimit]);
  llvm::Value* at = b.CreateInBoundsGEP(b.getIntNTy(8 * src_bytes), fr.arg[kSource], src_off);
  llvm::Value* raw = b.CreateAlignedLoad(b.getIntNTy(8 * src_bytes), at, llvm::Align(1));
  llvm::Value* value = nullptr;
  if (table != nullptr)
    value = b.CreateLoad(i32t, b.CreateInBoundsGEP(i32t, table, b.CreateZExt(raw, i64t)));
  else
    value = src_bytes == 4 ? raw : b.CreateZExt(raw, i32t);
  if (p.vector) {
    const auto vrf = emit_vrf_operands(b, fr.vrf_ty, fr.arg[kVrf], p.vrf_operands.size(), c,
                                       [&](llvm::Value* i, llvm::Value* n) { fr.guard(i, n); });
    value = emit_vector_pass(b, module, *p.vector, value, vrf);
  }
  return value;
}

} // namespace

std::unique_ptr<llvm::Module> emit_move_module(const ir::seq::RunProgram& p, bool checked,
                                               llvm::LLVMContext& ctx) {
  auto module = std::make_unique<llvm::Module>(p.kernel_name.empty() ? "move" : p.kernel_name, ctx);
  llvm::IRBuilder<> b(ctx);
  MoveFrame fr(b, *module, checked);
  llvm::Type* i64t = b.getInt64Ty();
  llvm::Type* i32t = b.getInt32Ty();
  llvm::GlobalVariable* table =
      move_convert(p) == MoveConvert::Table ? adapt_table(p, *module) : nullptr;
  const std::uint32_t out_bytes = runtime::element_bytes(p.output.dtype);
  llvm::Type* out_ty = b.getIntNTy(8 * out_bytes);
  const std::uint64_t cells = p.output.cells.outer_size * p.output.cells.inner_size;

  // for (c = 0; c < cells; ++c)
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* head = fr.block("cell");
  llvm::BasicBlock* write = fr.block("cell.write");
  llvm::BasicBlock* next = fr.block("cell.next");
  llvm::BasicBlock* done = fr.block("done");
  b.CreateCondBr(b.getInt1(cells > 0), head, done);
  b.SetInsertPoint(head);
  llvm::PHINode* c = b.CreatePHI(i64t, 2, "c");
  c->addIncoming(b.getInt64(0), pre);
  llvm::Value* out_off =
      b.CreateLoad(i64t, b.CreateInBoundsGEP(i64t, fr.arg[kOutOffset], c), "out.offset");
  b.CreateCondBr(b.CreateICmpNE(out_off, b.getInt64(kNoOutput)), write, next);
  b.SetInsertPoint(write);
  llvm::Value* state =
      b.CreateLoad(b.getInt8Ty(), b.CreateInBoundsGEP(b.getInt8Ty(), fr.arg[kSrcState], c));
  llvm::BasicBlock* live = fr.block("live");
  llvm::BasicBlock* store = fr.block("store");
  llvm::BasicBlock* from = b.GetInsertBlock();
  // Top padding shows the poison pattern; other padding 0 (interpret_move).
  llvm::Value* pad =
      b.CreateSelect(b.CreateICmpEQ(state, b.getInt8(static_cast<std::uint8_t>(MoveCell::Top))),
                     b.getInt32(runtime::poison_bits(p.move().source.type)), b.getInt32(0));
  b.CreateCondBr(b.CreateICmpEQ(state, b.getInt8(static_cast<std::uint8_t>(MoveCell::Live))), live,
                 store);
  b.SetInsertPoint(live);
  llvm::Value* value = emit_live_value(p, fr, *module, table, c);
  llvm::BasicBlock* live_end = b.GetInsertBlock();
  b.CreateBr(store);
  b.SetInsertPoint(store);
  llvm::PHINode* v = b.CreatePHI(i32t, 2, "v");
  v->addIncoming(pad, from);
  v->addIncoming(value, live_end);
  // Whatever the stream holds, the output path casts (docs/output-path.md §1; interpret_move).
  llvm::Value* out_v =
      p.output_cast ? emit_output_cast(b, p.output_cast->to, p.output_cast->relu, v) : v;
  fr.guard(out_off, fr.arg[kOutLimit]);
  llvm::Value* stored = out_bytes == 4 ? out_v : b.CreateTrunc(out_v, out_ty);
  b.CreateAlignedStore(stored, b.CreateInBoundsGEP(out_ty, fr.arg[kOut], out_off), llvm::Align(1));
  b.CreateBr(next);
  b.SetInsertPoint(next);
  llvm::Value* c1 = b.CreateAdd(c, b.getInt64(1), "", true, true);
  c->addIncoming(c1, next);
  b.CreateCondBr(b.CreateICmpULT(c1, b.getInt64(cells)), head, done);
  b.SetInsertPoint(done);
  b.CreateRet(b.getInt32(kRunOk));
  return module;
}

} // namespace tujit::codegen
