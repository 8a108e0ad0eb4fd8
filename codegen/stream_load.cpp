#include "codegen/stream_load.h"

#include "runtime/tensor/logical_tensor.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

namespace tujit::codegen {

StreamLoad::StreamLoad(const ir::seq::RunProgram& rp, llvm::Module& m, bool checked, bool pairs,
                       llvm::Value* stream, llvm::Value* stream_limit, llvm::Value* flit_offset,
                       llvm::Value* flit_live, llvm::BasicBlock* violation, llvm::Function* f)
    : rp_(rp), checked_(checked), pairs_(pairs), stream_(stream), limit_(stream_limit),
      flit_offset_(flit_offset), flit_live_(flit_live), violation_(violation), f_(f),
      widen_(stream_widen(rp.input())) {
  const ir::seq::CellStreams& c = rp.input().streams.cells;
  packet_ = c.inner_size;
  flits_ = c.outer_size;
  separable_ = c.separable;
  dynamic_live_ = separable_ ? !c.outer.all_live() : !c.full.all_live();
  if (widen_ == StreamWiden::Table) {
    // The widened value of every byte, as the interpreter computes it from that element.
    std::vector<std::uint32_t> table(256);
    bool sign = true, zero = true;
    for (std::uint32_t byte = 0; byte < 256; ++byte) {
      const std::uint8_t raw[4] = {static_cast<std::uint8_t>(byte), 0, 0, 0};
      table[byte] =
          widened_stream_element(rp.input(), runtime::load_element(rp.input().streams.dtype, raw));
      sign = sign && table[byte] == static_cast<std::uint32_t>(static_cast<std::int8_t>(byte));
      zero = zero && table[byte] == byte;
    }
    extension_ = sign ? Extension::Sign : zero ? Extension::Zero : Extension::None;
    auto* init = llvm::ConstantDataArray::get(m.getContext(), llvm::ArrayRef<std::uint32_t>(table));
    table_ = new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                      init, "stream_widen");
  }
  // The vector path: every live cell e of a flit sits at element e from the flit's offset, so the
  // flit's cells [0, run_) are one load; the elements of padding cells in between are read (they
  // lie between two live cells of the same flit, inside the tensor) and never used.
  const bool vector_widen = widen_ == StreamWiden::Bf16 ||
                            (widen_ == StreamWiden::Table && extension_ != Extension::None);
  if (separable_ && vector_widen) {
    std::uint64_t run = 0;
    bool consecutive = true;
    for (std::uint64_t e = 0; e < packet_; ++e) {
      const ir::seq::CellAddress a = c.inner.at(e);
      if (a.state != ir::CellState::Live) continue;
      consecutive = consecutive && a.offset == e;
      run = e + 1;
    }
    if (consecutive && run >= 2) run_ = run;
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
  p.widened.assign(cells / packet_ + 1, nullptr);
  return p;
}

// The table entry of flit `k` of the packet (separable) or of its cell `e` (not separable).
llvm::Value* StreamLoad::flit_entry(llvm::IRBuilder<>& b, Packet& p, std::uint64_t k,
                                    std::uint64_t e) const {
  const std::uint64_t slot = separable_ ? k : k * packet_ + e;
  if (p.offset[slot] != nullptr) return p.offset[slot];
  llvm::Value* idx = b.CreateAdd(p.flit, b.getInt64(k), "", true, true);
  if (!separable_)
    idx = b.CreateAdd(b.CreateMul(idx, b.getInt64(packet_), "", true, true), b.getInt64(e), "",
                      true, true);
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

// The accumulator bits of `raw` (one element, or a vector of them, as stored in the tensor) for
// the arithmetic widenings: sign / zero extension of a byte, widen_bf16 of a bf16.
// With `pairs_`, a vector of bytes widens to i16 (the values fit: staged_shape's condition).
llvm::Value* StreamLoad::widen_bits(llvm::IRBuilder<>& b, llvm::Value* raw) const {
  llvm::Type* i32 = b.getInt32Ty();
  if (auto* v = llvm::dyn_cast<llvm::VectorType>(raw->getType()))
    i32 = llvm::VectorType::get(pairs_ ? b.getInt16Ty() : i32, v->getElementCount());
  if (widen_ == StreamWiden::Table)
    return extension_ == Extension::Sign ? b.CreateSExt(raw, i32) : b.CreateZExt(raw, i32);
  const auto k = [&](std::uint32_t c) { return llvm::ConstantInt::get(i32, c); };
  llvm::Value* h = b.CreateZExt(raw, i32);
  // widen_bf16 (docs/scalars.md §4.1): NaN → canonical, zero / subnormal → signed zero.
  llvm::Value* tiny = b.CreateICmpEQ(b.CreateAnd(h, k(0x7F80u)), k(0));
  llvm::Value* kept = b.CreateSelect(tiny, b.CreateAnd(h, k(0x8000u)), h);
  llvm::Value* shifted = b.CreateShl(kept, 16);
  llvm::Value* nan = b.CreateICmpUGT(b.CreateAnd(h, k(0x7FFFu)), k(0x7F80u));
  return b.CreateSelect(nan, k(0x7FC00000u), shifted);
}

llvm::Value* StreamLoad::widen(llvm::IRBuilder<>& b, llvm::Value* index) const {
  guard(b, index, limit_);
  switch (widen_) {
  case StreamWiden::Table: {
    llvm::Value* byte =
        b.CreateLoad(b.getInt8Ty(), b.CreateInBoundsGEP(b.getInt8Ty(), stream_, index));
    if (extension_ != Extension::None) return widen_bits(b, byte);
    llvm::Value* at =
        b.CreateInBoundsGEP(b.getInt32Ty(), table_, b.CreateZExt(byte, b.getInt64Ty()));
    return b.CreateLoad(b.getInt32Ty(), at);
  }
  case StreamWiden::Bf16:
    return widen_bits(b, b.CreateAlignedLoad(b.getInt16Ty(),
                                             b.CreateInBoundsGEP(b.getInt16Ty(), stream_, index),
                                             llvm::Align(1)));
  case StreamWiden::Prewidened:
    break;
  }
  return b.CreateAlignedLoad(b.getInt32Ty(), b.CreateInBoundsGEP(b.getInt32Ty(), stream_, index),
                             llvm::Align(4));
}

// Elements [0, run_) of flit `k` of the packet, loaded once and widened as one vector that stays
// in registers: each cell is an element of it, which the emitter splats (a register shuffle).
// Not spilled to the stack for broadcasts from memory: a narrow load of a wide store that has not
// yet retired does not forward on the host and stalls until it does, every packet cycle.
llvm::Value* StreamLoad::flit_vector(llvm::IRBuilder<>& b, Packet& p, std::uint64_t k) const {
  if (p.widened[k] != nullptr) return p.widened[k];
  llvm::Value* base = flit_entry(b, p, k, 0);
  guard(b, b.CreateAdd(base, b.getInt64(run_ - 1), "", true, true), limit_);
  llvm::Type* element = widen_ == StreamWiden::Bf16 ? b.getInt16Ty() : b.getInt8Ty();
  llvm::Type* raw = llvm::FixedVectorType::get(element, static_cast<unsigned>(run_));
  llvm::Value* v =
      b.CreateAlignedLoad(raw, b.CreateInBoundsGEP(element, stream_, base), llvm::Align(1));
  p.widened[k] = widen_bits(b, v);
  return p.widened[k];
}

StreamLoad::Cell StreamLoad::cell(llvm::IRBuilder<>& b, Packet& p, std::uint64_t i) const {
  const ir::seq::CellStreams& c = rp_.input().streams.cells;
  const std::uint64_t k = i / packet_, e = i % packet_;
  Cell out;
  llvm::Value* offset = nullptr;
  if (separable_) {
    const ir::seq::CellAddress inner = c.inner.at(e);
    if (inner.state != ir::CellState::Live) return out; // padding in every flit
    if (run_ > 0) {
      llvm::Value* v = flit_vector(b, p, k);
      out.value = b.CreateExtractElement(v, e);
      if (pairs_) {
        out.value = b.CreateSExt(out.value, b.getInt32Ty());
      } else {
        out.flit = v;
        out.element = e;
      }
      out.live = p.live[k];
      return out;
    }
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

llvm::Value* StreamLoad::splat(llvm::IRBuilder<>& b, const Cell& c, llvm::Type* scalar,
                               unsigned lanes, bool permute) const {
  const bool float_lanes = scalar->isFloatTy();
  const bool vpermute =
      permute && c.flit != nullptr && lanes == 8 && (float_lanes || scalar->isIntegerTy(32));
  if (!vpermute) {
    llvm::Value* v = float_lanes ? b.CreateBitCast(c.value, scalar) : c.value;
    return b.CreateVectorSplat(lanes, v);
  }
  llvm::Module& m = *f_->getParent();
  if (lane_index_ == nullptr) {
    std::vector<std::uint32_t> index;
    for (unsigned e = 0; e < lanes; ++e) index.insert(index.end(), lanes, e);
    auto* init = llvm::ConstantDataArray::get(m.getContext(), llvm::ArrayRef<std::uint32_t>(index));
    // Not constant: the optimiser would fold the permute into a generic shuffle.
    lane_index_ = new llvm::GlobalVariable(m, init->getType(), false,
                                           llvm::GlobalValue::PrivateLinkage, init, "lane_index");
  }
  const auto n = llvm::cast<llvm::FixedVectorType>(c.flit->getType())->getNumElements();
  const unsigned part = static_cast<unsigned>(c.element / lanes);
  std::vector<int> pick;
  for (unsigned j = 0; j < lanes; ++j) {
    const unsigned at = part * lanes + j;
    pick.push_back(at < n ? static_cast<int>(at) : -1);
  }
  auto* ivec = llvm::FixedVectorType::get(b.getInt32Ty(), lanes);
  llvm::Value* source = b.CreateShuffleVector(c.flit, pick);
  llvm::Value* index = b.CreateAlignedLoad(
      ivec, b.CreateConstInBoundsGEP1_64(b.getInt32Ty(), lane_index_, (c.element % lanes) * lanes),
      llvm::Align(4));
  if (float_lanes) {
    auto* fvec = llvm::FixedVectorType::get(scalar, lanes);
    llvm::Function* permps = llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::x86_avx2_permps);
    return b.CreateCall(permps, {b.CreateBitCast(source, fvec), index});
  }
  llvm::Function* permd = llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::x86_avx2_permd);
  return b.CreateCall(permd, {source, index});
}

llvm::Value* StreamLoad::splat_halves(llvm::IRBuilder<>& b, const Cell* lo, const Cell* hi,
                                      bool permute) const {
  constexpr unsigned kHalf = 8;
  if (lo == nullptr) lo = hi;
  if (hi == nullptr) hi = lo;
  llvm::Type* f32 = b.getFloatTy();
  if (!permute || lo->flit == nullptr || hi->flit == nullptr ||
      lo->flit->getType() != hi->flit->getType()) {
    llvm::Value* a = b.CreateVectorSplat(kHalf, b.CreateBitCast(lo->value, f32));
    llvm::Value* c = b.CreateVectorSplat(kHalf, b.CreateBitCast(hi->value, f32));
    std::vector<int> both;
    for (int j = 0; j < static_cast<int>(2 * kHalf); ++j) both.push_back(j);
    return b.CreateShuffleVector(a, c, both);
  }
  llvm::Module& m = *f_->getParent();
  if (half_index_ == nullptr) {
    // Row (l, h): lane j < 8 takes element l of the window, lane j ≥ 8 element 8 + h.
    std::vector<std::uint32_t> index;
    for (unsigned l = 0; l < kHalf; ++l)
      for (unsigned h = 0; h < kHalf; ++h) {
        index.insert(index.end(), kHalf, l);
        index.insert(index.end(), kHalf, kHalf + h);
      }
    auto* init = llvm::ConstantDataArray::get(m.getContext(), llvm::ArrayRef<std::uint32_t>(index));
    // Not constant, as lane_index_.
    half_index_ = new llvm::GlobalVariable(m, init->getType(), false,
                                           llvm::GlobalValue::PrivateLinkage, init, "half_index");
  }
  // The window: the aligned 8 elements of each flit holding the cell, side by side.
  const auto n = llvm::cast<llvm::FixedVectorType>(lo->flit->getType())->getNumElements();
  std::vector<int> pick;
  const Cell* side[2] = {lo, hi};
  for (unsigned k = 0; k < 2; ++k) {
    const unsigned base = static_cast<unsigned>(side[k]->element / kHalf) * kHalf;
    for (unsigned j = 0; j < kHalf; ++j)
      pick.push_back(base + j < n ? static_cast<int>(k * n + base + j) : -1);
  }
  llvm::Value* window = b.CreateShuffleVector(lo->flit, hi->flit, pick);
  const std::uint64_t row = (lo->element % kHalf) * kHalf + hi->element % kHalf;
  auto* ivec = llvm::FixedVectorType::get(b.getInt32Ty(), 2 * kHalf);
  llvm::Value* index = b.CreateAlignedLoad(
      ivec, b.CreateConstInBoundsGEP1_64(b.getInt32Ty(), half_index_, row * 2 * kHalf),
      llvm::Align(4));
  auto* fvec = llvm::FixedVectorType::get(f32, 2 * kHalf);
  llvm::Function* permps =
      llvm::Intrinsic::getDeclaration(&m, llvm::Intrinsic::x86_avx512_permvar_sf_512);
  return b.CreateCall(permps, {b.CreateBitCast(window, fvec), index});
}

StreamLoad::Cell StreamLoad::pair(llvm::IRBuilder<>& b, Packet& p, std::uint64_t i) const {
  const ir::seq::CellStreams& c = rp_.input().streams.cells;
  const std::uint64_t k = i / packet_, e = i % packet_;
  Cell out;
  if (!pairs_ || !separable_ || run_ == 0 || e + 1 >= run_) return out;
  if (c.inner.at(e).state != ir::CellState::Live || c.inner.at(e + 1).state != ir::CellState::Live)
    return out;
  llvm::Value* v = flit_vector(b, p, k);
  if (e % 2 == 0 && run_ % 2 == 0) {
    // Two i16 elements of the vector are one i32 element of it (little-endian: e is the low half).
    auto* words = llvm::FixedVectorType::get(b.getInt32Ty(), static_cast<unsigned>(run_ / 2));
    out.flit = b.CreateBitCast(v, words);
    out.element = e / 2;
    out.value = b.CreateExtractElement(out.flit, out.element);
  } else {
    llvm::Value* lo = b.CreateZExt(b.CreateExtractElement(v, e), b.getInt32Ty());
    llvm::Value* hi = b.CreateZExt(b.CreateExtractElement(v, e + 1), b.getInt32Ty());
    out.value = b.CreateOr(lo, b.CreateShl(hi, 16));
  }
  out.live = p.live[k];
  return out;
}

StreamLoad::Cell StreamLoad::bytes(llvm::IRBuilder<>& b, Packet& p, std::uint64_t i,
                                   unsigned width) const {
  const ir::seq::CellStreams& c = rp_.input().streams.cells;
  const std::uint64_t k = i / packet_, e = i % packet_;
  Cell out;
  const ir::seq::CellAddress inner = c.inner.at(e);
  if (inner.state != ir::CellState::Live) return out; // padding in every flit
  llvm::Value* base = flit_entry(b, p, k, 0);
  llvm::Value* at = b.CreateAdd(base, b.getInt64(inner.offset), "", true, true);
  guard(b, b.CreateAdd(at, b.getInt64(width - 1), "", true, true), limit_);
  out.value = b.CreateAlignedLoad(b.getIntNTy(8 * width),
                                  b.CreateInBoundsGEP(b.getInt8Ty(), stream_, at), llvm::Align(1));
  out.live = p.live[k];
  return out;
}

} // namespace tujit::codegen
