// LLVM IR of the poison shadow (poison_emit.h). One function per run program, every trip count,
// stride, tree shape, slot stride, liveness and drain a constant; one poison byte per cell, ORed
// into the cell it flows to (the Packet Reducer's tree and the Time Reducer's sum both become an
// OR, which needs no order).
#include "codegen/poison_emit.h"

#include "codegen/contraction_emit.h"
#include "codegen/counted_loop.h"
#include "codegen/native_compiler.h"
#include "codegen/slice_function.h"
#include "ir/types/cell_state.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <functional>
#include <vector>

namespace tujit::codegen {
namespace {

using ir::CellState;
using ir::seq::ChainStage;
using Program = ir::seq::ContractionProgram;

enum Field : unsigned { kIn, kTrf, kSlots, kOut, kInSpatial, kTrfSpatial, kFieldCount };

std::uint8_t byte(CellState s) {
  return static_cast<std::uint8_t>(s);
}

class PoisonEmitter {
public:
  PoisonEmitter(const ir::seq::RunProgram& rp, llvm::LLVMContext& ctx)
      : rp_(rp), p_(rp.is_move() ? nullptr : &rp.contraction().chain), shape_(poison_shape(rp)),
        ctx_(ctx), b_(ctx) {}

  std::unique_ptr<llvm::Module> run();

private:
  llvm::Value* i64(std::uint64_t v) { return b_.getInt64(v); }
  llvm::Value* scaled(llvm::Value* base, llvm::Value* digit, std::uint64_t stride) {
    return add_scaled(b_, base, digit, stride);
  }
  llvm::Value* at(Field f, llvm::Value* index, std::uint64_t limit);
  /// The state of cell `index` of `f`, combined with the slice's spatial state (docs/mapping.md
  /// §2 combine: the spatial padding wins).
  llvm::Value* state(Field f, Field spatial, llvm::Value* index, std::uint64_t limit);
  llvm::Value* is(llvm::Value* state, CellState s) {
    return b_.CreateICmpEQ(state, b_.getInt8(byte(s)));
  }
  /// Read by the Multiplier: a live element or Top content (Zero is a real 0, Bottom unread).
  llvm::Value* read(llvm::Value* state) {
    return b_.CreateOr(is(state, CellState::Live), is(state, CellState::Top));
  }
  void or_into(Field f, llvm::Value* index, std::uint64_t limit, llvm::Value* poisoned);
  void when(llvm::Value* cond, const std::function<void()>& body) {
    emit_when(b_, fn_.f, cond, body);
  }
  void loop(std::uint64_t n, const std::function<void(llvm::Value*)>& body) {
    emit_counted_loop(b_, fn_.f, n, body);
  }
  llvm::Value* in_view(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot);
  llvm::Value* cell_poison(llvm::Value* flit, llvm::Value* trf, llvm::Value* row, std::uint64_t l,
                           llvm::Value* x);
  void emit_cycle(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t);
  void emit_tail();
  void emit_move();

