#include "codegen/paired_nest.h"

#include "codegen/counted_loop.h"

#include <set>

namespace tujit::codegen {

namespace {

constexpr std::uint64_t kMaxInnerCycles = 1 << 16; // slot offsets enumerated for the check

struct Addresses {
  llvm::Value *flit0, *flit1, *trf, *slot0, *slot1;
};

void paired_level_loops(llvm::IRBuilder<>& b, llvm::Function* f,
                        const std::vector<ir::seq::CycleLoop>& nest, std::size_t at,
                        std::size_t level, const Addresses& a, const PairBody& pair) {
  if (at == nest.size()) return pair(a.flit0, a.flit1, a.trf, a.slot0, a.slot1);
  const ir::seq::CycleLoop& loop = nest[at];
  if (at == level) {
    emit_counted_loop(b, f, loop.size / 2, [&](llvm::Value* e) {
      llvm::Value* d = b.CreateMul(e, b.getInt64(2), "", true, true);
      llvm::Value* flit0 = add_scaled(b, a.flit0, d, loop.flit_stride);
      llvm::Value* slot0 = add_scaled(b, a.slot0, d, loop.slot_stride);
      const Addresses next{flit0, add_scaled(b, flit0, b.getInt64(1), loop.flit_stride), a.trf,
                           slot0, add_scaled(b, slot0, b.getInt64(1), loop.slot_stride)};
      paired_level_loops(b, f, nest, at + 1, level, next, pair);
    });
    return;
  }
  emit_counted_loop(b, f, loop.size, [&](llvm::Value* d) {
    const Addresses next{
        add_scaled(b, a.flit0, d, loop.flit_stride), add_scaled(b, a.flit1, d, loop.flit_stride),
        add_scaled(b, a.trf, d, loop.trf_stride), add_scaled(b, a.slot0, d, loop.slot_stride),
        add_scaled(b, a.slot1, d, loop.slot_stride)};
    paired_level_loops(b, f, nest, at + 1, level, next, pair);
  });
}

} // namespace

std::size_t paired_level(const std::vector<ir::seq::CycleLoop>& nest) {
  std::set<std::uint64_t> inner{0}; // slot offsets of the cycles inside the loop
  for (std::size_t l = nest.size(); l-- > 0;) {
    const ir::seq::CycleLoop& loop = nest[l];
    if (loop.trf_stride == 0 && loop.size >= 2 && loop.size % 2 == 0) {
      bool disjoint = true;
      for (std::uint64_t o : inner) disjoint = disjoint && inner.count(o + loop.slot_stride) == 0;
      if (disjoint) return l;
    }
    if (inner.size() * loop.size > kMaxInnerCycles) break;
    std::set<std::uint64_t> next;
    for (std::uint64_t d = 0; d < loop.size; ++d)
      for (std::uint64_t o : inner) next.insert(o + d * loop.slot_stride);
    inner = std::move(next);
  }
  return nest.size();
}

void emit_paired_nest(llvm::IRBuilder<>& b, llvm::Function* f,
                      const std::vector<ir::seq::CycleLoop>& nest, std::size_t level,
                      const PairBody& pair) {
  llvm::Value* zero = b.getInt64(0);
  paired_level_loops(b, f, nest, 0, level, Addresses{zero, zero, zero, zero, zero}, pair);
}

} // namespace tujit::codegen
