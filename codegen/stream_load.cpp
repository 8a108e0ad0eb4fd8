#include "codegen/stream_load.h"

#include "runtime/interp/interpreter.h"
#include "runtime/tensor/logical_tensor.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {

StreamLoad::StreamLoad(const ir::seq::RunProgram& rp, llvm::Module& m, bool checked,
                       llvm::Value* stream, llvm::Value* stream_limit, llvm::Value* flit_offset,
                       llvm::Value* flit_live, llvm::BasicBlock* violation, llvm::Function* f)
    : rp_(rp), checked_(checked), stream_(stream), limit_(stream_limit),
      flit_offset_(flit_offset), flit_live_(flit_live), violation_(violation), f_(f),
      widen_(stream_widen(rp.stream)) {
  const ir::seq::CellStreams& c = rp.stream.streams.cells;
  packet_ = c.inner_size;
  flits_ = c.outer_size;
  separable_ = c.separable;
  dynamic_live_ = separable_ ? !c.outer.all_live() : !c.full.all_live();
  if (widen_ == StreamWiden::Table) {
    // The widened value of every byte, as the interpreter computes it from that element.
    std::vector<std::uint32_t> table(256);
    for (std::uint32_t byte = 0; byte < 256; ++byte) {
      const std::uint8_t raw[4] = {static_cast<std::uint8_t>(byte), 0, 0, 0};
      table[byte] =
          widened_stream_element(rp.stream, runtime::load_element(rp.stream.streams.dtype, raw));
    }
    auto* init = llvm::ConstantDataArray::get(m.getContext(), llvm::ArrayRef<std::uint32_t>(table));
    table_ = new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                      init, "stream_widen");
  }
}

llvm::Value* StreamLoad::guard(llvm::IRBuilder<>& b, llvm::Value* index, llvm::Value* limit) const {
  if (!checked_) return index;
  llvm::BasicBlock* cont = llvm::BasicBlock::Create(b.getContext(), "inbounds", f_);
  b.CreateCondBr(b.CreateICmpULT(index, limit), cont, violation_);
  b.SetInsertPoint(cont);
  return index;
}

StreamLoad::Packet StreamLoad::packet(llvm::IRBuilder<>&, llvm::Value* flit,
                                      std::uint64_t cells) const {
  Packet p;
  p.flit = flit;
  p.offset.assign(cells, nullptr);
  p.live.assign(cells, nullptr);
  return p;
}

// The table entry of flit `k` of the packet (separable) or of its cell `e` (not separable).
llvm::Value* StreamLoad::flit_entry(llvm::IRBuilder<>& b, Packet& p, std::uint64_t k,
                                    std::uint64_t e) const {
  const std::uint64_t slot = separable_ ? k : k * packet_ + e;
  if (p.offset[slot] != nullptr) return p.offset[slot];
  llvm::Value* idx = b.CreateAdd(p.flit, b.getInt64(k), "", true, true);
  if (!separable_) idx = b.CreateAdd(b.CreateMul(idx, b.getInt64(packet_), "", true, true),
                                     b.getInt64(e), "", true, true);
  const std::uint64_t entries = separable_ ? flits_ : flits_ * packet_;
  guard(b, idx, b.getInt64(entries));
  p.offset[slot] =
      b.CreateLoad(b.getInt64Ty(), b.CreateInBoundsGEP(b.getInt64Ty(), flit_offset_, idx));
  if (dynamic_live_) {
    llvm::Value* l =
        b.CreateLoad(b.getInt8Ty(), b.CreateInBoundsGEP(b.getInt8Ty(), flit_live_, idx));
    p.live[slot] = b.CreateICmpNE(l, b.getInt8(0));
  }
  return p.offset[slot];
}

llvm::Value* StreamLoad::widen(llvm::IRBuilder<>& b, llvm::Value* index) const {
  guard(b, index, limit_);
  switch (widen_) {
  case StreamWiden::Table: {
    llvm::Value* byte =
        b.CreateLoad(b.getInt8Ty(), b.CreateInBoundsGEP(b.getInt8Ty(), stream_, index));
    llvm::Value* at = b.CreateInBoundsGEP(b.getInt32Ty(), table_, b.CreateZExt(byte, b.getInt64Ty()));
    return b.CreateLoad(b.getInt32Ty(), at);
  }
  case StreamWiden::Bf16: {
    llvm::Value* half = b.CreateAlignedLoad(
        b.getInt16Ty(), b.CreateInBoundsGEP(b.getInt16Ty(), stream_, index), llvm::Align(1));
    llvm::Value* h = b.CreateZExt(half, b.getInt32Ty());
    // widen_bf16 (docs/scalars.md §4.1): NaN → canonical, zero / subnormal → signed zero.
    llvm::Value* tiny = b.CreateICmpEQ(b.CreateAnd(h, b.getInt32(0x7F80u)), b.getInt32(0));
    llvm::Value* kept = b.CreateSelect(tiny, b.CreateAnd(h, b.getInt32(0x8000u)), h);
    llvm::Value* shifted = b.CreateShl(kept, 16);
    llvm::Value* nan = b.CreateICmpUGT(b.CreateAnd(h, b.getInt32(0x7FFFu)), b.getInt32(0x7F80u));
    return b.CreateSelect(nan, b.getInt32(0x7FC00000u), shifted);
  }
  case StreamWiden::Prewidened:
    break;
  }
  return b.CreateAlignedLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), stream_, index),
                             llvm::Align(4));
}

StreamLoad::Cell StreamLoad::cell(llvm::IRBuilder<>& b, Packet& p, std::uint64_t i) const {
  const ir::seq::CellStreams& c = rp_.stream.streams.cells;
  const std::uint64_t k = i / packet_, e = i % packet_;
  Cell out;
  llvm::Value* offset = nullptr;
  if (separable_) {
    const ir::seq::CellAddress inner = c.inner.at(e);
    if (inner.state != ir::CellState::Live) return out; // padding in every flit
    llvm::Value* base = flit_entry(b, p, k, e);
    offset = inner.offset == 0 ? base : b.CreateAdd(base, b.getInt64(inner.offset), "", true, true);
    out.live = p.live[k];
  } else {
    offset = flit_entry(b, p, k, e);
    out.live = p.live[k * packet_ + e];
  }
  out.value = widen(b, offset);
  return out;
}

} // namespace tujit::codegen