  const ir::seq::RunProgram& rp_;
  const Program* p_; // the chain (nullptr for a move)
  PoisonShape shape_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Module* m_ = nullptr;
  SliceFunction fn_;
};

// &buffer[index]; the function returns kRunBoundsViolation unless index < limit.
llvm::Value* PoisonEmitter::at(Field f, llvm::Value* index, std::uint64_t limit) {
  return guarded_element(b_, fn_, true, b_.getInt8Ty(), fn_.fields[f], index, limit);
}

llvm::Value* PoisonEmitter::state(Field f, Field spatial, llvm::Value* index, std::uint64_t limit) {
  llvm::Value* cell = b_.CreateLoad(b_.getInt8Ty(), at(f, index, limit));
  llvm::Value* s = fn_.fields[spatial];
  return b_.CreateSelect(is(s, CellState::Live), cell, s);
}

void PoisonEmitter::or_into(Field f, llvm::Value* index, std::uint64_t limit,
                            llvm::Value* poisoned) {
  llvm::Value* ptr = at(f, index, limit);
  llvm::Value* old = b_.CreateLoad(b_.getInt8Ty(), ptr);
  b_.CreateStore(b_.CreateOr(old, b_.CreateZExt(poisoned, b_.getInt8Ty())), ptr);
}

// Whether every address of the cycle lies inside its view: the flits and TRF elements the packet
// reads, and the slot it is summed into. A live cycle always does (ir::seq::verify); a padded
// OutTime cycle whose counters point past a view reads and writes nothing.
llvm::Value* PoisonEmitter::in_view(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot) {
  llvm::Value* ok = b_.getTrue();
  const std::uint64_t cells = p_->columns * p_->group;
  if (p_->forms_products()) {
    const std::uint64_t last_flit = (cells - 1) / p_->packet;
    const std::uint64_t last_element = std::min(cells, p_->read_size) - 1;
    ok = b_.CreateAnd(ok, b_.CreateICmpULT(flit, i64(p_->time - std::min(p_->time, last_flit))));
    ok = b_.CreateAnd(
        ok, b_.CreateICmpULT(trf, i64(p_->element - std::min(p_->element, last_element))));
  }
  if (!p_->cycle_output()) ok = b_.CreateAnd(ok, b_.CreateICmpULT(slot, i64(p_->t2)));
  return ok;
}

// Whether cell x of lane l's packet in this cycle carries Top content: a product (§5.1 Stream
// Adapter: the packet's cells are contiguous from its first flit; §5.2 TRF Sequencer: element
// trf + x mod ReadSize of the lane), or the input tensor's cell in row `row`.
llvm::Value* PoisonEmitter::cell_poison(llvm::Value* flit, llvm::Value* trf, llvm::Value* row,
                                        std::uint64_t l, llvm::Value* x) {
  if (!p_->forms_products()) {
    llvm::Value* i = b_.CreateAdd(b_.CreateMul(row, i64(p_->input_inner())), x);
    return is(state(kIn, kInSpatial, i, shape_.in_cells), CellState::Top);
  }
  llvm::Value* packet_row = b_.CreateAdd(flit, b_.CreateUDiv(x, i64(p_->packet)));
  llvm::Value* si =
      b_.CreateAdd(b_.CreateMul(packet_row, i64(p_->packet)), b_.CreateURem(x, i64(p_->packet)));
  llvm::Value* wi =
      b_.CreateAdd(b_.CreateAdd(i64(l * p_->element), trf), b_.CreateURem(x, i64(p_->read_size)));
  llvm::Value* s = state(kIn, kInSpatial, si, shape_.in_cells);
  llvm::Value* w = state(kTrf, kTrfSpatial, wi, shape_.trf_cells);
  return b_.CreateOr(b_.CreateAnd(is(s, CellState::Top), read(w)),
                     b_.CreateAnd(is(w, CellState::Top), read(s)));
}

// One packet cycle, live or padded: every live lane's columns, each the OR of its group's cells,
// into the output row (a part ending at contract_outer / contract_packet) or its slot.
void PoisonEmitter::emit_cycle(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot,
                               llvm::Value* t) {
  when(in_view(flit, trf, slot), [&] {
    for (std::uint64_t l = 0; l < p_->lanes; ++l) {
      if (!p_->lane_live.empty() && p_->lane_live[l] == 0) continue;
      llvm::Value* row = b_.CreateAdd(t, i64(l * p_->cycles));
      loop(p_->columns, [&](llvm::Value* c) {
        llvm::Value* dest =
            p_->cycle_output()
                ? b_.CreateAdd(b_.CreateMul(row, i64(p_->output_inner())), c)
                : b_.CreateAdd(b_.CreateMul(scaled(slot, i64(l), p_->t2), i64(p_->p2)), c);
        const Field into = p_->cycle_output() ? kOut : kSlots;
        const std::uint64_t limit = p_->cycle_output() ? shape_.out_cells : shape_.slot_cells;
        loop(p_->group, [&](llvm::Value* g) {
          llvm::Value* x = b_.CreateAdd(b_.CreateMul(c, i64(p_->group)), g);
          or_into(into, dest, limit, cell_poison(flit, trf, row, l, x));
        });
      });
    }
  });
}

// A part from contract_lane loads its slots from the input tensor; one ending at contract_time
// writes them; one ending at contract_lane drains them in output order (§8).
void PoisonEmitter::emit_tail() {
  const std::uint64_t slots = shape_.slot_cells;
  if (!p_->walks_cycles())
    loop(slots, [&](llvm::Value* i) {
      llvm::Value* top = is(state(kIn, kInSpatial, i, shape_.in_cells), CellState::Top);
      or_into(kSlots, i, slots, top);
    });
  if (p_->last == ChainStage::Time)
    loop(slots, [&](llvm::Value* i) {
      llvm::Value* v = b_.CreateLoad(b_.getInt8Ty(), at(kSlots, i, slots));
      b_.CreateStore(v, at(kOut, i, shape_.out_cells));
    });
  if (p_->last != ChainStage::Lane) return;
  llvm::GlobalVariable* table = drain_table(*m_, *p_);
  loop(p_->drain.size(), [&](llvm::Value* o) {
    llvm::Value* d =
        b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), table, o));
    // Output padding drains nothing.
    when(b_.CreateICmpNE(d, b_.getInt32(kDrainsNothing)), [&] {
      llvm::Value* v =
          b_.CreateLoad(b_.getInt8Ty(), at(kSlots, b_.CreateZExt(d, b_.getInt64Ty()), slots));
      b_.CreateStore(v, at(kOut, o, shape_.out_cells));
    });
  });
}

