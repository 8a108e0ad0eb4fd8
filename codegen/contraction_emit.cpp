// LLVM IR of one contraction run program (contraction_emit.h). The generated code is the
// interpreter's loop (runtime::interpret, docs/design.md §2.4) with the lanes turned into one
// vector of kLaneVector accumulator values (the hardware's Lane Broadcast: the stream cell is
// splat, the TRF element of every lane is one staged vector, docs/contraction.md §5.4), every loop
// bound, stride and packet-cell offset a constant, and the packet fully unrolled: products, the
// adjacent-pair tree (§9.2) level by level, then one accumulator add per column in flit order (§7).
//
// Stream elements are read from the logical tensor and widened in the load, exactly as
// read_operand + widen_to_accumulator do: a one-byte type (i4, i5, i8, u8, f8, and any Fetch
// Adapter cast or zero point on them) through a 256-entry table of its widened values; bf16 by
// widen_bf16 in select form; any other source from a widened copy the host makes once.
//
// Arithmetic is exactly the interpreter's (acc_mul / acc_add): plain fmul / fadd without any
// fast-math flag (IEEE binary32, round to nearest even, no reassociation, no contraction) or
// plain i32 mul / add without nsw/nuw (two's-complement wrap, §9.1). The liberties below are each
// proven bit-identical:
//
// ABSENT products (§9.4). A product that is absent because of liveness known at compile time
// (cell_live, cycle_live, lanes) is simply not emitted, and the tree applies ABSENT ⊕ v = v
// statically. A product absent because an operand cell is padding (presence masks, only when the
// program is not stream_dense / trf_dense) is replaced by the identity: -0.0 for f32 (x + -0 = x
// for every x: finite, ±0, ±inf and NaN; -0 + -0 = -0 keeps an all-absent subtree an identity)
// and 0 for i32. An all-absent tree result then adds -0 / 0 to the accumulator, which leaves it
// unchanged, exactly like skipping the add.
//
// NaN canonicalisation (§9.3). The interpreter canonicalises after every f32 operation; the
// generated code does it once, when a value is drained. Equivalent because (1) whether an
// fmul / fadd / fma result is NaN depends only on whether an operand is NaN and on the non-NaN
// operand values (0 × inf, inf − inf), never on a NaN's payload, so by induction over the
// dataflow both schemes produce NaN at the same operations and identical bits everywhere else;
// (2) a NaN stays NaN through every later add / mul / fma (selects choose by presence, never by
// value); (3) every computed value reaches only the accumulator, and the accumulator reaches the
// output only through the drain, which maps every NaN to 0x7FC00000.
//
// FMA (first tree level only, f8 × f8 only, no presence masks). fma(a0, b0, a1·b1) rounds
// a0·b0 + a1·b1 once; it equals the interpreter's (a0·b0) + (a1·b1) when a0·b0 is exact. Widened
// f8 values have ≤ 4 significant bits and magnitudes in [2^-16, 57344] (e5m2; e4m3 [2^-9, 448]),
// so a product has ≤ 8 significant bits and lies in [2^-32, 2^32): always a normal f32, exact.
// Infinite and NaN operands give the same inf / NaN (0 × inf is invalid in both). bf16 products
// may underflow below 2^-126 (e.g. 2^-100 · 2^-100) or overflow, so bf16 never uses FMA. With
// ftz_results the first product is flushed first in the interpreter, a no-op for f8 products
// (always normal), so the fused form stays identical.
//
// PAIRED STEPS (codegen/paired_nest.h). Two steps of a cycle loop whose TRF stride is 0 run their
// cycles interleaved, so that each TRF vector is loaded once for both; the steps' slots are
// disjoint, so every slot still adds its cycles' results in flit order (§7, §9.2) and each product
// and sum is the same operation on the same operands.
//
// Aliasing. The accumulator scratch, the output and the read-only operands and tables are distinct
// buffers (contraction_run.cpp allocates them apart), which the code states with scoped noalias
// metadata so that LICM keeps a reduced slot's accumulator in a register across the Time loop and
// hoists loop-invariant TRF vectors; it changes no arithmetic.
//
// ftz_results (§9.3) flushes every f32 product and sum, as acc_mul / acc_add do; flushing
// commutes with both liberties above (a flushed value plus -0 is itself; NaN is never flushed).
#include "codegen/contraction_emitter.h"

