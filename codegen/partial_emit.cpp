// LLVM IR of a part of a contraction chain (partial_emit.h). The generated code is the reference
// interpreter's slice loop (runtime::interpret, docs/design.md §2.4) with every constant of the
// program folded in, one lane at a time:
//   cells      a product widen(stream) × widen(TRF) (§5.4), or the input tensor's cell, with its
//              presence as an i1; a cell dead at compile time (cell_live) is statically ABSENT;
//   trees      the adjacent-pair tree per column, level by level (§9.2): present pairs add,
//              ABSENT ⊕ v = v by select on presence;
//   Time       acc[l][slot][c] ⊕= r[c] when r[c] is present, in flit order (§7);
//   outputs    r[c] (absent: 0) per (lane, cycle) for a part ending at contract_outer /
//              contract_packet, the accumulator for one ending at contract_time, the Lane
//              Folder's drain (§8) for one ending at contract_lane.
// Arithmetic is exactly acc_mul / acc_add: fmul / fadd without fast-math flags (IEEE binary32,
// round to nearest even), the NaN result canonicalised to 0x7FC00000 and, with ftz_results, a
// subnormal result flushed to the zero of its sign after EVERY operation (§9.3); i32 mul / add
// wrap. Nothing is reassociated or fused, so no proof of equivalence is needed beyond the
// interpreter's own order.
#include "codegen/partial_emit.h"

#include "codegen/contraction_emit.h"
#include "codegen/counted_loop.h"
#include "codegen/native_compiler.h"
#include "codegen/slice_function.h"
#include "runtime/scalar/float_bits.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <vector>

namespace tujit::codegen {
namespace {

using ir::seq::ChainStage;
using Program = ir::seq::ContractionProgram;

using runtime::kF32CanonicalNaN;
using runtime::kF32ExponentMask;
using runtime::kF32SignMask;

enum Field : unsigned { kIn, kInPresent, kTrf, kTrfPresent, kAcc, kOut, kFieldCount };

/// A value in flight: accumulator bits and presence; `value == nullptr` = statically ABSENT.
struct Cell {
  llvm::Value* value = nullptr;
  llvm::Value* present = nullptr; // i1
};

class PartialEmitter {
public:
  PartialEmitter(const ir::seq::RunProgram& rp, bool checked, llvm::LLVMContext& ctx)
      : p_(rp.contraction().chain), checked_(checked),
        shape_(partial_shape(rp.contraction().chain)), ctx_(ctx), b_(ctx) {}

  std::unique_ptr<llvm::Module> run();

private:
  llvm::Value* i64(std::uint64_t v) { return b_.getInt64(v); }
  llvm::Value* add_scaled(llvm::Value* base, llvm::Value* digit, std::uint64_t stride) {
    return codegen::add_scaled(b_, base, digit, stride);
  }
  llvm::Value* at(Field f, llvm::Type* ty, llvm::Value* index, std::uint64_t limit);
  llvm::Value* load32(Field f, llvm::Value* index, std::uint64_t limit) {
    return b_.CreateLoad(b_.getInt32Ty(), at(f, b_.getInt32Ty(), index, limit));
  }
  llvm::Value* present8(Field f, llvm::Value* index, std::uint64_t limit);
  void store32(Field f, llvm::Value* index, std::uint64_t limit, llvm::Value* v) {
    b_.CreateStore(v, at(f, b_.getInt32Ty(), index, limit));
  }
  llvm::GlobalVariable* table(const std::vector<std::uint8_t>& v, const char* name);
  void emit_loop(std::uint64_t n, const std::function<void(llvm::Value*)>& body) {
    emit_counted_loop(b_, fn_.f, n, body);
  }
  void when(llvm::Value* cond, const std::function<void()>& body) {
    emit_when(b_, fn_.f, cond, body);
  }
  llvm::Value* arith(bool mul, llvm::Value* a, llvm::Value* b);
  Cell combine(const Cell& a, const Cell& b);
  Cell cell(llvm::Value* flit, llvm::Value* trf, llvm::Value* l, llvm::Value* row, std::uint64_t x);
  void emit_cycle(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t);
  void emit_lane(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t,
                 llvm::Value* l);
  void emit_tail();

