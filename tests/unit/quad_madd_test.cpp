// The byte-quad multiply-add of integer contractions (codegen/quad_madd.h), generated on 8 and 16
// lanes for every instruction choice the host can run (VNNI vpdpbusd, plain IR), against the sum of
// the four unsigned × signed byte products computed here in 64 bits and reduced mod 2^32 ("[jit]"):
// every byte at the extremes (255 · -128 four times is the largest sum in magnitude), the staged
// forms of the i4, i5 and i8 extremes (w + 128), random words, with accumulators at the i32 limits.
// Then the quad staging's offset trick itself: Σ (w + 128)·x − Σ 128·x through the generated
// code equals Σ w·x for every pair of i8 values.
#include "codegen/native_compiler.h"
#include "codegen/quad_madd.h"
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

constexpr unsigned kLanes = 16; // the buffers' size; the function reads `lanes` of them

/// `void tujit_quad_madd(const i32* acc, const i32* u, const i32* s, i32* out)`, `lanes` each;
/// `with_acc` = false: out = dot(u, s).
using DotFn = void (*)(const std::uint32_t*, const std::uint32_t*, const std::uint32_t*,
                       std::uint32_t*);

codegen::LinkedFunction compile(const codegen::HostDot& host, unsigned lanes, bool with_acc,
                                std::shared_ptr<codegen::JitSession>& session) {
  auto target = codegen::native_target();
  REQUIRE(target);
  llvm::LLVMContext ctx;
  auto module = std::make_unique<llvm::Module>("quad_madd", ctx);
  llvm::IRBuilder<> b(ctx);
  llvm::Type* ptr = b.getPtrTy();
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, ptr}, false);
  auto* f =
      llvm::Function::Create(fty, llvm::GlobalValue::ExternalLinkage, "tujit_quad_madd", *module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  auto* vt = llvm::FixedVectorType::get(b.getInt32Ty(), lanes);
  const auto load = [&](unsigned i) {
    return b.CreateAlignedLoad(vt, f->getArg(i), llvm::Align(4));
  };
  llvm::Value* r =
      codegen::emit_quad_madd(b, *module, host, with_acc ? load(0) : nullptr, load(1), load(2));
  b.CreateAlignedStore(r, f->getArg(3), llvm::Align(4));
  b.CreateRetVoid();
  return testing::link_module(*module, *target, "tujit_quad_madd", session);
}

/// acc + Σ_j u_j·s_j mod 2^32, u_j the unsigned and s_j the signed bytes of the words.
std::uint32_t expected(std::uint32_t acc, std::uint32_t u, std::uint32_t s) {
  std::int64_t sum = 0;
  for (unsigned j = 0; j < 4; ++j)
    sum += static_cast<std::int64_t>((u >> (8 * j)) & 0xFFu) *
           static_cast<std::int64_t>(static_cast<std::int8_t>(s >> (8 * j)));
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(acc) +
                                    static_cast<std::uint64_t>(sum));
}

std::vector<std::uint32_t> operand_words() {
  std::vector<std::uint32_t> bytes = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
  for (std::int32_t bits : {4, 5, 8}) { // i4, i5, i8 extremes, raw and staged (+128)
    for (std::int32_t v : {-(1 << (bits - 1)), (1 << (bits - 1)) - 1}) {
      bytes.push_back(static_cast<std::uint32_t>(v) & 0xFFu);
      bytes.push_back((static_cast<std::uint32_t>(v) & 0xFFu) ^ 0x80u);
    }
  }
  std::vector<std::uint32_t> out;
  for (std::uint32_t a : bytes)
    for (std::uint32_t b : bytes) out.push_back(a * 0x01010101u ^ (b << 8) ^ (b << 24));
  std::mt19937 rng(31u);
  for (int i = 0; i < 2000; ++i) out.push_back(static_cast<std::uint32_t>(rng()));
  return out;
}