#include "codegen/counted_loop.h"
#include "codegen/drain_blocks.h"
#include "codegen/narrow_emit.h"
#include "codegen/pair_madd.h"
#include "codegen/paired_nest.h"
#include "codegen/quad_madd.h"
#include "codegen/stream_load.h"
#include "codegen/trf_halves.h"
#include "codegen/vector_chain_emit.h"
#include "codegen/vrf_operand_emit.h"
#include "runtime/exec/operand_staging.h"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <functional>
#include <map>
#include <vector>

namespace tujit::codegen {
namespace contraction_detail {

// In checked mode, leaves the function with kRunBoundsViolation unless `span` consecutive
// elements from `index` lie below `limit`; returns `index`.
llvm::Value* Emitter::guard(llvm::Value* index, std::uint64_t span, llvm::Value* limit) {
  if (!cfg_.checked) return index;
  llvm::Value* fits = b_.CreateICmpUGE(limit, i64(span));
  llvm::Value* last = b_.CreateSub(limit, i64(span));
  llvm::Value* ok = b_.CreateAnd(fits, b_.CreateICmpULE(index, last));
  llvm::BasicBlock* cont = llvm::BasicBlock::Create(ctx_, "inbounds", f_);
  b_.CreateCondBr(ok, cont, violation_);
  b_.SetInsertPoint(cont);
  return index;
}

// &base[index] for an access of `span` consecutive elements of type `ty` in a buffer of `limit`
// elements, guarded in checked mode: nothing is touched out of range.
llvm::Value* Emitter::element(llvm::Type* ty, llvm::Value* base, llvm::Value* index,
                              std::uint64_t span, llvm::Value* limit) {
  return b_.CreateInBoundsGEP(ty, base, guard(index, span, limit));
}

llvm::GlobalVariable* Emitter::table_u8(const std::vector<std::uint8_t>& v, const char* name) {
  auto* init = llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<std::uint8_t>(v));
  return new llvm::GlobalVariable(*m_, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                  init, name);
}

// §9.3 ftz_results: a subnormal f32 result becomes the zero of its sign, after every operation
// exactly where acc_add / acc_mul flush. Done on the bits (the host's MXCSR FTZ mode detects
// tininess differently and would not be bit-exact).
llvm::Value* Emitter::flushed(llvm::Value* v) {
  if (!float_ || !p_.ftz_results) return v;
  auto* ivec = llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(v->getType()));
  llvm::Value* bits = b_.CreateBitCast(v, ivec);
  llvm::Value* exponent = b_.CreateAnd(bits, llvm::ConstantInt::get(ivec, kF32Inf));
  llvm::Value* tiny = b_.CreateICmpEQ(exponent, llvm::ConstantInt::get(ivec, 0));
  llvm::Value* zero = b_.CreateAnd(bits, llvm::ConstantInt::get(ivec, kF32NegZero));
  return b_.CreateBitCast(b_.CreateSelect(tiny, zero, bits), v->getType());
}

llvm::Value* Emitter::add(llvm::Value* a, llvm::Value* b) {
  return float_ ? flushed(b_.CreateFAdd(a, b)) : b_.CreateAdd(a, b);
}

llvm::Value* Emitter::product_value(Product& x) {
  if (x.value != nullptr) return x.value;
  llvm::Value* v = float_ ? flushed(b_.CreateFMul(x.s, x.w)) : b_.CreateMul(x.s, x.w);
  if (x.mask != nullptr) {
    llvm::Constant* identity =
        float_ ? llvm::ConstantFP::get(v->getType(), llvm::APFloat(llvm::APFloat::IEEEsingle(),
                                                                   llvm::APInt(32, kF32NegZero)))
               : llvm::ConstantInt::get(v->getType(), 0);
    v = b_.CreateSelect(x.mask, v, identity);
  }
  x.value = v;
  return v;
}

