// i16 PAIRS (integer accumulators whose operands fit in i16, runtime/exec/operand_staging.h). The
// tree and the accumulator add of a column become multiply-adds of pairs of adjacent cells into
// independent partial sums, then their sum and one add to the accumulator: i32 addition wraps mod
// 2^32 and is associative and commutative there (docs/contraction.md §9.1), so every order and
// grouping of the same products gives the same bits, and each pair's multiply-add is exact mod 2^32
// (codegen/pair_madd.h). An absent product is 0 (a padding TRF cell is staged 0, an absent stream
// cell's half is 0), the identity.
//
// BYTE QUADS (integer accumulators whose operands are bytes, runtime/exec/operand_staging.h, chosen
// only on a host with a u8 × i8 dot product). The TRF holds each element w as the unsigned byte
// w + 128 and the stream cell x is read as its own signed byte, so one multiply-add of a quad
// (codegen/quad_madd.h, exact mod 2^32) gives Σ (w + 128)·x, and a second one of the bytes 128 with
// the same stream quad gives Σ 128·x; their difference is Σ w·x mod 2^32, the products' sum, summed
// in another order (§9.1 again). A padding TRF cell is staged as 128 (w = 0), so its two terms
// cancel and its product is 0; a padding flit's quad is read as 0, both terms 0 (§9.4). Byte octets
// are the same on 16 lanes of i32, two quads of a lane side by side, added at the end of the cycle
// (another order of the same sum).
#include "codegen/contraction_emitter.h"

#include "codegen/pair_madd.h"
#include "codegen/quad_madd.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>

namespace tujit::codegen::contraction_detail {

// The stream half of the products of cells i and i + 1 (i even) as one i32 word of two i16 (low
// half = cell i) in every lane, an absent cell being 0 (its product is then 0, the identity of
// the sum); null when both are statically absent.
llvm::Value* Emitter::stream_pair(StreamLoad::Packet& packet, std::uint64_t i) {
  const auto lanes = static_cast<unsigned>(kLaneVector);
  const auto present = [&](llvm::Value* v, llvm::Value* live) {
    return live == nullptr ? v : b_.CreateSelect(live, v, b_.getInt32(0));
  };
  if (p_.is_cell_live(i) && p_.is_cell_live(i + 1)) {
    StreamLoad::Cell both = load_->pair(b_, packet, i);
    if (both.value != nullptr && both.live == nullptr)
      return load_->splat(b_, both, b_.getInt32Ty(), lanes, cfg_.host_dot.avx2);
    if (both.value != nullptr) return b_.CreateVectorSplat(lanes, present(both.value, both.live));
  }
  llvm::Value* half[2] = {nullptr, nullptr};
  for (unsigned h = 0; h < 2; ++h) {
    if (!p_.is_cell_live(i + h)) continue;
    StreamLoad::Cell c = load_->cell(b_, packet, i + h);
    if (c.value != nullptr) half[h] = present(c.value, c.live);
  }
  if (half[0] == nullptr && half[1] == nullptr) return nullptr;
  llvm::Value* lo = half[0] ? b_.CreateAnd(half[0], b_.getInt32(0xFFFFu)) : b_.getInt32(0);
  return b_.CreateVectorSplat(lanes, half[1] ? b_.CreateOr(lo, b_.CreateShl(half[1], 16)) : lo);
}

// One packet cycle of an integer contraction on i16 pairs (runtime/exec/operand_staging.h): per
// column, one multiply-add per pair of cells (codegen/pair_madd.h) into kPairChains independent
// partial sums, their sum, the accumulator add. i32 sums wrap mod 2^32 in any order (§9.1), so
// this is the tree's value; the chains hide the multiply-add's latency.
void Emitter::emit_pair_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot) {
  constexpr std::size_t kPairChains = 4;
  const std::uint64_t cells = p_.columns * p_.group;
  llvm::Value* tbase = b_.CreateMul(trf, i64(kLaneVector), "tbase", true, true);
  std::vector<llvm::Value*> w(p_.read_size, nullptr);
  StreamLoad::Packet packet = load_->packet(b_, flit, cells);
  llvm::Value* slot_base = b_.CreateMul(slot, i64(p_.p2 * kLaneVector), "slotbase", true, true);
  for (std::uint64_t c = 0; c < p_.columns; ++c) {
    std::vector<llvm::Value*> chain(kPairChains, nullptr);
    for (std::uint64_t j = 0; j < p_.group / 2; ++j) {
      const std::uint64_t i = c * p_.group + 2 * j;
      llvm::Value* s = stream_pair(packet, i);
      if (s == nullptr) continue;
      const std::uint64_t k = i % p_.read_size; // the pair staged at k holds k and k + 1
      if (w[k] == nullptr) {
        llvm::Value* idx = b_.CreateAdd(tbase, i64(k * kLaneVector), "", true, true);
        w[k] = b_.CreateAlignedLoad(vec_, element(arg_[kTrf], idx, kLaneVector, sh_.trf_cells),
                                    llvm::Align(4));
      }
      llvm::Value*& sum = chain[j % kPairChains];
      sum = emit_pair_madd(b_, *m_, cfg_.host_dot, sum, s, w[k]);
    }
    llvm::Value* r = nullptr;
    for (llvm::Value* v : chain)
      if (v != nullptr) r = r == nullptr ? v : b_.CreateAdd(r, v);
    if (r != nullptr) accumulate(slot_base, c, r); // else statically absent
  }
}