  const Program& p_;
  bool checked_;
  PartialShape shape_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  llvm::Module* m_ = nullptr;
  SliceFunction fn_;
  llvm::GlobalVariable* cycle_live_ = nullptr;
  llvm::GlobalVariable* lane_live_ = nullptr;
};

// &buffer[index]; in checked mode the function returns kRunBoundsViolation unless index < limit.
llvm::Value* PartialEmitter::at(Field f, llvm::Type* ty, llvm::Value* index, std::uint64_t limit) {
  return guarded_element(b_, fn_, checked_, ty, fn_.fields[f], index, limit);
}

llvm::Value* PartialEmitter::present8(Field f, llvm::Value* index, std::uint64_t limit) {
  llvm::Value* byte = b_.CreateLoad(b_.getInt8Ty(), at(f, b_.getInt8Ty(), index, limit));
  return b_.CreateICmpNE(byte, b_.getInt8(0));
}

llvm::GlobalVariable* PartialEmitter::table(const std::vector<std::uint8_t>& v, const char* name) {
  auto* init = llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<std::uint8_t>(v));
  return new llvm::GlobalVariable(*m_, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                  init, name);
}

// One × or ⊕ of the accumulator type on bits, exactly acc_mul / acc_add (§9.2, §9.3).
llvm::Value* PartialEmitter::arith(bool mul, llvm::Value* a, llvm::Value* b) {
  if (p_.accumulator == ir::ScalarType::I32) return mul ? b_.CreateMul(a, b) : b_.CreateAdd(a, b);
  llvm::Type* f32 = b_.getFloatTy();
  llvm::Value* fa = b_.CreateBitCast(a, f32);
  llvm::Value* fb = b_.CreateBitCast(b, f32);
  llvm::Value* r = mul ? b_.CreateFMul(fa, fb) : b_.CreateFAdd(fa, fb);
  llvm::Value* nan = b_.CreateFCmpUNO(r, r);
  llvm::Value* bits =
      b_.CreateSelect(nan, b_.getInt32(kF32CanonicalNaN), b_.CreateBitCast(r, b_.getInt32Ty()));
  if (!p_.ftz_results) return bits;
  llvm::Value* tiny =
      b_.CreateICmpEQ(b_.CreateAnd(bits, b_.getInt32(kF32ExponentMask)), b_.getInt32(0));
  return b_.CreateSelect(tiny, b_.CreateAnd(bits, b_.getInt32(kF32SignMask)), bits);
}

// a ⊕ b with ABSENT ⊕ v = v (§9.2, §9.4).
Cell PartialEmitter::combine(const Cell& a, const Cell& b) {
  if (a.value == nullptr) return b;
  if (b.value == nullptr) return a;
  llvm::Value* sum = arith(false, a.value, b.value);
  llvm::Value* both = b_.CreateAnd(a.present, b.present);
  Cell r;
  r.value = b_.CreateSelect(both, sum, b_.CreateSelect(a.present, a.value, b.value));
  r.present = b_.CreateOr(a.present, b.present);
  return r;
}

// Cell x of lane l's packet in the cycle at (flit, trf) / input row `row`.
Cell PartialEmitter::cell(llvm::Value* flit, llvm::Value* trf, llvm::Value* l, llvm::Value* row,
                          std::uint64_t x) {
  Cell c;
  if (!p_.is_cell_live(x)) return c; // statically ABSENT (§5.4 live_OP)
  if (!p_.forms_products()) {
    llvm::Value* i = add_scaled(b_.CreateMul(row, i64(p_.op)), i64(1), x);
    c.value = load32(kIn, i, shape_.in_cells);
    c.present = present8(kInPresent, i, shape_.in_cells);
    return c;
  }
  // Stream Adapter: the packet's cells are contiguous from its first flit; TRF Sequencer: element
  // trf + x mod ReadSize of lane l (§5.1, §5.2).
  llvm::Value* si = add_scaled(b_.CreateMul(flit, i64(p_.packet)), i64(1), x);
  llvm::Value* wi = add_scaled(add_scaled(trf, l, p_.element), i64(1), x % p_.read_size);
  llvm::Value* s = load32(kIn, si, shape_.in_cells);
  llvm::Value* w = load32(kTrf, wi, shape_.trf_cells);
  c.present = b_.CreateAnd(present8(kInPresent, si, shape_.in_cells),
                           present8(kTrfPresent, wi, shape_.trf_cells));
  c.value = arith(true, s, w);
  return c;
}

// One live lane of one packet cycle: cells, trees, accumulation or the output row.
void PartialEmitter::emit_lane(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot,
                               llvm::Value* t, llvm::Value* l) {
  llvm::Value* row = add_scaled(t, l, p_.cycles);
  for (std::uint64_t c = 0; c < p_.columns; ++c) {
    std::vector<Cell> level;
    for (std::uint64_t k = 0; k < p_.group; ++k)
      level.push_back(cell(flit, trf, l, row, c * p_.group + k));
    while (level.size() > 1) { // adjacent pairs, level by level (§9.2)
      std::vector<Cell> next;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2)
        next.push_back(combine(level[i], level[i + 1]));
      level = std::move(next);
    }
    const Cell r = level.front();
    if (p_.cycle_output()) {
      llvm::Value* v =
          r.value ? b_.CreateSelect(r.present, r.value, b_.getInt32(0)) : b_.getInt32(0);
      store32(kOut, add_scaled(b_.CreateMul(row, i64(p_.output_inner())), i64(1), c),
              shape_.out_cells, v);
      continue;
    }
    if (r.value == nullptr) continue; // the whole column is statically absent
    llvm::Value* ai = add_scaled(b_.CreateMul(add_scaled(slot, l, p_.t2), i64(p_.p2)), i64(1), c);
    llvm::Value* acc = load32(kAcc, ai, shape_.acc_cells);
    store32(kAcc, ai, shape_.acc_cells,
            b_.CreateSelect(r.present, arith(false, acc, r.value), acc));
  }
}