// One packet cycle: products of the live cells of the live columns, the tree per column, the
// accumulator add. The TRF vectors are read once per distinct element (x mod ReadSize, §5.2), the
// stream's flit offsets once per flit of the packet.
void Emitter::emit_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot) {
  const std::uint64_t cells = p_.columns * p_.group;
  const std::uint64_t trf_limit = sh_.trf_cells;
  llvm::Value* tbase = b_.CreateMul(trf, i64(kLaneVector), "tbase", true, true);

  std::vector<llvm::Value*> w(p_.read_size, nullptr), wmask(p_.read_size, nullptr);
  const auto trf_vector = [&](std::uint64_t k) {
    if (w[k] == nullptr) {
      llvm::Value* idx = b_.CreateAdd(tbase, i64(k * kLaneVector), "", true, true);
      w[k] = b_.CreateAlignedLoad(vec_, element(arg_[kTrf], idx, kLaneVector, trf_limit),
                                  llvm::Align(4));
      if (sh_.trf_masks) {
        llvm::Value* m = b_.CreateAlignedLoad(
            llvm::FixedVectorType::get(b_.getInt32Ty(), kLaneVector),
            element(arg_[kTrfPresent], idx, kLaneVector, trf_limit), llvm::Align(4));
        wmask[k] = b_.CreateICmpNE(m, llvm::ConstantInt::get(m->getType(), 0));
      }
    }
  };

  std::vector<Product> x(cells);
  std::vector<bool> present(cells, false);
  StreamLoad::Packet packet = load_->packet(b_, flit, cells);
  for (std::uint64_t i = 0; i < cells; ++i) {
    if (!p_.is_cell_live(i)) continue; // statically ABSENT (§5.4 live_OP)
    StreamLoad::Cell c = load_->cell(b_, packet, i);
    if (c.value == nullptr) continue; // a padding cell of every flit: statically ABSENT
    present[i] = true;
    x[i].s = load_->splat(b_, c, scalar_, static_cast<unsigned>(kLaneVector), cfg_.host_dot.avx2);
    const std::uint64_t k = i % p_.read_size;
    trf_vector(k);
    x[i].w = w[k];
    llvm::Value* mask = wmask[k];
    if (c.live != nullptr) {
      llvm::Value* sp = b_.CreateVectorSplat(static_cast<unsigned>(kLaneVector), c.live);
      mask = mask == nullptr ? sp : b_.CreateAnd(mask, sp);
    }
    x[i].mask = mask;
  }

  llvm::Value* slot_base = b_.CreateMul(slot, i64(p_.p2 * kLaneVector), "slotbase", true, true);
  for (std::uint64_t c = 0; c < p_.columns; ++c) {
    // Tree over the group's cells (§9.2): level by level, adjacent pairs, ABSENT ⊕ v = v.
    std::vector<llvm::Value*> level(p_.group, nullptr);
    const std::uint64_t first = c * p_.group;
    if (p_.group >= 2) {
      for (std::uint64_t i = 0; i < p_.group / 2; ++i) {
        Product& a = x[first + 2 * i];
        Product& bb = x[first + 2 * i + 1];
        const bool pa = present[first + 2 * i], pb = present[first + 2 * i + 1];
        if (pa && pb && fma_) {
          llvm::Function* fma = llvm::Intrinsic::getDeclaration(m_, llvm::Intrinsic::fma, {vec_});
          level[i] = flushed(b_.CreateCall(fma, {a.s, a.w, product_value(bb)}));
        } else if (pa && pb) {
          level[i] = add(product_value(a), product_value(bb));
        } else if (pa) {
          level[i] = product_value(a);
        } else if (pb) {
          level[i] = product_value(bb);
        }
      }
      level.resize(p_.group / 2);
    } else {
      if (present[first]) level[0] = product_value(x[first]);
    }
    reduce_column(std::move(level), slot_base, c);
  }
}

