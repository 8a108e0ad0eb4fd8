// LLVM IR of one FetchProgram (fetch_emit.h). The generated code is the fetch interpreter's walk
// (fetch_exec.cpp, ir::datapath::for_each_offset) written as real nested loops: one
// counted loop per sequencer entry, outermost first (docs/datapath.md §4), the DM address and the
// stream position accumulated as Σ digit·stride and Σ digit·weight (weight = the product of the
// inner entries' sizes: the odometer order of for_each_offset), stride 0 re-reading the same cell
// (broadcast). The Fetch Adapter (docs/scalars.md §5.1, §6) is the branch structure of
// runtime::fetch_cast_bits / zero_point_sub_bits spelled as i32 operations and selects on the
// container bits: no float instruction appears, so the result is bit-exact by construction and no
// fast-math flag can matter. Collect (docs/datapath.md §8) places position pos at (pos / |P|)·F·E +
// pos mod |P|: the packet e of time step t starts flit t·F, its element e goes to flit e / E, lane
// e mod E, which is e itself past the flit start. Address arithmetic carries no nsw / nuw flag, so
// a malformed program in checked mode computes a wrapped address that the bounds check then
// refuses.
#include "tests/support/fetch_emit.h"

#include "tests/support/loop_nest.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/table_lookup.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <string>
#include <vector>

namespace tujit::testing {
namespace {

using Program = ir::seq::FetchProgram;

// f32 exponent fields of the decoders' results (biased: e + 127).
constexpr std::uint32_t kE4M3Rebias = 120; // e4m3 bias 7 → 127
constexpr std::uint32_t kE5M2Rebias = 112; // e5m2 bias 15 → 127

class FetchEmitter {
public:
  FetchEmitter(const Program& p, bool checked, llvm::LLVMContext& ctx)
      : p_(p), checked_(checked), ctx_(ctx), b_(ctx) {}

  std::unique_ptr<llvm::Module> run();

private:
  llvm::Value* i64(std::uint64_t v) { return b_.getInt64(v); }
  llvm::Value* i32(std::uint32_t v) { return b_.getInt32(v); }
  void guard(llvm::Value* ok);
  void emit_element(llvm::Value* addr, llvm::Value* pos);
  llvm::Value* adapt(llvm::Value* v);
  llvm::Value* table_lookup(llvm::Value* v);
  llvm::Value* zero_point(llvm::Value* v, unsigned bits);
  llvm::Value* decode_e4m3(llvm::Value* v);
  llvm::Value* decode_e5m2(llvm::Value* v);
  llvm::Value* widen_bf16(llvm::Value* v);
  llvm::Value* narrow_bf16(llvm::Value* v);
  llvm::Value* is_zero(llvm::Value* v) { return b_.CreateICmpEQ(v, i32(0)); }
  llvm::Value* and_mask(llvm::Value* v, std::uint32_t m) { return b_.CreateAnd(v, i32(m)); }

