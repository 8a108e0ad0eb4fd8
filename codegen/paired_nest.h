// The packet-cycle nest with two steps of one loop run side by side (PAIRED STEPS,
// contraction_emit.cpp): steps 2e and 2e + 1 of a loop whose TRF stride is 0 read the same TRF
// elements in every inner cycle, so running their cycles interleaved, cycle i of one then cycle i
// of the other, lets one TRF load serve both. It reorders cycles only across two disjoint sets of
// Time Reducer slots: every slot still takes its cycles in flit order (docs/contraction.md §7).
#pragma once

#include "codegen/paired_level.h"
#include "ir/seq/contraction_program.h"

#include <llvm/IR/IRBuilder.h>

#include <cstddef>
#include <functional>
#include <vector>

namespace tujit::codegen {

/// The nest as counted loops, loop `level` (paired_level) advancing two steps at a time:
/// `pair(flit0, flit1, trf, slot0, slot1)` once per cycle of the even step, for it and the same
/// cycle of the odd step.
using PairBody = std::function<void(llvm::Value* flit0, llvm::Value* flit1, llvm::Value* trf,
                                    llvm::Value* slot0, llvm::Value* slot1)>;
void emit_paired_nest(llvm::IRBuilder<>& b, llvm::Function* f,
                      const std::vector<ir::seq::CycleLoop>& nest, std::size_t level,
                      const PairBody& pair);

} // namespace tujit::codegen