// A data movement: each output cell takes its source cell, poisoned when the source is Top.
void PoisonEmitter::emit_move() {
  loop(shape_.out_cells, [&](llvm::Value* o) {
    llvm::Value* top = is(state(kIn, kInSpatial, o, shape_.in_cells), CellState::Top);
    b_.CreateStore(b_.CreateZExt(top, b_.getInt8Ty()), at(kOut, o, shape_.out_cells));
  });
}

std::unique_ptr<llvm::Module> PoisonEmitter::run() {
  auto module = std::make_unique<llvm::Module>(
      rp_.kernel_name.empty() ? "poison" : rp_.kernel_name + ".poison", ctx_);
  m_ = module.get();
  // Runs once per checked or verified run, beside the kernel: not worth the optimising back end.
  set_codegen_tier(*m_, CodegenTier::Cold);
  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i8 = b_.getInt8Ty();
  fn_ = begin_slice_function(b_, *m_, kPoisonSymbol, "PoisonArgs", {ptr, ptr, ptr, ptr, i8, i8});
  if (shape_.out_cells > 0)
    b_.CreateMemSet(fn_.fields[kOut], b_.getInt8(0), i64(shape_.out_cells), llvm::MaybeAlign(1));
  if (rp_.is_move()) {
    emit_move();
  } else {
    if (shape_.slot_cells > 0)
      b_.CreateMemSet(fn_.fields[kSlots], b_.getInt8(0), i64(shape_.slot_cells),
                      llvm::MaybeAlign(1));
    if (p_->walks_cycles() && p_->columns * p_->group > 0)
      emit_cycle_nest(b_, fn_.f, p_->cycle_nest,
                      [&](llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t) {
                        emit_cycle(flit, trf, slot, t);
                      });
    emit_tail();
  }
  b_.CreateRet(b_.getInt32(kRunOk));
  return module;
}

} // namespace

std::unique_ptr<llvm::Module> emit_poison_module(const ir::seq::RunProgram& program,
                                                 llvm::LLVMContext& context) {
  return PoisonEmitter(program, context).run();
}

} // namespace tujit::codegen
