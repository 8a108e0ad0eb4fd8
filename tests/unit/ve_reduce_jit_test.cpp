// The intra-slice reduce and the inter-slice reducer (docs/vector-engine.md §3.6, §3.7) emitted by
// the JIT equal the interpreter's bit for bit: every op of both scalars, the tree alone, the slot
// alone and both, the reducer's ring, bare or with a call before it (run on every term) and one
// after it, on adversarial terms (NaN payloads, ±0, subnormals, infinities, the i32 extremes and
// near-overflow values). The terms after the first enter as the pass's operand streams, as a run
// feeds them (ir/seq/run_program.h).
#include "codegen/native_compiler.h"
#include "codegen/vector_chain_emit.h"
#include "runtime/vector/ve_scalar.h"
#include "tests/unit/llvm_module_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

using namespace tujit;
using ir::VectorCall;
using ir::VectorCallKind;

namespace {

constexpr std::uint32_t kMaxTerms = 12;

VectorCall binary(VectorCallKind kind, decltype(VectorCall::op) op, std::uint32_t c) {
  VectorCall call;
  call.kind = kind;
  call.op = op;
  call.operand[0] = c;
  return call;
}

std::vector<ir::seq::VectorProgram> every_reduce() {
  std::vector<ir::seq::VectorProgram> out;
  for (bool f32 : {false, true}) {
    const ir::ScalarType t = f32 ? ir::ScalarType::F32 : ir::ScalarType::I32;
    // A call on every term before the reduce, and one on the result after it.
    const VectorCall pre = f32 ? binary(VectorCallKind::FpBinary, ir::FpBinaryOp::MulF, 0x3FC00000u)
                               : binary(VectorCallKind::Fxp, ir::FxpBinaryOp::AddFxpSat, 7u);
    const VectorCall post = f32 ? binary(VectorCallKind::Clip, ir::ClipBinaryOp::Add, 0x00000001u)
                                : binary(VectorCallKind::Clip, ir::ClipBinaryOp::AddFxp, 1u);
    const auto ops = f32 ? std::vector{ir::ReduceOp::Add, ir::ReduceOp::Max, ir::ReduceOp::Min}
                         : std::vector{ir::ReduceOp::AddSat, ir::ReduceOp::Max, ir::ReduceOp::Min};
    for (ir::ReduceOp op : ops)
      for (std::uint32_t lanes : {1u, 4u})
        for (std::uint32_t steps : {1u, 3u})
          for (bool around : {false, true}) {
            if (lanes * steps == 1) continue;
            ir::seq::VectorProgram p;
            p.in_type = p.out_type = t;
            VectorCall r;
            r.kind = VectorCallKind::IntraSliceReduce;
            r.reduce = ir::VeReduce{op, lanes, steps};
            if (around) p.steps.push_back({pre, t});
            p.steps.push_back({r, t});
            if (around) p.steps.push_back({post, t});
            out.push_back(std::move(p));
          }
    // The inter-slice reducer's shape (one lane, the ring's slices; docs/vector-engine.md §3.7)
    // and its own ops: i32 Add wrapping, f32 Mul.
    for (ir::ReduceOp op : {f32 ? ir::ReduceOp::Mul : ir::ReduceOp::Add, ir::ReduceOp::Max,
                            f32 ? ir::ReduceOp::Add : ir::ReduceOp::AddSat})
      for (bool around : {false, true}) {
        ir::seq::VectorProgram p;
        p.in_type = p.out_type = t;
        VectorCall r;
        r.kind = VectorCallKind::InterSliceReduce;
        r.reduce = ir::VeReduce{op, 1, 8};
        if (around) p.steps.push_back({pre, t});
        p.steps.push_back({r, t});
        if (around) p.steps.push_back({post, t});
        out.push_back(std::move(p));
      }
  }
  return out;
}

std::vector<std::uint32_t> edges(bool f32) {
  if (f32)
    return {0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x3F800000u,
            0xBFC00000u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0xFF800000u, 0x7F800000u, 0x7FC00001u,
            0xFFBFFFFFu, 0x4B800000u, 0x33800000u, 0xCB7FFFFFu};
  return {0u,          1u,          0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu, 0x7FFFFFFAu,
          0x80000005u, 0x40000000u, 0xC0000001u, 31u,         0xFFFFFFF9u, 7u};
}

/// One generated function `i32 tujit_ve_reduce(i32 case, i32* terms)`.
using ReduceFn = std::uint32_t (*)(std::uint32_t, const std::uint32_t*);

} // namespace

TEST_CASE("intra-slice reduce: every op and shape, JIT equal to the interpreter bit for bit",
          "[vector][reduce][jit][numerics]") {
  const auto programs = every_reduce();
  auto target = codegen::native_target();
  REQUIRE(target);
  llvm::LLVMContext ctx;
  auto module = std::make_unique<llvm::Module>("ve_reduce", ctx);
  llvm::IRBuilder<> b(ctx);
  auto* i32 = b.getInt32Ty();
  auto* fty = llvm::FunctionType::get(i32, {i32, b.getPtrTy()}, false);
  auto* fn =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, "tujit_ve_reduce", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn));
  llvm::BasicBlock* none = llvm::BasicBlock::Create(ctx, "none", fn);
  auto* sw = b.CreateSwitch(fn->getArg(0), none, static_cast<unsigned>(programs.size()));
  b.SetInsertPoint(none);
  b.CreateRet(b.getInt32(0));
  for (std::size_t k = 0; k < programs.size(); ++k) {
    auto* bb = llvm::BasicBlock::Create(ctx, fmt::format("case{}", k), fn);
    sw->addCase(b.getInt32(static_cast<std::uint32_t>(k)), bb);
    b.SetInsertPoint(bb);
    std::vector<llvm::Value*> terms;
    for (std::uint32_t j = 0; j < kMaxTerms; ++j)
      terms.push_back(b.CreateLoad(i32, b.CreateConstInBoundsGEP1_64(i32, fn->getArg(1), j)));
    std::span<llvm::Value* const> rest(terms.data() + 1, terms.size() - 1);
    b.CreateRet(codegen::emit_vector_pass(b, *module, programs[k], terms[0], rest));
  }
  std::shared_ptr<codegen::JitSession> session;
  const auto linked = testing::link_module(*module, *target, "tujit_ve_reduce", session);
  const auto run = linked.as<ReduceFn>();
  std::mt19937 rng(0x5EDu);
  std::size_t checked = 0, wrong = 0;
  std::string first;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    const auto& p = programs[k];
    REQUIRE(ir::seq::verify(p).ok());
    const auto in = edges(p.in_type == ir::ScalarType::F32);
    for (int draw = 0; draw < 3000; ++draw) {
      std::uint32_t t[kMaxTerms];
      for (std::uint32_t& x : t)
        x = draw % 3 == 0 ? static_cast<std::uint32_t>(rng()) : in[rng() % in.size()];
      const std::uint32_t want =
          runtime::vector::apply_pass(p, t[0], std::span<const std::uint32_t>(t + 1, 11));
      const std::uint32_t got = run(static_cast<std::uint32_t>(k), t);
      ++checked;
      if (got != want && wrong++ < 5)
        first += fmt::format("program {} on {:#010x}, {:#010x}, …: jit {:#010x}, interpreter "
                             "{:#010x}\n",
                             k, t[0], t[1], got, want);
    }
  }
  linked.release();
  INFO(first);
  CHECK(wrong == 0);
  CHECK(checked > 100'000);
}