// The rest of a column's tree (§9.2), from a level of values (null: ABSENT), level by level over
// adjacent pairs, ABSENT ⊕ v = v; a 16-lane result (HALF PACKETS) is its two halves' sum, the
// tree's last level. Then the accumulator add, unless the column is statically absent.
void Emitter::reduce_column(std::vector<llvm::Value*> level, llvm::Value* slot_base,
                            std::uint64_t c) {
  while (level.size() > 1) {
    std::vector<llvm::Value*> next(level.size() / 2, nullptr);
    for (std::size_t i = 0; i < next.size(); ++i) {
      llvm::Value* a = level[2 * i];
      llvm::Value* bb = level[2 * i + 1];
      next[i] = a && bb ? add(a, bb) : (a ? a : bb);
    }
    level = std::move(next);
  }
  llvm::Value* r = level[0];
  if (r == nullptr) return; // statically absent
  const auto lanes = static_cast<unsigned>(kLaneVector);
  if (llvm::cast<llvm::FixedVectorType>(r->getType())->getNumElements() == 2 * lanes) {
    std::vector<int> lo, hi;
    for (unsigned l = 0; l < lanes; ++l) {
      lo.push_back(static_cast<int>(l));
      hi.push_back(static_cast<int>(lanes + l));
    }
    r = add(b_.CreateShuffleVector(r, lo), b_.CreateShuffleVector(r, hi));
  }
  accumulate(slot_base, c, r);
}

// Time Reducer (§7): acc[slot][c] = acc[slot][c] ⊕ r, in flit order.
void Emitter::accumulate(llvm::Value* slot_base, std::uint64_t c, llvm::Value* r) {
  llvm::Value* idx = b_.CreateAdd(slot_base, i64(c * kLaneVector), "", true, true);
  llvm::Value* ptr = element(arg_[kScratch], idx, kLaneVector, sh_.acc_cells);
  llvm::Value* acc = b_.CreateAlignedLoad(vec_, ptr, llvm::Align(4));
  b_.CreateAlignedStore(add(acc, r), ptr, llvm::Align(4));
}

void Emitter::emit_any_cycle_body(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot) {
  if (sh_.trf_quads || sh_.trf_octets)
    emit_quad_cycle_body(flit, trf, slot);
  else if (sh_.trf_pairs)
    emit_pair_cycle_body(flit, trf, slot);
  else if (halves_)
    emit_half_cycle_body(flit, trf, slot);
  else
    emit_cycle_body(flit, trf, slot);
}

void Emitter::emit_cycle(llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t) {
  trf_loads_.clear();
  const auto body = [&] { emit_any_cycle_body(flit, trf, slot); };
  if (cycle_live_ == nullptr) {
    body();
    return;
  }
  // Pre-reduce OutTime padding (§9.4): the cycle forms no product.
  llvm::Value* ptr = b_.CreateInBoundsGEP(b_.getInt8Ty(), cycle_live_, t);
  llvm::Value* live = b_.CreateICmpNE(b_.CreateLoad(b_.getInt8Ty(), ptr), b_.getInt8(0));
  llvm::BasicBlock* live_body = llvm::BasicBlock::Create(ctx_, "cycle.live", f_);
  llvm::BasicBlock* skip = llvm::BasicBlock::Create(ctx_, "cycle.next", f_);
  b_.CreateCondBr(live, live_body, skip);
  b_.SetInsertPoint(live_body);
  body();
  b_.CreateBr(skip);
  b_.SetInsertPoint(skip);
}