  const Program& p_;
  bool checked_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Module* m_ = nullptr;
  llvm::Function* f_ = nullptr;
  llvm::Value *dm_ = nullptr, *out_ = nullptr;
  llvm::Value *dm_base_ = nullptr, *out_base_ = nullptr; // the current slice's first cells
  llvm::BasicBlock* violation_ = nullptr;
  std::uint64_t out_per_slice_ = 0;
};

// Checked mode: continue only when `ok`, else leave with kRunBoundsViolation.
void FetchEmitter::guard(llvm::Value* ok) {
  if (!checked_) return;
  llvm::BasicBlock* cont = llvm::BasicBlock::Create(ctx_, "inbounds", f_);
  b_.CreateCondBr(ok, cont, violation_);
  b_.SetInsertPoint(cont);
}

// One stream position: DM read, Fetch Adapter, Collect placement. A program whose padded
// positions over-read past the buffer (fetch_program.h) skips those: their cells keep the poison
// fill the host wrote, exactly as the interpreter leaves them.
void FetchEmitter::emit_element(llvm::Value* addr, llvm::Value* pos) {
  llvm::Value* inside = p_.buffer == 0 ? static_cast<llvm::Value*>(b_.getFalse())
                                       : b_.CreateICmpULT(addr, i64(p_.buffer));
  llvm::BasicBlock* skip = nullptr;
  if (p_.sequencer.footprint() > p_.buffer) {
    llvm::BasicBlock* read = llvm::BasicBlock::Create(ctx_, "in.buffer", f_);
    skip = llvm::BasicBlock::Create(ctx_, "over.read", f_);
    b_.CreateCondBr(inside, read, skip);
    b_.SetInsertPoint(read);
  } else {
    guard(inside);
  }
  llvm::Value* src = b_.CreateInBoundsGEP(b_.getInt32Ty(), dm_, b_.CreateAdd(dm_base_, addr));
  llvm::Value* v = b_.CreateAlignedLoad(b_.getInt32Ty(), src, llvm::Align(4), "dm");
  llvm::Value* r = adapt(v);
  const std::uint64_t flit_span = p_.flits_per_packet * p_.flit_elements; // F·E cells per step
  llvm::Value* cell = pos;
  if (flit_span != p_.packet) {
    const std::uint64_t packet = p_.packet == 0 ? 1 : p_.packet; // 0 positions: never reached
    llvm::Value* t = b_.CreateUDiv(pos, i64(packet), "t");
    llvm::Value* e = b_.CreateURem(pos, i64(packet), "e");
    cell = b_.CreateAdd(b_.CreateMul(t, i64(flit_span)), e);
  }
  guard(out_per_slice_ == 0 ? static_cast<llvm::Value*>(b_.getFalse())
                            : b_.CreateICmpULT(cell, i64(out_per_slice_)));
  llvm::Value* dst = b_.CreateInBoundsGEP(b_.getInt32Ty(), out_, b_.CreateAdd(out_base_, cell));
  b_.CreateAlignedStore(r, dst, llvm::Align(4));
  if (skip) {
    b_.CreateBr(skip);
    b_.SetInsertPoint(skip);
  }
}

// docs/scalars.md §4.5: the key (the code in the container's low bits) indexes a constant copy of
// the runtime's decode table, one entry per code of the source type.
llvm::Value* FetchEmitter::table_lookup(llvm::Value* v) {
  const std::uint32_t codes = 1u << ir::wire_bits(p_.dm_type);
  std::vector<std::uint32_t> table(codes);
  for (std::uint32_t k = 0; k < codes; ++k)
    table[k] = runtime::table_lookup_bits(p_.dm_type, *p_.lookup_to, k);
  llvm::Constant* init = llvm::ConstantDataArray::get(ctx_, table);
  auto* global = new llvm::GlobalVariable(*m_, init->getType(), true,
                                          llvm::GlobalValue::PrivateLinkage, init, "lookup.table");
  llvm::Value* key = b_.CreateZExt(and_mask(v, codes - 1), b_.getInt64Ty());
  llvm::Value* at = b_.CreateInBoundsGEP(init->getType(), global, {i64(0), key});
  return b_.CreateAlignedLoad(b_.getInt32Ty(), at, llvm::Align(4), "decoded");
}

llvm::Value* FetchEmitter::adapt(llvm::Value* v) {
  if (p_.lookup_to) v = table_lookup(v);
  switch (fetch_conversion(p_)) {
  case FetchConversion::ZeroPointI5:
    return zero_point(v, 5);
  case FetchConversion::ZeroPointI9:
    return zero_point(v, 9);
  case FetchConversion::DecodeE4M3:
    return decode_e4m3(v);
  case FetchConversion::DecodeE5M2:
    return decode_e5m2(v);
  case FetchConversion::WidenBf16:
    return widen_bf16(v);
  case FetchConversion::NarrowBf16:
    return narrow_bf16(v);
  case FetchConversion::Identity:
    break;
  }
  return v;
}

// docs/scalars.md §6: Wrap(k)(sext8(v) − zp), the i32 subtraction wrapping like the host's.
llvm::Value* FetchEmitter::zero_point(llvm::Value* v, unsigned bits) {
  llvm::Value* x = b_.CreateSExt(b_.CreateTrunc(v, b_.getInt8Ty()), b_.getInt32Ty());
  const auto zp = static_cast<std::int32_t>(*p_.zero_point);
  llvm::Value* d = b_.CreateSub(x, i32(static_cast<std::uint32_t>(zp)));
  const std::uint32_t shift = 32u - bits;
  return b_.CreateAShr(b_.CreateShl(d, i32(shift)), i32(shift), "zp");
}

// runtime::dec_e4m3: exact; both NaN codes give the positive canonical NaN.
llvm::Value* FetchEmitter::decode_e4m3(llvm::Value* v) {
  llvm::Value* c = and_mask(v, 0xFFu);
  llvm::Value* s = b_.CreateShl(b_.CreateLShr(c, i32(7)), i32(31));
  llvm::Value* e = and_mask(b_.CreateLShr(c, i32(3)), 0xFu);
  llvm::Value* m = and_mask(c, 0x7u);
  llvm::Value* nan = b_.CreateAnd(b_.CreateICmpEQ(e, i32(15)), b_.CreateICmpEQ(m, i32(7)));
  llvm::Value* normal =
      b_.CreateOr(b_.CreateOr(s, b_.CreateShl(b_.CreateAdd(e, i32(kE4M3Rebias)), i32(23))),
                  b_.CreateShl(m, i32(20)));
  // Subnormal m·2^-9, normalised: m ≥ 4 → (m/4)·2^-7, m ≥ 2 → (m/2)·2^-8, m = 1 → 2^-9.
  llvm::Value* sub4 =
      b_.CreateOr(b_.CreateOr(s, i32(120u << 23)), b_.CreateShl(and_mask(m, 0x3u), i32(21)));
  llvm::Value* sub2 =
      b_.CreateOr(b_.CreateOr(s, i32(119u << 23)), b_.CreateShl(and_mask(m, 0x1u), i32(22)));
  llvm::Value* sub1 = b_.CreateOr(s, i32(118u << 23));
  llvm::Value* sub = b_.CreateSelect(b_.CreateICmpUGE(m, i32(4)), sub4,
                                     b_.CreateSelect(b_.CreateICmpUGE(m, i32(2)), sub2, sub1));
  llvm::Value* r = b_.CreateSelect(is_zero(m), s, sub);
  r = b_.CreateSelect(is_zero(e), r, normal);
  return b_.CreateSelect(nan, i32(runtime::kF32CanonicalNaN), r, "e4m3");
}

// runtime::dec_e5m2: exact; ±inf kept, a NaN keeps its sign.
llvm::Value* FetchEmitter::decode_e5m2(llvm::Value* v) {
  llvm::Value* c = and_mask(v, 0xFFu);
  llvm::Value* s = b_.CreateShl(b_.CreateLShr(c, i32(7)), i32(31));
  llvm::Value* e = and_mask(b_.CreateLShr(c, i32(2)), 0x1Fu);
  llvm::Value* m = and_mask(c, 0x3u);
  llvm::Value* special = b_.CreateSelect(is_zero(m), b_.CreateOr(s, i32(runtime::kF32PosInf)),
                                         b_.CreateOr(s, i32(runtime::kF32CanonicalNaN)));
  llvm::Value* normal =
      b_.CreateOr(b_.CreateOr(s, b_.CreateShl(b_.CreateAdd(e, i32(kE5M2Rebias)), i32(23))),
                  b_.CreateShl(m, i32(21)));
  // Subnormal m·2^-16: m = 1 → 2^-16, m = 2 → 2^-15, m = 3 → 1.5·2^-15.
  llvm::Value* sub1 = b_.CreateOr(s, i32(111u << 23));
  llvm::Value* sub23 =
      b_.CreateOr(b_.CreateOr(s, i32(112u << 23)), b_.CreateShl(and_mask(m, 0x1u), i32(22)));
  llvm::Value* sub = b_.CreateSelect(b_.CreateICmpEQ(m, i32(1)), sub1, sub23);
  llvm::Value* r = b_.CreateSelect(is_zero(m), s, sub);
  r = b_.CreateSelect(is_zero(e), r, normal);
  return b_.CreateSelect(b_.CreateICmpEQ(e, i32(31)), special, r, "e5m2");
}

// runtime::widen_bf16: NaN → 0x7FC00000, subnormal → the zero of its sign, else h << 16.
llvm::Value* FetchEmitter::widen_bf16(llvm::Value* v) {
  llvm::Value* h = and_mask(v, 0xFFFFu);
  llvm::Value* nan = b_.CreateICmpUGT(and_mask(h, 0x7FFFu), i32(runtime::kBf16PosInf));
  llvm::Value* sub =
      b_.CreateAnd(is_zero(and_mask(h, 0x7F80u)), b_.CreateNot(is_zero(and_mask(h, 0x7Fu))));
  llvm::Value* signed_zero = b_.CreateShl(and_mask(h, 0x8000u), i32(16));
  llvm::Value* r = b_.CreateSelect(sub, signed_zero, b_.CreateShl(h, i32(16)));
  return b_.CreateSelect(nan, i32(runtime::kF32CanonicalNaN), r, "bf16.widen");
}

// runtime::narrow_bf16: NaN → 0x7FC0, subnormal → the zero of its sign, else RNE on the 16
// dropped bits (round bit AND (sticky OR kept LSB)), a carry rippling into the exponent.
llvm::Value* FetchEmitter::narrow_bf16(llvm::Value* v) {
  llvm::Value* nan = b_.CreateICmpUGT(and_mask(v, runtime::kF32AbsMask), i32(runtime::kF32PosInf));
  llvm::Value* sub = b_.CreateAnd(is_zero(and_mask(v, runtime::kF32ExponentMask)),
                                  b_.CreateNot(is_zero(and_mask(v, runtime::kF32FractionMask))));
  llvm::Value* signed_zero = b_.CreateLShr(and_mask(v, runtime::kF32SignMask), i32(16));
  llvm::Value* up = b_.CreateAnd(b_.CreateNot(is_zero(and_mask(v, 0x8000u))),
                                 b_.CreateNot(is_zero(and_mask(v, 0x17FFFu))));
  llvm::Value* rounded = and_mask(
      b_.CreateAdd(b_.CreateLShr(v, i32(16)), b_.CreateZExt(up, b_.getInt32Ty())), 0xFFFFu);
  llvm::Value* r = b_.CreateSelect(sub, signed_zero, rounded);
  return b_.CreateSelect(nan, i32(runtime::kBf16CanonicalNaN), r, "bf16.narrow");
}

std::unique_ptr<llvm::Module> FetchEmitter::run() {
  auto module = std::make_unique<llvm::Module>(
      (p_.kernel_name.empty() ? std::string("kernel") : p_.kernel_name) + ".fetch." + p_.source,
      ctx_);
  m_ = module.get();
  out_per_slice_ = p_.collected_time() * p_.flit_elements;

  llvm::Type* ptr = b_.getPtrTy();
  auto* fty =
      llvm::FunctionType::get(b_.getInt32Ty(), {ptr, ptr, b_.getInt64Ty(), b_.getInt64Ty()}, false);
  f_ = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, kFetchSymbol, m_);
  f_->addFnAttr(llvm::Attribute::NoUnwind);
  f_->addParamAttr(0, llvm::Attribute::NoAlias);
  f_->addParamAttr(0, llvm::Attribute::ReadOnly);
  f_->addParamAttr(1, llvm::Attribute::NoAlias);
  auto arg = f_->arg_begin();
  dm_ = &*arg++;
  out_ = &*arg++;
  llvm::Value* begin = &*arg++;
  llvm::Value* end = &*arg++;

  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx_, "entry", f_);
  violation_ = llvm::BasicBlock::Create(ctx_, "bounds.violation", f_);
  b_.SetInsertPoint(violation_);
  b_.CreateRet(i32(static_cast<std::uint32_t>(codegen::kRunBoundsViolation)));
  b_.SetInsertPoint(entry);
  guard(b_.CreateAnd(b_.CreateICmpULE(begin, end), b_.CreateICmpULE(end, i64(p_.spatial))));

