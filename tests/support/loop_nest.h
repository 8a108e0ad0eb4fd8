// The sequencer's loop nest as LLVM IR (furiosa-opt docs/src/moving-tensors/sequencer.md
// "Architecture"): one counted loop per configuration entry, outermost first, the buffer address
// accumulated as Σ digit·stride (stride 0 re-reads the same cell: a broadcast) and the stream
// position as Σ digit·weight, weight = the product of the inner entries' sizes (the odometer order
// of ir::datapath::for_each_offset). The fetch code generator of the tests' fetch JIT
// (fetch_emit.h) emits its nest with it.
#pragma once

#include "ir/datapath/sequencer_config.h"

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <vector>

namespace tujit::testing {

/// Emits the nest at the builder's insert point inside `f` and calls `body(addr, pos)` (i64
/// values) once, inside the innermost loop. The builder is left after the nest.
void emit_loop_nest(llvm::IRBuilder<>& b, llvm::Function* f,
                    const std::vector<ir::datapath::SeqEntry>& entries,
                    const std::function<void(llvm::Value* addr, llvm::Value* pos)>& body);

} // namespace tujit::testing