// Lane Folder (§8): out[out_offset[o]] = acc[drain[o]] (NaN canonical) or 0 for output padding,
// for every output cell the slice writes, through the Vector Engine pass that reads the chain's
// output when the kernel runs one (docs/vector-engine.md §4.1).
void Emitter::emit_drain() {
  if (emit_drain_blocks()) return;
  const std::uint64_t n = sh_.out_cells;
  emit_loop(n, [&](llvm::Value* o) {
    llvm::Value* off =
        b_.CreateLoad(b_.getInt64Ty(), b_.CreateInBoundsGEP(b_.getInt64Ty(), arg_[kOutOffset], o));
    llvm::BasicBlock* write = llvm::BasicBlock::Create(ctx_, "drain.write", f_);
    llvm::BasicBlock* next = llvm::BasicBlock::Create(ctx_, "drain.next", f_);
    b_.CreateCondBr(b_.CreateICmpNE(off, i64(kNoOutput)), write, next);
    b_.SetInsertPoint(write);
    llvm::Value* d =
        b_.CreateLoad(b_.getInt32Ty(), b_.CreateInBoundsGEP(b_.getInt32Ty(), drain_, o));
    llvm::Value* pad = b_.CreateICmpSLT(d, b_.getInt32(0));
    llvm::Value* idx = b_.CreateZExt(b_.CreateSelect(pad, b_.getInt32(0), d), b_.getInt64Ty());
    llvm::Value* v = b_.CreateAlignedLoad(
        b_.getInt32Ty(), element(arg_[kScratch], idx, 1, sh_.acc_cells), llvm::Align(4));
    if (float_) {
      llvm::Value* nan =
          b_.CreateICmpUGT(b_.CreateAnd(v, b_.getInt32(kF32AbsMask)), b_.getInt32(kF32Inf));
      v = b_.CreateSelect(nan, b_.getInt32(kF32CanonicalNaNBits), v);
    }
    v = b_.CreateSelect(pad, b_.getInt32(0), v);
    if (rp_.vector) { // the pass reading the chain, its `&vrf` operands at the same cell
      const auto vrf =
          emit_vrf_operands(b_, vrf_operand_args_type(ctx_), arg_[kVrf], rp_.vrf_operands.size(), o,
                            [&](llvm::Value* i, llvm::Value* limit) { guard(i, 1, limit); });
      v = emit_vector_pass(b_, *m_, *rp_.vector, v, vrf);
    }
    if (rp_.output_cast) // the output path's cast (docs/output-path.md §1, §2.2)
      v = emit_output_cast(b_, rp_.output_cast->to, rp_.output_cast->relu, v);
    // The output holds elements of its own width (an output cast narrows them).
    llvm::Type* out_ty = b_.getIntNTy(8 * runtime::element_bytes(rp_.output.dtype));
    if (out_ty != b_.getInt32Ty()) v = b_.CreateTrunc(v, out_ty);
    b_.CreateAlignedStore(v, element(out_ty, arg_[kOut], off, 1, arg_[kOutLimit]), llvm::Align(1));
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  });
}

// The drain as 8-lane blocks (drain_blocks.h) when every output cell is in one and the values
// leave unchanged (no Vector Engine pass, no output cast): the output offsets are the program's
// (runtime::exec::program_tables), the same table the run passes. False: nothing emitted.
bool Emitter::emit_drain_blocks() {
  constexpr std::size_t kMaxRuns = 16;
  if (rp_.vector || rp_.output_cast || runtime::element_bytes(rp_.output.dtype) != 4) return false;
  const std::vector<std::uint64_t> out = runtime::exec::program_tables(rp_, kNoOutput).out_offset;
  const std::vector<DrainRun> runs = drain_runs(drain_cells_, ~0u, out, kNoOutput, kMaxRuns);
  if (runs.empty()) return false;
  auto* v8 = llvm::FixedVectorType::get(b_.getInt32Ty(), kDrainBlock);
  const auto k = [&](std::uint32_t c) { return llvm::ConstantInt::get(v8, c); };
  for (const DrainRun& r : runs) {
    emit_loop(r.blocks, [&](llvm::Value* i) {
      llvm::Value* a = add_scaled(i64(r.acc), i, r.acc_step);
      llvm::Value* v = b_.CreateAlignedLoad(
          v8, element(arg_[kScratch], a, kDrainBlock, sh_.acc_cells), llvm::Align(4));
      if (float_) // NaN → 0x7FC00000 (§9.3)
        v = b_.CreateSelect(b_.CreateICmpUGT(b_.CreateAnd(v, k(kF32AbsMask)), k(kF32Inf)),
                            k(kF32CanonicalNaNBits), v);
      llvm::Value* e = add_scaled(i64(r.out), i, r.out_step);
      b_.CreateAlignedStore(
          v, element(b_.getInt32Ty(), arg_[kOut], e, kDrainBlock, arg_[kOutLimit]), llvm::Align(1));
    });
  }
  return true;
}

