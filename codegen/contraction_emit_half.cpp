// HALF PACKETS (f32 accumulators without FMA, on a host with 16 f32 lanes). With G = 2^d ≥ 2 cells
// per column, cell j of a column and cell j + G/2 (j < G/2) share one 16-lane vector: their 8 lanes
// each, lanes 0–7 and 8–15. The tree's levels 1 … d − 1 pair vectors j and j + 1 exactly as they
// pair cells j and j + 1, so each half computes, operation for operation, the subtree of its G/2
// cells (every lane of a vector op is the same binary32 mul or add); the last level adds the two
// halves, tree(first half) ⊕ tree(second half), as docs/contraction.md §9.2 does. A half that is
// ABSENT while the other is present holds the identity -0 (ABSENT in contraction_emit.cpp), so the
// vector's ops leave the present half's values as the scalar tree, which skips the absent operand,
// has them. Products stay separate vmulps and sums separate vaddps: a bf16 × bf16 product can round
// (below 2^-126, above f32's range), so fusing it with an add would change bits.
#include "codegen/contraction_emitter.h"

#include "codegen/trf_halves.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>

namespace tujit::codegen::contraction_detail {

// An all-true, all-false or per-flit presence mask of a half (HALF PACKETS): a null cell is
// statically absent; null when both halves are statically present.
llvm::Value* Emitter::half_mask(const StreamLoad::Cell* lo, const StreamLoad::Cell* hi) {
  const auto lanes = static_cast<unsigned>(kLaneVector);
  const bool static_lo = lo != nullptr && lo->live == nullptr;
  const bool static_hi = hi != nullptr && hi->live == nullptr;
  if (static_lo && static_hi) return nullptr;
  const auto side = [&](const StreamLoad::Cell* c) -> llvm::Value* {
    if (c == nullptr) return b_.CreateVectorSplat(lanes, b_.getFalse());
    return b_.CreateVectorSplat(lanes, c->live != nullptr ? c->live : b_.getTrue());
  };
  std::vector<int> both;
  for (int j = 0; j < static_cast<int>(2 * lanes); ++j) both.push_back(j);
  return b_.CreateShuffleVector(side(lo), side(hi), both);
}

// One packet cycle of an f32 contraction on 16 lanes (HALF PACKETS above): per column, cell j of
// the group and cell j + G/2 share one vector, lanes 0–7 and 8–15; the tree's first d − 1 levels
// run on these vectors, its last level adds the two halves.
void Emitter::emit_half_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot) {
  const std::uint64_t cells = p_.columns * p_.group;
  const std::uint64_t half = p_.group / 2;
  const auto lanes = static_cast<unsigned>(kLaneVector);
  auto* wide = llvm::FixedVectorType::get(b_.getFloatTy(), 2 * lanes);
  llvm::Value* tbase = b_.CreateMul(trf, i64(kLaneVector), "tbase", true, true);
  const auto trf_vector = [&](std::uint64_t k) {
    llvm::Value*& w = trf_loads_[{0, k}];
    if (w == nullptr) {
      llvm::Value* idx = b_.CreateAdd(tbase, i64(k * kLaneVector), "", true, true);
      w = b_.CreateAlignedLoad(vec_, element(arg_[kTrf], idx, kLaneVector, sh_.trf_cells),
                               llvm::Align(4));
    }
    return w;
  };
  const auto trf_mask = [&](std::uint64_t k) {
    llvm::Value*& w = trf_loads_[{1, k}];
    if (w == nullptr) {
      llvm::Value* idx = b_.CreateAdd(tbase, i64(k * kLaneVector), "", true, true);
      llvm::Value* m = b_.CreateAlignedLoad(
          llvm::FixedVectorType::get(b_.getInt32Ty(), kLaneVector),
          element(arg_[kTrfPresent], idx, kLaneVector, sh_.trf_cells), llvm::Align(4));
      w = b_.CreateICmpNE(m, llvm::ConstantInt::get(m->getType(), 0));
    }
    return w;
  };
  std::vector<int> both;
  for (int j = 0; j < static_cast<int>(2 * lanes); ++j) both.push_back(j);
  const auto trf_pair = [&](std::uint64_t ka, std::uint64_t kb) -> llvm::Value* {
    if (trf_halves_ != nullptr && kb == ka + half) {
      llvm::Value*& w = trf_loads_[{2, ka}];
      if (w != nullptr) return w;
      llvm::Value* idx = b_.CreateMul(b_.CreateAdd(tbase, i64(ka * kLaneVector), "", true, true),
                                      i64(2), "", true, true);
      w = b_.CreateAlignedLoad(
          wide, element(b_.getFloatTy(), trf_halves_, idx, 2 * lanes, i64(2 * sh_.trf_cells)),
          llvm::Align(64));
      return w;
    }
    return b_.CreateShuffleVector(trf_vector(ka), trf_vector(kb), both);
  };

  std::vector<StreamLoad::Cell> cell(cells);
  std::vector<bool> present(cells, false);
  StreamLoad::Packet packet = load_->packet(b_, flit, cells);
  for (std::uint64_t i = 0; i < cells; ++i) {
    if (!p_.is_cell_live(i)) continue; // statically ABSENT (§5.4 live_OP)
    cell[i] = load_->cell(b_, packet, i);
    present[i] = cell[i].value != nullptr; // else a padding cell of every flit
  }
  llvm::Value* slot_base = b_.CreateMul(slot, i64(p_.p2 * kLaneVector), "slotbase", true, true);
  for (std::uint64_t c = 0; c < p_.columns; ++c) {
    std::vector<llvm::Value*> level(half, nullptr);
    for (std::uint64_t j = 0; j < half; ++j) {
      const std::uint64_t a = c * p_.group + j, z = a + half;
      if (!present[a] && !present[z]) continue;
      const StreamLoad::Cell* lo = present[a] ? &cell[a] : nullptr;
      const StreamLoad::Cell* hi = present[z] ? &cell[z] : nullptr;
      Product x;
      x.s = load_->splat_halves(b_, lo, hi, true);
      x.w = trf_pair(a % p_.read_size, z % p_.read_size);
      x.mask = half_mask(lo, hi);
      if (sh_.trf_masks) { // a padding TRF cell: ABSENT (§9.4)
        llvm::Value* m =
            b_.CreateShuffleVector(trf_mask(a % p_.read_size), trf_mask(z % p_.read_size), both);
        x.mask = x.mask == nullptr ? m : b_.CreateAnd(x.mask, m);
      }
      level[j] = product_value(x);
    }
    reduce_column(std::move(level), slot_base, c);
  }
}

} // namespace tujit::codegen::contraction_detail
