// The narrowing conversions the JIT generates (codegen/narrow_emit.h), optimised and linked as the
// engines' code is, against the ones the interpreter calls (runtime::narrow_bits,
// runtime::relu_narrow_bf16), bit for bit, each as a scalar loop and as a loop of <8 x i32>
// vectors ("[narrow_emit]"):
// - every float target (bf16, its ReLU form, f8e4m3, f8e5m2) on the named special values, on
//   every sign and f32 exponent with mantissas at, one ulp below and one ulp above a tie at every
//   bit position, and on every 511th f32 bit pattern (2^32 / 511 ≈ 8.4 M, every exponent);
// - every integer target of the Cast Engine (i4, i8, i16) on the i32 extremes, both sides of
//   every wrap boundary, and every 1021st i32 (≈ 4.2 M); the other types, for which narrow_bits is
//   defined too, on the same values and every 65521st i32;
// - the generated code against the test vectors of docs/scalars.md §8 as written there.
#include "codegen/narrow_emit.h"
#include "codegen/native_compiler.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/widen.h"
#include "tests/unit/llvm_module_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

using namespace tujit;
using ir::ScalarType;

namespace {

constexpr unsigned kLanes = 8;

/// One conversion: narrow_bits to `to`, or the Commit Adapter's ReLU form when `to` is empty.
struct Conversion {
  std::optional<ScalarType> to;
  std::string name() const { return to ? std::string(ir::name(*to)) : "relu bf16"; }
  std::uint32_t reference(std::uint32_t x) const {
    return to ? runtime::narrow_bits(*to, x) : runtime::relu_narrow_bf16(x);
  }
  llvm::Value* emit(llvm::IRBuilder<>& b, llvm::Value* v) const {
    return to ? codegen::emit_narrow_bits(b, *to, v) : codegen::emit_relu_narrow_bf16(b, v);
  }
};

const std::vector<Conversion> kFloatTargets = {
    {ScalarType::BF16}, {std::nullopt}, {ScalarType::F8E4M3}, {ScalarType::F8E5M2}};
/// The Cast Engine's integer targets, then the types no stage narrows to, which narrow_bits
/// still defines (the value widths of the staging types, the bit-keeping types, the identities).
const std::vector<Conversion> kIntegerTargets = {
    {ScalarType::I4},  {ScalarType::I8}, {ScalarType::I16}, {ScalarType::I5},    {ScalarType::I9},
    {ScalarType::I32}, {ScalarType::U8}, {ScalarType::F32}, {ScalarType::F4E2M1}};
constexpr std::size_t kCastEngineIntegers = 3;

std::vector<Conversion> every_conversion() {
  std::vector<Conversion> all = kFloatTargets;
  all.insert(all.end(), kIntegerTargets.begin(), kIntegerTargets.end());
  return all;
}

/// `void tujit_narrow(i32 which, const i32* in, i32* out, i64 n)`: conversion which / 2 of
/// every_conversion() on in[0, n), one element at a time when which is even, else kLanes at a
/// time (n a multiple of kLanes).
using NarrowFn = void (*)(std::uint32_t, const std::uint32_t*, std::uint32_t*, std::uint64_t);

void emit_loop(llvm::IRBuilder<>& b, llvm::Function* f, const Conversion& c, unsigned lanes) {
  llvm::LLVMContext& ctx = b.getContext();
  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* check = llvm::BasicBlock::Create(ctx, "check", f);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(ctx, "body", f);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(ctx, "done", f);
  b.CreateBr(check);
  b.SetInsertPoint(check);
  llvm::PHINode* i = b.CreatePHI(b.getInt64Ty(), 2, "i");
  i->addIncoming(b.getInt64(0), pre);
  b.CreateCondBr(b.CreateICmpULT(i, f->getArg(3)), body, done);
  b.SetInsertPoint(body);
  llvm::Type* t = lanes == 1 ? static_cast<llvm::Type*>(b.getInt32Ty())
                             : llvm::FixedVectorType::get(b.getInt32Ty(), lanes);
  llvm::Value* x =
      b.CreateAlignedLoad(t, b.CreateInBoundsGEP(b.getInt32Ty(), f->getArg(1), i), llvm::Align(4));
  b.CreateAlignedStore(c.emit(b, x), b.CreateInBoundsGEP(b.getInt32Ty(), f->getArg(2), i),
                       llvm::Align(4));
  llvm::Value* next = b.CreateAdd(i, b.getInt64(lanes));
  i->addIncoming(next, body);
  b.CreateBr(check);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

codegen::LinkedFunction compile(const std::vector<Conversion>& conversions,
                                std::shared_ptr<codegen::JitSession>& session) {
  auto target = codegen::native_target();
  REQUIRE(target);
  llvm::LLVMContext ctx;
  auto module = std::make_unique<llvm::Module>("narrow_emit", ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type* ptr = b.getPtrTy();
  auto* fty =
      llvm::FunctionType::get(b.getVoidTy(), {b.getInt32Ty(), ptr, ptr, b.getInt64Ty()}, false);
  auto* f =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, "tujit_narrow", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::BasicBlock* none = llvm::BasicBlock::Create(ctx, "none", f);
  llvm::SwitchInst* sw =
      b.CreateSwitch(f->getArg(0), none, static_cast<unsigned>(2 * conversions.size()));
  b.SetInsertPoint(none);
  b.CreateRetVoid();
  for (std::size_t k = 0; k < 2 * conversions.size(); ++k) {
    llvm::BasicBlock* bb = llvm::BasicBlock::Create(ctx, fmt::format("case{}", k), f);
    sw->addCase(b.getInt32(static_cast<std::uint32_t>(k)), bb);
    b.SetInsertPoint(bb);
    emit_loop(b, f, conversions[k / 2], k % 2 == 0 ? 1 : kLanes);
  }
  return testing::link_module(*module, *target, "tujit_narrow", session);
}

/// The generated code of one conversion compared with its reference on every input of a set,
/// both forms; the first few differences are kept for the report.
class Comparison {
public:
  Comparison(NarrowFn fn, const std::vector<Conversion>& conversions)
      : fn_(fn), conversions_(conversions) {}

  /// `inputs(chunk)` fills chunk with the next inputs and returns false when there are none.
  void run(std::size_t k, const std::function<bool(std::vector<std::uint32_t>&)>& inputs) {
    const Conversion& c = conversions_[k];
    std::vector<std::uint32_t> in, scalar, vector, want;
    while (inputs(in)) {
      in.resize((in.size() + kLanes - 1) / kLanes * kLanes, 0u);
      scalar.assign(in.size(), 0xDEADBEEFu);
      vector.assign(in.size(), 0xDEADBEEFu);
      want.resize(in.size());
      std::transform(in.begin(), in.end(), want.begin(),
                     [&](std::uint32_t x) { return c.reference(x); });
      fn_(static_cast<std::uint32_t>(2 * k), in.data(), scalar.data(), in.size());
      fn_(static_cast<std::uint32_t>(2 * k + 1), in.data(), vector.data(), in.size());
      for (std::size_t i = 0; i < in.size(); ++i) {
        checked_ += 1;
        const std::pair<const char*, std::uint32_t> forms[] = {{"scalar", scalar[i]},
                                                               {"<8 x i32>", vector[i]}};
        for (const auto& [form, got] : forms)
          if (got != want[i] && wrong_++ < 8)
            first_ += fmt::format("{} ({}) of {:#010x}: jit {:#x}, runtime {:#x}\n", c.name(), form,
                                  in[i], got, want[i]);
      }
    }
  }
  std::size_t checked() const { return checked_; }
  std::size_t wrong() const { return wrong_; }
  const std::string& first() const { return first_; }

private:
  NarrowFn fn_;
  const std::vector<Conversion>& conversions_;
  std::size_t checked_ = 0, wrong_ = 0;
  std::string first_;
};

/// The named f32 specials and the rounding boundaries of each format (docs/scalars.md §4.1–§4.3).
std::vector<std::uint32_t> named_f32() {
  std::vector<std::uint32_t> v = {
      0x00000000u, 0x00000001u, 0x00000002u, 0x00400000u, 0x007FFFFFu, // zero, subnormals
      0x00800000u, 0x00800001u, 0x7F7FFFFFu, 0x7F7F7FFFu, 0x7F7F8000u, // normal extremes
      0x7F800000u,                                                     // inf
      0x7F800001u, 0x7F800002u, 0x7FA00001u, 0x7FBFFFFFu,              // signalling NaNs
      0x7FC00000u, 0x7FC00001u, 0x7FD55555u, 0x7FFFFFFFu, 0x7FFF0000u, // quiet NaNs
      0x3F800000u, 0x3F808000u, 0x3F818000u, 0x3F808001u, 0x3F807FFFu, // bf16 ties ±1 ulp
      0x3F80C000u, 0x406CCCCDu, 0x477FE000u, 0x3DCCCCCDu, 0x43E00000u,
      0x43DFFFFFu, 0x43E00001u, 0x43E7FFFFu, 0x43E80000u,              // e4m3: 448, its
      0x43E80001u, 0x43F00000u, 0x447A0000u, 0x43700000u,              // neighbours, 464, 480
      0x3C800000u, 0x3C7FFFFFu, 0x3C700000u, 0x3C6FFFFFu, 0x3C700001u, // e4m3 smallest normal
      0x3B000000u, 0x3A800000u, 0x3A800001u, 0x3A7FFFFFu, 0x3AC00000u, // e4m3 subnormal ties
      0x3B400000u, 0x3B3FFFFFu, 0x3B400001u, 0x3F880000u, 0x3F980000u,
      0x47600000u, 0x476FFFFFu, 0x47700000u, 0x47700001u, 0x47800000u, // e5m2 overflow at 61440
      0x476A6000u, 0x3F900000u, 0x3FB00000u, 0x3F8FFFFFu, 0x3F900001u, // e5m2 ties (1.125, 1.375)
      0x38600000u, 0x385FFFFFu, 0x38600001u, 0x387FFFFFu, 0x38800000u, // e5m2 clamp [3.5, 4)·2^-16
      0x38200000u, 0x381FFFFFu, 0x38400000u, 0x37800000u, 0x377FFFFFu, // e5m2 subnormal ties
      0x37C00000u, 0x37000000u, 0x36800000u, 0x38000000u, 0x38100000u,
  };
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) v.push_back(v[i] | 0x80000000u); // both signs
  return v;
}

/// For every sign and biased exponent, mantissas around a tie at every bit position p: the tie
/// itself (bit p set, nothing below), one ulp below and above it, under kept bits that are zero,
/// odd at p + 1, all ones, or mixed; plus the mantissas 0, 1 and all ones.
std::vector<std::uint32_t> ties_f32() {
  std::vector<std::uint32_t> v;
  for (std::uint32_t se = 0; se < 512; ++se) {
    const std::uint32_t top = se << 23;
    for (std::uint32_t m : {0u, 1u, 0x7FFFFFu}) v.push_back(top | m);
    for (std::uint32_t p = 0; p < 23; ++p) {
      const std::uint32_t above = 0x7FFFFFu & ~((2u << p) - 1u);
      for (std::uint32_t kept : {0u, (2u << p) & 0x7FFFFFu, above, 0x5A5A5Au & above})
        for (std::int32_t d : {-1, 0, 1}) {
          const std::uint32_t m = (kept | (1u << p)) + static_cast<std::uint32_t>(d);
          v.push_back(top + m); // a carry out of the mantissa is the next exponent's pattern
        }
    }
  }
  return v;
}

/// Both sides of every integer wrap boundary and the i32 extremes.
std::vector<std::uint32_t> named_i32() {
  std::vector<std::uint32_t> v = {0u,          1u,          0xFFFFFFFFu, 0x7FFFFFFFu,
                                  0x7FFFFFFEu, 0x80000000u, 0x80000001u};
  for (std::int64_t k : {4, 5, 8, 9, 16})
    for (std::int64_t edge : {std::int64_t{1} << (k - 1), std::int64_t{1} << k})
      for (std::int64_t d : {-1, 0, 1})
        for (std::int64_t sign : {1, -1}) v.push_back(static_cast<std::uint32_t>(sign * edge + d));
  for (std::int64_t x = -300; x <= 300; ++x) v.push_back(static_cast<std::uint32_t>(x));
  return v;
}

/// Hands out `all` once, in one chunk.
std::function<bool(std::vector<std::uint32_t>&)> once(std::vector<std::uint32_t> all) {
  return [all = std::move(all), done = false](std::vector<std::uint32_t>& chunk) mutable {
    if (done) return false;
    chunk = all;
    done = true;
    return true;
  };
}

/// Every `stride`-th 32-bit pattern from 0 (stride odd, so no pattern repeats), in chunks.
std::function<bool(std::vector<std::uint32_t>&)> strided(std::uint32_t stride) {
  return [stride, next = std::uint64_t{0}](std::vector<std::uint32_t>& chunk) mutable {
    constexpr std::uint64_t kEnd = std::uint64_t{1} << 32;
    if (next >= kEnd) return false;
    chunk.clear();
    for (; next < kEnd && chunk.size() < (1u << 16); next += stride)
      chunk.push_back(static_cast<std::uint32_t>(next));
    return true;
  };
}

} // namespace

TEST_CASE("generated narrowing conversions equal runtime::narrow_bits bit for bit",
          "[narrow_emit][jit][numerics]") {
  const std::vector<Conversion> conversions = every_conversion();
  std::shared_ptr<codegen::JitSession> session;
  const codegen::LinkedFunction linked = compile(conversions, session);
  Comparison cmp(linked.as<NarrowFn>(), conversions);
  const std::vector<std::uint32_t> named = named_f32(), ties = ties_f32(), ints = named_i32();
  for (std::size_t k = 0; k < conversions.size(); ++k) {
    if (k < kFloatTargets.size()) {
      cmp.run(k, once(named));
      cmp.run(k, once(ties));
      cmp.run(k, strided(511));
    } else {
      cmp.run(k, once(ints));
      const bool cast_engine = k < kFloatTargets.size() + kCastEngineIntegers;
      cmp.run(k, strided(cast_engine ? 1021 : 65'521));
    }
  }
  linked.release();
  INFO(cmp.first());
  CHECK(cmp.wrong() == 0);
  // 4 float targets × (≈ 8.4 M + 141 k + named), 3 integer targets × ≈ 4.2 M, 6 × ≈ 65 k.
  CHECK(cmp.checked() > 4 * 8'400'000 + 3 * 4'200'000 + 6 * 65'000);
}

TEST_CASE("generated narrowing conversions give the test vectors of docs/scalars.md §8",
          "[narrow_emit][jit][numerics]") {
  struct Vector {
    int row; // the row of docs/scalars.md §8
    Conversion conversion;
    std::uint32_t in, out;
  };
  const Conversion bf16{ScalarType::BF16}, relu{std::nullopt}, e4m3{ScalarType::F8E4M3},
      e5m2{ScalarType::F8E5M2}, i4{ScalarType::I4}, i8{ScalarType::I8}, i16{ScalarType::I16};
  const auto i32 = [](std::int32_t x) { return static_cast<std::uint32_t>(x); };
  const std::vector<Vector> vectors = {
      {1, bf16, 0x3F800000u, 0x3F80u},
      {2, bf16, 0x3F808000u, 0x3F80u},
      {3, bf16, 0x3F818000u, 0x3F82u},
      {4, bf16, 0x3F80C000u, 0x3F81u},
      {5, bf16, 0x3F808001u, 0x3F81u},
      {6, bf16, 0x7F7FFFFFu, 0x7F80u},
      {7, bf16, 0x7F7F7FFFu, 0x7F7Fu},
      {8, bf16, 0xFF800000u, 0xFF80u},
      {9, bf16, 0x7FA00001u, 0x7FC0u},
      {10, bf16, 0xFFC00000u, 0x7FC0u},
      {11, bf16, 0x00400000u, 0x0000u},
      {12, bf16, 0x80400000u, 0x8000u},
      {13, bf16, 0x007FFFFFu, 0x0000u},
      {14, bf16, 0x00800000u, 0x0080u},
      {15, bf16, 0x80000000u, 0x8000u},
      {16, bf16, 0x406CCCCDu, 0x406Du},
      {17, bf16, 0x477FE000u, 0x4780u},
      {18, bf16, 0x3DCCCCCDu, 0x3DCDu},
      {29, e4m3, 0x3F800000u, 0x38u},
      {30, e4m3, 0xBF800000u, 0xB8u},
      {31, e4m3, 0x43E00000u, 0x7Eu},
      {32, e4m3, 0x43E80000u, 0x7Eu},
      {33, e4m3, 0x447A0000u, 0x7Eu},
      {34, e4m3, 0x7F800000u, 0x7Eu},
      {34, e4m3, 0xFF800000u, 0xFEu},
      {35, e4m3, 0x7FC00000u, 0x7Fu},
      {35, e4m3, 0xFFC00000u, 0x7Fu},
      {36, e4m3, 0x3C800000u, 0x08u},
      {37, e4m3, 0x3B000000u, 0x01u},
      {38, e4m3, 0x3A800000u, 0x00u},
      {39, e4m3, 0x3AC00000u, 0x01u},
      {40, e4m3, 0x3B400000u, 0x02u},
      {41, e4m3, 0x3C700000u, 0x08u},
      {42, e4m3, 0x3F880000u, 0x38u},
      {43, e4m3, 0x3F980000u, 0x3Au},
      {44, e4m3, 0x80000000u, 0x80u},
      {45, e4m3, 0x00000001u, 0x00u},
      {46, e4m3, 0x3DCCCCCDu, 0x1Du},
      {47, e4m3, 0xBE99999Au, 0xAAu},
      {48, e4m3, 0x43700000u, 0x77u},
      {53, e5m2, 0x3F800000u, 0x3Cu},
      {54, e5m2, 0x3F900000u, 0x3Du},
      {55, e5m2, 0x3FB00000u, 0x3Eu},
      {56, e5m2, 0x47600000u, 0x7Bu},
      {56, e5m2, 0x476A6000u, 0x7Bu},
      {57, e5m2, 0x47700000u, 0x7Cu},
      {57, e5m2, 0x47800000u, 0x7Cu},
      {58, e5m2, 0xFF800000u, 0xFCu},
      {59, e5m2, 0x7FC00000u, 0x7Eu},
      {59, e5m2, 0xFFC00000u, 0x7Eu},
      {60, e5m2, 0x38800000u, 0x04u},
      {60, e5m2, 0x37800000u, 0x01u},
      {61, e5m2, 0x37000000u, 0x01u},
      {61, e5m2, 0x36800000u, 0x00u},
      {62, e5m2, 0x37C00000u, 0x02u},
      {63, e5m2, 0x38600000u, 0x03u},
      {64, e5m2, 0x80000000u, 0x80u},
      {65, e5m2, 0x3DCCCCCDu, 0x2Eu},
      {66, e5m2, 0xC0400000u, 0xC2u},
      {75, i4, 8u, i32(-8)},
      {75, i4, i32(-9), 7u},
      {75, i4, 15u, i32(-1)},
      {76, i8, 200u, i32(-56)},
      {76, i8, 2'560'000u, 0u},
      {77, i16, 40'000u, i32(-25'536)},
      {89, relu, 0xC0A00000u, 0x0000u},
      {89, relu, 0xBDCCCCCDu, 0x0000u},
      {89, relu, 0x00000000u, 0x0000u},
      {90, relu, 0x406CCCCDu, 0x406Du},
      {91, relu, 0x80000000u, 0x0000u},
      {91, relu, 0xFF800000u, 0x0000u},
      {91, relu, 0x80000001u, 0x0000u},
      {92, relu, 0xFFC00000u, 0x7FC0u},
      {92, relu, 0x7F800000u, 0x7F80u},
  };
  const std::vector<Conversion> conversions = every_conversion();
  std::shared_ptr<codegen::JitSession> session;
  const codegen::LinkedFunction linked = compile(conversions, session);
  const auto fn = linked.as<NarrowFn>();
  for (const Vector& t : vectors) {
    const auto k = static_cast<std::size_t>(
        std::find_if(conversions.begin(), conversions.end(),
                     [&](const Conversion& c) { return c.to == t.conversion.to; }) -
        conversions.begin());
    REQUIRE(k < conversions.size());
    std::uint32_t in[kLanes], scalar[kLanes], vector[kLanes];
    std::fill(std::begin(in), std::end(in), t.in);
    fn(static_cast<std::uint32_t>(2 * k), in, scalar, kLanes);
    fn(static_cast<std::uint32_t>(2 * k + 1), in, vector, kLanes);
    INFO("row " << t.row << ": " << t.conversion.name() << fmt::format(" of {:#010x}", t.in));
    CHECK(scalar[0] == t.out);
    CHECK(vector[kLanes - 1] == t.out);
  }
  linked.release();
}
