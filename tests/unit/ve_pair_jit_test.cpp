// Pair mode's calls (docs/vector-engine.md §3.5) emitted by the JIT equal the interpreter's bit for
// bit: every `_zip` op of every cluster with each of the four BinaryArgModes, after per-group
// calls that run on one group and skip the other, on adversarial pairs (±0, NaN payloads,
// subnormals, infinities, i32 extremes). Group 1 enters as the pass's first operand stream, as a
// run feeds it (ir/seq/run_program.h vrf_operands).
#include "codegen/native_compiler.h"
#include "codegen/vector_chain_emit.h"
#include "runtime/vector/ve_scalar.h"
#include "tests/unit/llvm_module_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <vector>

using namespace tujit;
using ir::VectorCall;
using ir::VectorCallKind;

namespace {

ir::seq::VectorProgram pair_program(bool f32, VectorCall pre, VectorCall zip) {
  ir::seq::VectorProgram p;
  const ir::ScalarType t = f32 ? ir::ScalarType::F32 : ir::ScalarType::I32;
  p.in_type = p.out_type = t;
  VectorCall unzip;
  unzip.kind = VectorCallKind::Unzip;
  p.steps.push_back({unzip, t});
  p.steps.push_back({pre, t});
  p.steps.push_back({zip, t});
  return p;
}

std::vector<ir::seq::VectorProgram> every_zip() {
  using M = ir::BinaryArgMode;
  std::vector<ir::seq::VectorProgram> out;
  for (bool f32 : {false, true}) {
    // Group 0 runs the per-group op, group 1 skips it.
    VectorCall pre;
    pre.kind = f32 ? VectorCallKind::FpBinary : VectorCallKind::Fxp;
    pre.op = f32 ? decltype(VectorCall::op){ir::FpBinaryOp::AddF}
                 : decltype(VectorCall::op){ir::FxpBinaryOp::AddFxpSat};
    ir::VeGroupArgs g;
    g.runs = {true, false};
    g.operand[0][0] = f32 ? 0x3fc00000u : 7u; // 1.5f, 7
    pre.groups = g;
    std::vector<VectorCall> zips;
    const auto add = [&](VectorCallKind k, decltype(VectorCall::op) op) {
      VectorCall z;
      z.kind = k;
      z.op = op;
      z.zip = true;
      zips.push_back(z);
    };
    for (auto o : {ir::LogicBinaryOp::BitAnd, ir::LogicBinaryOp::BitOr, ir::LogicBinaryOp::BitXor})
      add(VectorCallKind::Logic, o);
    for (auto o : {ir::ClipBinaryOp::Min, ir::ClipBinaryOp::Max, ir::ClipBinaryOp::AbsMin,
                   ir::ClipBinaryOp::AbsMax})
      add(VectorCallKind::Clip, o);
    if (f32) {
      add(VectorCallKind::Clip, ir::ClipBinaryOp::Add);
      for (auto o : {ir::FpBinaryOp::AddF, ir::FpBinaryOp::SubF, ir::FpBinaryOp::MulF})
        add(VectorCallKind::FpBinary, o);
    } else {
      add(VectorCallKind::Clip, ir::ClipBinaryOp::AddFxp);
      add(VectorCallKind::Clip, ir::ClipBinaryOp::AddFxpSat);
      for (auto o : {ir::FxpBinaryOp::AddFxp, ir::FxpBinaryOp::SubFxpSat, ir::FxpBinaryOp::MulInt,
                     ir::FxpBinaryOp::MulFxp, ir::FxpBinaryOp::LeftShiftSat})
        add(VectorCallKind::Fxp, o);
    }
    for (VectorCall z : zips)
      for (M m : {M::Mode00, M::Mode01, M::Mode10, M::Mode11}) {
        z.mode = m;
        out.push_back(pair_program(f32, pre, z));
      }
  }
  return out;
}

std::vector<std::uint32_t> edges(bool f32) {
  if (f32)
    return {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x3f800000u, 0xbfc00000u,
            0x7f7fffffu, 0xff800000u, 0x7f800000u, 0x7fc00001u, 0xffbfffffu, 0x4b000001u};
  return {0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0x40000000u, 0xc0000001u, 31u, 32u, 7u};
}

using PairFn = std::uint32_t (*)(std::uint32_t, std::uint32_t, std::uint32_t);

} // namespace

TEST_CASE("pair mode: every zip op and mode, JIT equal to the interpreter bit for bit",
          "[vector][pair][jit][numerics]") {
  const auto programs = every_zip();
  auto target = codegen::native_target();
  REQUIRE(target);
  llvm::LLVMContext ctx;
  auto module = std::make_unique<llvm::Module>("ve_pair", ctx);
  llvm::IRBuilder<> b(ctx);
  auto* i32 = b.getInt32Ty();
  auto* f = llvm::Function::Create(llvm::FunctionType::get(i32, {i32, i32, i32}, false),
                                   llvm::GlobalValue::ExternalLinkage, "tujit_ve_pair", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::BasicBlock* none = llvm::BasicBlock::Create(ctx, "none", f);
  auto* sw = b.CreateSwitch(f->getArg(0), none, static_cast<unsigned>(programs.size()));
  b.SetInsertPoint(none);
  b.CreateRet(b.getInt32(0));
  for (std::size_t k = 0; k < programs.size(); ++k) {
    auto* bb = llvm::BasicBlock::Create(ctx, fmt::format("case{}", k), f);
    sw->addCase(b.getInt32(static_cast<std::uint32_t>(k)), bb);
    b.SetInsertPoint(bb);
    llvm::Value* group1[] = {f->getArg(2)};
    b.CreateRet(codegen::emit_vector_pass(b, *module, programs[k], f->getArg(1), group1));
  }
  std::shared_ptr<codegen::JitSession> session;
  const auto linked = testing::link_module(*module, *target, "tujit_ve_pair", session);
  const auto fn = linked.as<PairFn>();
  std::size_t checked = 0, wrong = 0;
  std::string first;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    const auto& p = programs[k];
    REQUIRE(ir::seq::verify(p).ok());
    const auto in = edges(p.in_type == ir::ScalarType::F32);
    for (std::uint32_t x : in)
      for (std::uint32_t y : in) {
        const std::uint32_t g1[] = {y};
        const std::uint32_t want = runtime::vector::apply_pass(p, x, g1);
        const std::uint32_t got = fn(static_cast<std::uint32_t>(k), x, y);
        ++checked;
        if (got != want && wrong++ < 5)
          first += fmt::format("{} on ({:#010x}, {:#010x}): jit {:#010x}, interpreter {:#010x}\n",
                               p.steps[2].call.describe(), x, y, got, want);
      }
  }
  linked.release();
  INFO(first);
  CHECK(wrong == 0);
  CHECK(checked > 5'000);
}