// Every memory access gets the scope of its buffer: the scratch, the output, or (everything else)
// the read-only operands and tables, which alias neither.
void Emitter::annotate_aliasing() {
  llvm::MDBuilder mdb(ctx_);
  llvm::MDNode* domain = mdb.createAnonymousAliasScopeDomain("contraction");
  llvm::MDNode* scratch = mdb.createAnonymousAliasScope(domain, "scratch");
  llvm::MDNode* out = mdb.createAnonymousAliasScope(domain, "out");
  llvm::MDNode* scratch_only = llvm::MDNode::get(ctx_, {scratch});
  llvm::MDNode* out_only = llvm::MDNode::get(ctx_, {out});
  llvm::MDNode* both = llvm::MDNode::get(ctx_, {scratch, out});
  for (llvm::Instruction& inst : llvm::instructions(*f_)) {
    llvm::Value* ptr = nullptr;
    if (auto* l = llvm::dyn_cast<llvm::LoadInst>(&inst)) ptr = l->getPointerOperand();
    if (auto* st = llvm::dyn_cast<llvm::StoreInst>(&inst)) ptr = st->getPointerOperand();
    if (auto* ms = llvm::dyn_cast<llvm::MemSetInst>(&inst)) ptr = ms->getDest();
    if (ptr == nullptr) continue;
    const llvm::Value* base = llvm::getUnderlyingObject(ptr, 0);
    if (base == arg_[kScratch]) {
      inst.setMetadata(llvm::LLVMContext::MD_alias_scope, scratch_only);
      inst.setMetadata(llvm::LLVMContext::MD_noalias, out_only);
    } else if (base == arg_[kOut]) {
      inst.setMetadata(llvm::LLVMContext::MD_alias_scope, out_only);
      inst.setMetadata(llvm::LLVMContext::MD_noalias, scratch_only);
    } else {
      inst.setMetadata(llvm::LLVMContext::MD_noalias, both);
    }
  }
}

void Emitter::emit_slice() {
  // Time Reducer slots start at +0 / 0 (§9.2 step 2): both are the bits 0.
  b_.CreateMemSet(arg_[kScratch], b_.getInt8(0), i64(sh_.acc_cells * 4), llvm::MaybeAlign(4));
  if (halves_)
    trf_halves_ = emit_trf_halves(b_, f_, arg_[kTrf], sh_.trf_cells / kLaneVector, p_.group / 2);
  // PAIRED STEPS where the TRF loads they share are half of a cycle's loads (byte runs; the
  // HALF PACKETS' permutes, not their loads, bound them, and pairs were slower there).
  const bool share = sh_.trf_quads || sh_.trf_octets;
  const std::size_t level =
      share && cycle_live_ == nullptr ? paired_level(p_.cycle_nest) : p_.cycle_nest.size();
  if (level < p_.cycle_nest.size()) {
    emit_paired_nest(b_, f_, p_.cycle_nest, level,
                     [&](llvm::Value* flit0, llvm::Value* flit1, llvm::Value* trf,
                         llvm::Value* slot0, llvm::Value* slot1) {
                       trf_loads_.clear();
                       emit_any_cycle_body(flit0, trf, slot0);
                       emit_any_cycle_body(flit1, trf, slot1);
                     });
  } else {
    emit_cycle_nest(b_, f_, p_.cycle_nest,
                    [&](llvm::Value* flit, llvm::Value* trf, llvm::Value* slot, llvm::Value* t) {
                      emit_cycle(flit, trf, slot, t);
                    });
  }
  emit_drain();
}