// One packet cycle of an integer contraction on byte quads or octets (BYTE QUADS above): per
// column, each run of cells (4 on 8 lanes, 8 on 16: two quads side by side per lane) is one
// multiply-add of the staged TRF run with the stream's raw bytes broadcast into kQuadChains
// partial sums, and one of the bytes 128 with the same stream bytes into as many correction sums;
// the column's value is their difference (on 16 lanes, each lane's two quads added), added to the
// accumulator. The chains hide the latency.
void Emitter::emit_quad_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot) {
  constexpr std::size_t kQuadChains = 4;
  const unsigned width = sh_.trf_octets ? 8 : 4;         // cells per run
  const unsigned words = width / 4;                      // staged words per TRF cell
  const auto lanes = static_cast<unsigned>(kLaneVector); // accumulator lanes
  auto* vt = llvm::FixedVectorType::get(b_.getInt32Ty(), lanes * words);
  llvm::Value* tbase = b_.CreateMul(trf, i64(kLaneVector), "tbase", true, true);
  StreamLoad::Packet packet = load_->packet(b_, flit, p_.columns * p_.group);
  llvm::Value* slot_base = b_.CreateMul(slot, i64(p_.p2 * kLaneVector), "slotbase", true, true);
  llvm::Value* bytes128 = llvm::ConstantInt::get(vt, 0x80808080u);
  for (std::uint64_t c = 0; c < p_.columns; ++c) {
    std::vector<llvm::Value*> sum(kQuadChains, nullptr), correction(kQuadChains, nullptr);
    for (std::uint64_t j = 0; j < p_.group / width; ++j) {
      const std::uint64_t i = c * p_.group + width * j;
      if (!p_.is_cell_live(i)) continue; // the whole run is statically ABSENT (staged_shape)
      StreamLoad::Cell q = load_->bytes(b_, packet, i, width);
      if (q.value == nullptr) continue;
      llvm::Value* x =
          q.live == nullptr
              ? q.value
              : b_.CreateSelect(q.live, q.value, llvm::ConstantInt::get(q.value->getType(), 0));
      llvm::Value* s = b_.CreateBitCast(b_.CreateVectorSplat(lanes, x), vt);
      const std::uint64_t k = i % p_.read_size; // the run staged at k holds k … k + width − 1
      llvm::Value*& w = trf_loads_[{0, k}];
      if (w == nullptr) {
        llvm::Value* idx = b_.CreateAdd(tbase, i64(k * kLaneVector), "", true, true);
        if (words > 1) idx = b_.CreateMul(idx, i64(words), "", true, true);
        w = b_.CreateAlignedLoad(
            vt, element(arg_[kTrf], idx, kLaneVector * words, sh_.trf_cells * words),
            llvm::Align(4));
      }
      llvm::Value*& part = sum[j % kQuadChains];
      part = emit_quad_madd(b_, *m_, cfg_.host_dot, part, w, s);
      llvm::Value*& fix = correction[j % kQuadChains];
      fix = emit_quad_madd(b_, *m_, cfg_.host_dot, fix, bytes128, s);
    }
    llvm::Value* r = nullptr;
    for (std::size_t h = 0; h < kQuadChains; ++h) {
      if (sum[h] == nullptr) continue;
      llvm::Value* v = b_.CreateSub(sum[h], correction[h]);
      r = r == nullptr ? v : b_.CreateAdd(r, v);
    }
    if (r != nullptr && words > 1) { // lane l's two quads are words 2l and 2l + 1
      std::vector<int> even, odd;
      for (unsigned l = 0; l < lanes; ++l) {
        even.push_back(static_cast<int>(2 * l));
        odd.push_back(static_cast<int>(2 * l + 1));
      }
      r = b_.CreateAdd(b_.CreateShuffleVector(r, even), b_.CreateShuffleVector(r, odd));
    }
    if (r != nullptr) accumulate(slot_base, c, r); // else statically absent
  }
}

} // namespace tujit::codegen::contraction_detail