/// Each instruction choice the host can run, with its vector width.
std::vector<std::pair<codegen::HostDot, unsigned>> host_choices() {
  const codegen::HostDot host = codegen::host_dot(codegen::native_target()->features);
  std::vector<std::pair<codegen::HostDot, unsigned>> choices = {{codegen::HostDot{}, 8},
                                                                {codegen::HostDot{}, 16}};
  if (host.vnni) choices.push_back({codegen::HostDot{true, true, false}, 8});
  if (host.vnni512) choices.push_back({codegen::HostDot{true, host.vnni, true}, 16});
  return choices;
}

} // namespace

TEST_CASE("byte quad multiply-add: every host instruction choice wraps mod 2^32 exactly", "[jit]") {
  const std::vector<std::uint32_t> words = operand_words();
  const std::uint32_t accs[] = {0u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x7FFF0000u};
  for (const auto& [choice, lanes] : host_choices())
    for (const bool with_acc : {false, true}) {
      INFO("vnni " << choice.vnni << ", vnni512 " << choice.vnni512 << ", lanes " << lanes
                   << ", accumulator " << with_acc);
      std::shared_ptr<codegen::JitSession> session;
      const codegen::LinkedFunction linked = compile(choice, lanes, with_acc, session);
      const auto fn = linked.as<DotFn>();
      std::size_t wrong = 0, checked = 0;
      std::string first;
      std::uint32_t acc[kLanes], u[kLanes], s[kLanes], out[kLanes];
      for (std::size_t i = 0; i < words.size(); ++i)
        for (std::size_t j0 = 0; j0 < words.size(); j0 += lanes * 7) {
          for (unsigned l = 0; l < lanes; ++l) {
            s[l] = words[i];
            u[l] = words[(j0 + l) % words.size()];
            acc[l] = accs[(i + l) % 5];
          }
          fn(acc, u, s, out);
          for (unsigned l = 0; l < lanes; ++l) {
            const std::uint32_t want = expected(with_acc ? acc[l] : 0u, u[l], s[l]);
            ++checked;
            if (out[l] != want && wrong++ < 5)
              first += fmt::format("{:#010x} · {:#010x} + {:#010x}: {:#010x}, want {:#010x}\n",
                                   u[l], s[l], acc[l], out[l], want);
          }
        }
      linked.release();
      INFO(first);
      CHECK(wrong == 0);
      CHECK(checked > 100'000);
    }
}

TEST_CASE("byte quad multiply-add: (w + 128)·x − 128·x is w·x for every pair of i8 values",
          "[jit]") {
  // The TRF staged as w + 128 (runtime/exec/operand_staging.h, byte quads) and the correction
  // the generated code subtracts, both through the instruction under test, for all 256 × 256
  // (w, x) pairs, one pair per quad byte (the other bytes 0), summed mod 2^32 against Σ w·x.
  for (const auto& [choice, lanes] : host_choices()) {
    INFO("vnni " << choice.vnni << ", vnni512 " << choice.vnni512 << ", lanes " << lanes);
    std::shared_ptr<codegen::JitSession> session;
    const codegen::LinkedFunction linked = compile(choice, lanes, false, session);
    const auto fn = linked.as<DotFn>();
    std::size_t wrong = 0;
    std::uint32_t u[kLanes], s[kLanes], bias[kLanes], dot[kLanes], fix[kLanes];
    for (unsigned l = 0; l < kLanes; ++l) bias[l] = 0x80808080u;
    for (int w = -128; w < 128; ++w)
      for (int x0 = -128; x0 < 128; x0 += static_cast<int>(lanes)) {
        for (unsigned l = 0; l < lanes; ++l) {
          const unsigned byte = (static_cast<unsigned>(w) + l) % 4;
          u[l] = 0x80808080u ^ ((static_cast<std::uint32_t>(w) & 0xFFu) << (8 * byte));
          s[l] = (static_cast<std::uint32_t>(x0 + static_cast<int>(l)) & 0xFFu) << (8 * byte);
        }
        fn(nullptr, u, s, dot);
        fn(nullptr, bias, s, fix);
        for (unsigned l = 0; l < lanes; ++l) {
          const auto want = static_cast<std::uint32_t>(w * (x0 + static_cast<int>(l)));
          if (dot[l] - fix[l] != want) ++wrong;
        }
      }
    linked.release();
    CHECK(wrong == 0);
  }
}