std::unique_ptr<llvm::Module> Emitter::run() {
  auto module =
      std::make_unique<llvm::Module>(p_.kernel_name.empty() ? "contraction" : p_.kernel_name, ctx_);
  m_ = module.get();
  float_ = p_.accumulator == ir::ScalarType::F32;
  fma_ = uses_fma(rp_, cfg_);
  halves_ = float_ && !fma_ && cfg_.host_dot.avx512f && p_.group >= 2 && kLaneVector == 8;
  scalar_ = float_ ? b_.getFloatTy() : b_.getInt32Ty();
  vec_ = llvm::FixedVectorType::get(scalar_, kLaneVector);

  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64t = b_.getInt64Ty();
  llvm::StructType* args_ty = llvm::StructType::create(
      ctx_, {ptr, i64t, ptr, ptr, ptr, i64t, ptr, ptr, ptr, ptr, ptr}, "ContractionArgs");
  auto* fty = llvm::FunctionType::get(b_.getInt32Ty(), {ptr}, false);
  f_ = llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, kContractionSymbol, m_);
  f_->addFnAttr(llvm::Attribute::NoUnwind);
  f_->addParamAttr(0, llvm::Attribute::NoAlias);

  llvm::BasicBlock* entry = llvm::BasicBlock::Create(ctx_, "entry", f_);
  violation_ = llvm::BasicBlock::Create(ctx_, "bounds.violation", f_);
  b_.SetInsertPoint(violation_);
  b_.CreateRet(b_.getInt32(kRunBoundsViolation));

  b_.SetInsertPoint(entry);
  for (unsigned k = 0; k < kFieldCount; ++k)
    arg_[k] = b_.CreateLoad(args_ty->getElementType(k),
                            b_.CreateStructGEP(args_ty, &*f_->arg_begin(), k));
  if (!p_.cycle_live.empty()) cycle_live_ = table_u8(p_.cycle_live, "cycle_live");
  std::vector<std::uint32_t> drain(sh_.out_cells, ~0u);
  for (std::uint64_t o = 0; o < p_.drain.size() && o < drain.size(); ++o) {
    const std::int64_t d = p_.drain[o];
    if (d < 0) continue;
    // Interpreter cell (l·T2 + u)·P2 + c → staged [u][c][lane].
    const auto cell = static_cast<std::uint64_t>(d);
    const std::uint64_t c = cell % p_.p2, u = (cell / p_.p2) % p_.t2, l = cell / (p_.p2 * p_.t2);
    drain[o] = static_cast<std::uint32_t>((u * p_.p2 + c) * kLaneVector + l);
  }
  drain_cells_ = drain;
  auto* init = llvm::ConstantDataArray::get(ctx_, llvm::ArrayRef<std::uint32_t>(drain));
  drain_ = new llvm::GlobalVariable(*m_, init->getType(), true, llvm::GlobalValue::PrivateLinkage,
                                    init, "drain");
  load_ = std::make_unique<StreamLoad>(rp_, *m_, cfg_.checked, sh_.trf_pairs, arg_[kStream],
                                       arg_[kStreamLimit], arg_[kFlitOffset], arg_[kFlitLive],
                                       violation_, f_);

  emit_slice();
  b_.CreateRet(b_.getInt32(kRunOk));
  annotate_aliasing();
  return module;
}

} // namespace contraction_detail

using contraction_detail::Emitter;
using contraction_detail::is_f8;

bool uses_fma(const ir::seq::RunProgram& rp, const EmitConfig& config) {
  const ir::seq::ContractionProgram& p = rp.contraction().chain;
  return config.host_fma && p.accumulator == ir::ScalarType::F32 && is_f8(p.stream_type) &&
         is_f8(p.trf_type) && rp.input().streams.cells.all_live() &&
         rp.contraction().trf.streams.cells.all_live() && p.group >= 2;
}

std::unique_ptr<llvm::Module> emit_contraction_module(const ir::seq::RunProgram& program,
                                                      const EmitConfig& config,
                                                      llvm::LLVMContext& context) {
  return Emitter(program, config, context).run();
}

} // namespace tujit::codegen