  // for (s = begin; s < end; ++s): the slices of this call.
  llvm::BasicBlock* pre = b_.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(ctx_, "slice", f_);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx_, "done", f_);
  b_.CreateCondBr(b_.CreateICmpULT(begin, end), head, done);
  b_.SetInsertPoint(head);
  llvm::PHINode* s = b_.CreatePHI(b_.getInt64Ty(), 2, "s");
  s->addIncoming(begin, pre);
  dm_base_ = b_.CreateMul(s, i64(p_.buffer), "dm.base");
  out_base_ = b_.CreateMul(s, i64(out_per_slice_), "out.base");
  emit_loop_nest(b_, f_, p_.sequencer.entries,
                 [&](llvm::Value* addr, llvm::Value* pos) { emit_element(addr, pos); });
  llvm::Value* next = b_.CreateAdd(s, i64(1), "s.next");
  s->addIncoming(next, b_.GetInsertBlock());
  b_.CreateCondBr(b_.CreateICmpULT(next, end), head, done);
  b_.SetInsertPoint(done);
  b_.CreateRet(i32(static_cast<std::uint32_t>(codegen::kRunOk)));
  return module;
}

} // namespace

FetchConversion fetch_conversion(const ir::seq::FetchProgram& p) {
  using ir::ScalarType;
  if (p.zero_point)
    return p.dm_type == ScalarType::I4 ? FetchConversion::ZeroPointI5
                                       : FetchConversion::ZeroPointI9;
  if (p.cast_source() == p.stream_type) return FetchConversion::Identity;
  // A legal fetch_cast (ir::is_fetch_cast) between different types, by the source's encoding.
  switch (ir::encoding(p.cast_source())) {
  case ir::Encoding::F8E4M3:
    return FetchConversion::DecodeE4M3;
  case ir::Encoding::F8E5M2:
    return FetchConversion::DecodeE5M2;
  case ir::Encoding::Bf16:
    return FetchConversion::WidenBf16;
  case ir::Encoding::F32:
    return FetchConversion::NarrowBf16;
  case ir::Encoding::TwosComplement: // i4 / i8 / i16 → i32: the container is already sign-extended
  case ir::Encoding::Unsigned:
  case ir::Encoding::F4E2M1:
    return FetchConversion::Identity;
  }
  return FetchConversion::Identity;
}

std::unique_ptr<llvm::Module> emit_fetch_module(const ir::seq::FetchProgram& program, bool checked,
                                                llvm::LLVMContext& context) {
  return FetchEmitter(program, checked, context).run();
}

} // namespace tujit::testing