void PartialEmitter::emit_cycle(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot,
                                llvm::Value* t) {
  const auto lanes = [&] {
    emit_loop(p_.lanes, [&](llvm::Value* l) {
      if (lane_live_ == nullptr) return emit_lane(flit, trf, slot, t, l);
      llvm::Value* live =
          b_.CreateLoad(b_.getInt8Ty(), b_.CreateInBoundsGEP(b_.getInt8Ty(), lane_live_, l));
      when(b_.CreateICmpNE(live, b_.getInt8(0)), [&] { emit_lane(flit, trf, slot, t, l); });
    });
  };
  if (cycle_live_ == nullptr) return lanes();
  // Pre-reduce OutTime padding (§9.4): the cycle forms nothing.
  llvm::Value* live =
      b_.CreateLoad(b_.getInt8Ty(), b_.CreateInBoundsGEP(b_.getInt8Ty(), cycle_live_, t));
  when(b_.CreateICmpNE(live, b_.getInt8(0)), lanes);
}

// After the cycles: a part from contract_lane loads its accumulator; one ending at contract_time
// writes it; one ending at contract_lane drains it in output order (§8).
void PartialEmitter::emit_tail() {
  const std::uint64_t acc_cells = shape_.acc_cells;
  if (!p_.walks_cycles())
    emit_loop(acc_cells, [&](llvm::Value* i) {
      llvm::Value* v = load32(kIn, i, shape_.in_cells);
      store32(kAcc, i, acc_cells,
              b_.CreateSelect(present8(kInPresent, i, shape_.in_cells), v, b_.getInt32(0)));
    });
  if (p_.last == ChainStage::Time)
    emit_loop(acc_cells, [&](llvm::Value* i) {
      store32(kOut, i, shape_.out_cells, load32(kAcc, i, acc_cells));
    });
  if (p_.last != ChainStage::Lane) return;
  llvm::GlobalVariable* table = drain_table(*m_, p_);
  emit_loop(p_.drain.size(), [&](llvm::Value* o) {
    llvm::Value* d =
        b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), table, o));
    llvm::Value* pad = b_.CreateICmpEQ(d, b_.getInt32(kDrainsNothing));
    llvm::Value* idx = b_.CreateZExt(b_.CreateSelect(pad, b_.getInt32(0), d), b_.getInt64Ty());
    llvm::Value* v = load32(kAcc, idx, acc_cells);
    store32(kOut, o, shape_.out_cells, b_.CreateSelect(pad, b_.getInt32(0), v));
  });
}

std::unique_ptr<llvm::Module> PartialEmitter::run() {
  auto module =
      std::make_unique<llvm::Module>(p_.kernel_name.empty() ? "partial" : p_.kernel_name, ctx_);
  m_ = module.get();
  // A part of a chain runs one lane at a time on small data (a book example, a test): scalar code
  // for which the optimising back end costs more than it saves.
  set_codegen_tier(*m_, CodegenTier::Cold);
  llvm::Type* ptr = b_.getPtrTy();
  fn_ = begin_slice_function(b_, *m_, kContractionSymbol, "PartialArgs",
                             std::vector<llvm::Type*>(kFieldCount, ptr));
  if (!p_.cycle_live.empty()) cycle_live_ = table(p_.cycle_live, "cycle_live");
  bool all_lanes = true;
  for (auto x : p_.lane_live) all_lanes = all_lanes && x != 0;
  if (!all_lanes) lane_live_ = table(p_.lane_live, "lane_live");
  // Time Reducer slots start at +0 / 0 (§9.2 step 2): both are the bits 0.
  if (shape_.acc_cells > 0)
    b_.CreateMemSet(fn_.fields[kAcc], b_.getInt8(0), i64(shape_.acc_cells * 4),
                    llvm::MaybeAlign(4));
  if (p_.walks_cycles())
    emit_cycle_nest(b_, fn_.f, p_.cycle_nest,
                    [&](llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t) {
                      emit_cycle(flit, trf, slot, t);
                    });
  emit_tail();
  b_.CreateRet(b_.getInt32(kRunOk));
  return module;
}

} // namespace

std::unique_ptr<llvm::Module> emit_partial_module(const ir::seq::RunProgram& program, bool checked,
                                                  llvm::LLVMContext& context) {
  return PartialEmitter(program, checked, context).run();
}

} // namespace tujit::codegen
