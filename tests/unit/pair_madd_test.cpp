// The i16 pair multiply-add of integer contractions (codegen/pair_madd.h), generated for every
// instruction choice the host can run (VNNI vpdpwssd, AVX2 vpmaddwd, plain IR), against the sum
// of the two products computed here in 64 bits and reduced mod 2^32 ("[jit]"): every operand at
// the i16 extremes (-32768 · -32768 twice is the one case whose sum leaves i32), the operand
// types' extremes (i4, i5, i8, i9), and random words, with accumulators at the i32 limits.
#include "codegen/native_compiler.h"
#include "codegen/pair_madd.h"
#include "tests/unit/llvm_module_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <random>
#include <vector>

using namespace tujit;

namespace {

constexpr unsigned kLanes = 8;

/// `void tujit_pair_madd(const i32* acc, const i32* a, const i32* w, i32* out)`, 8 lanes each;
/// `with_acc` = false: out = madd(a, w).
using MaddFn = void (*)(const std::uint32_t*, const std::uint32_t*, const std::uint32_t*,
                        std::uint32_t*);

codegen::LinkedFunction compile(const codegen::HostDot& host, bool with_acc,
                                std::shared_ptr<codegen::JitSession>& session) {
  auto target = codegen::native_target();
  REQUIRE(target);
  llvm::LLVMContext ctx;
  auto module = std::make_unique<llvm::Module>("pair_madd", ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type* ptr = b.getPtrTy();
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, ptr}, false);
  auto* f =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, "tujit_pair_madd", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  auto* vt = llvm::FixedVectorType::get(b.getInt32Ty(), kLanes);
  const auto load = [&](unsigned i) {
    return b.CreateAlignedLoad(vt, f->getArg(i), llvm::Align(4));
  };
  llvm::Value* r =
      codegen::emit_pair_madd(b, *module, host, with_acc ? load(0) : nullptr, load(1), load(2));
  b.CreateAlignedStore(r, f->getArg(3), llvm::Align(4));
  b.CreateRetVoid();
  return testing::link_module(*module, *target, "tujit_pair_madd", session);
}

std::uint32_t word(std::int32_t lo, std::int32_t hi) {
  return (static_cast<std::uint32_t>(lo) & 0xFFFFu) | (static_cast<std::uint32_t>(hi) << 16);
}

/// acc + lo(a)·lo(w) + hi(a)·hi(w) mod 2^32, from the halves as signed 16-bit values.
std::uint32_t expected(std::uint32_t acc, std::uint32_t a, std::uint32_t w) {
  const auto half = [](std::uint32_t x, unsigned k) {
    return static_cast<std::int64_t>(static_cast<std::int16_t>(x >> (16 * k)));
  };
  const std::int64_t sum = half(a, 0) * half(w, 0) + half(a, 1) * half(w, 1);
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(acc) +
                                    static_cast<std::uint64_t>(sum));
}

std::vector<std::uint32_t> operand_words() {
  std::vector<std::int32_t> v = {0, 1, -1, 32767, -32768, -32767, 16384, -16384};
  for (std::int32_t bits : {4, 5, 8, 9}) { // i4, i5, i8, i9 extremes
    v.push_back(-(1 << (bits - 1)));
    v.push_back((1 << (bits - 1)) - 1);
  }
  std::vector<std::uint32_t> out;
  for (std::int32_t lo : v)
    for (std::int32_t hi : v) out.push_back(word(lo, hi));
  std::mt19937 rng(29u);
  for (int i = 0; i < 2000; ++i) out.push_back(static_cast<std::uint32_t>(rng()));
  return out;
}

} // namespace

TEST_CASE("i16 pair multiply-add: every host instruction choice wraps mod 2^32 exactly", "[jit]") {
  const codegen::HostDot host = codegen::host_dot(codegen::native_target()->features);
  std::vector<codegen::HostDot> choices = {codegen::HostDot{}};
  if (host.avx2) choices.push_back(codegen::HostDot{true, false});
  if (host.vnni) choices.push_back(codegen::HostDot{true, true});
  const std::vector<std::uint32_t> words = operand_words();
  const std::uint32_t accs[] = {0u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x40000000u};
  for (const codegen::HostDot& choice : choices)
    for (const bool with_acc : {false, true}) {
      INFO("avx2 " << choice.avx2 << ", vnni " << choice.vnni << ", accumulator " << with_acc);
      std::shared_ptr<codegen::JitSession> session;
      const codegen::LinkedFunction linked = compile(choice, with_acc, session);
      const auto fn = linked.as<MaddFn>();
      std::size_t wrong = 0, checked = 0;
      std::string first;
      std::uint32_t acc[kLanes], a[kLanes], w[kLanes], out[kLanes];
      for (std::size_t i = 0; i < words.size(); ++i)
        for (std::size_t j0 = 0; j0 < words.size(); j0 += kLanes * 7) {
          for (unsigned l = 0; l < kLanes; ++l) {
            a[l] = words[i];
            w[l] = words[(j0 + l) % words.size()];
            acc[l] = accs[(i + l) % 5];
          }
          fn(acc, a, w, out);
          for (unsigned l = 0; l < kLanes; ++l) {
            const std::uint32_t want = expected(with_acc ? acc[l] : 0u, a[l], w[l]);
            ++checked;
            if (out[l] != want && wrong++ < 5)
              first += fmt::format("{:#010x} · {:#010x} + {:#010x}: {:#010x}, want {:#010x}\n",
                                   a[l], w[l], acc[l], out[l], want);
          }
        }
      linked.release();
      INFO(first);
      CHECK(wrong == 0);
      CHECK(checked > 100'000);
    }
}
