// The JIT against the reference interpreter, bit for bit ("[jit]"): every kernel of specs/*.rs
// and specs/derived/*.rs that lower_contraction accepts, on adversarial operands (NaN, ±inf, ±0,
// subnormals, inexact sums, integer extremes), in plain and checked mode; thread-count
// invariance; i32 wrap-around against an independently computed value.
#include "tests/support/corpus_programs.h"
#include "tests/unit/jit_test_support.h"

#include <filesystem>

namespace fs = std::filesystem;
using namespace tujit;
using namespace tujit::testing::jit;

TEST_CASE("jit corpus: every spec kernel matches the interpreter bit for bit", "[jit]") {
  const auto programs = testing::corpus_programs();
  CHECK(programs.size() >= 20);
  std::uint64_t seed = 100;
  for (const auto& p : programs) {
    INFO(p.kernel_name);
    const auto compiled = compile(p);
    for (int round = 0; round < 3; ++round) {
      const Operands o = operands_for(p, ++seed);
      CHECK(jit_vs_interp(*compiled, p, o) == 0);
    }
  }
}

TEST_CASE("jit corpus: checked mode finds no violation on any spec kernel", "[jit]") {
  std::uint64_t seed = 900;
  for (const auto& p : testing::corpus_programs()) {
    INFO(p.kernel_name);
    const Operands o = operands_for(p, ++seed);
    CHECK(jit_vs_interp(p, o, /*checked=*/true) == 0);
  }
}

TEST_CASE("jit: results are identical for 1, 2, 3 and 7 threads", "[jit]") {
  std::uint64_t seed = 7000;
  std::size_t multi_slice = 0;
  for (const auto& p : testing::corpus_programs()) {
    std::uint64_t live = 0;
    for (auto s : p.spatial_live) live += s;
    if (live < 3) continue;
    ++multi_slice;
    INFO(p.kernel_name);
    const Operands o = operands_for(p, ++seed);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(p, o.stream, o.trf);
    const auto compiled = compile(in.run.program);
    codegen::JitRunOptions one;
    one.threads = 1;
    auto base = codegen::run_contraction_jit(*compiled, in.run.program, in.inputs(), one);
    REQUIRE(base.ok());
    for (unsigned t : {2u, 3u, 7u, 0u}) {
      codegen::JitRunOptions ro;
      ro.threads = t;
      auto r = codegen::run_contraction_jit(*compiled, in.run.program, in.inputs(), ro);
      REQUIRE(r.ok());
      CHECK(differences(*base, *r) == 0);
    }
  }
  CHECK(multi_slice >= 3);
}

TEST_CASE("jit: i32 accumulation wraps around like two's complement", "[jit]") {
  // i9 × i9: (-256)·(-256) = 2^16 per product, 32 products per packet, T packets. The exact sum
  // 2^21·T wraps modulo 2^32 (computed here in u64, independent of either engine).
  for (std::uint64_t t : {1024u, 1025u, 2048u + 3u}) {
    const std::string spec =
        fmt::format("use furiosa_opt_std::prelude::*;\naxes![T = {}, K = 32];\n"
                    "fn wrap<'l, const U: Tu>(\n"
                    "  input: CollectTensor<'l, U, i9, m![1], m![1], m![1], m![T], m![K]>,\n"
                    "  trf: &TrfTensor<i9, m![1], m![1], m![1], m![1], m![T, K]>,\n"
                    ") -> ContractTensor<'l, U, i32, m![1], m![1], m![1], m![1], m![1 # 8]> {{\n"
                    "  input.contract_outer::<m![T], m![K], _, _, _>(&trf)\n"
                    "    .contract_packet::<m![1]>()\n"
                    "    .contract_time::<m![1]>()\n"
                    "    .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)\n}}\n",
                    t);
    const ir::seq::ContractionProgram p = lowered(spec);
    Operands o = operands_for(p, t);
    for (auto* img : {&o.stream, &o.trf})
      for (std::size_t i = 0; i < img->bits.size(); ++i)
        if (img->state[i] == CellState::Live) img->bits[i] = static_cast<std::uint32_t>(-256);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(p, o.stream, o.trf);
    const auto compiled = compile(in.run.program);
    auto r = codegen::run_contraction_jit(*compiled, in.run.program, in.inputs());
    REQUIRE(r.ok());
    const auto want = static_cast<std::uint32_t>((std::uint64_t{1} << 21) * t);
    REQUIRE(r->output.elements() == 1);
    CHECK(r->output.get(0) == want);
    CHECK(jit_vs_interp(*compiled, p, o) == 0);
  }
}

TEST_CASE("jit corpus: ftz_results flushes like the interpreter on every f32 kernel", "[jit]") {
  // docs/contraction.md §9.3: with the switch on, every subnormal product and sum becomes a signed
  // zero. The adversarial values include raw codes of every exponent, and a third round of tiny
  // bf16 values makes products and sums below 2^-126 common.
  std::uint64_t seed = 5000, f32_kernels = 0, flushed_somewhere = 0;
  for (auto p : testing::corpus_programs()) {
    if (p.accumulator != ir::ScalarType::F32) continue;
    INFO(p.kernel_name);
    p.ftz_results = true;
    const auto compiled = compile(p);
    for (int round = 0; round < 3; ++round) {
      Operands o = operands_for(p, ++seed);
      if (round == 2 && p.stream_type == ir::ScalarType::BF16) {
        // Tiny bf16 values 2^-69 .. 2^-61: their products lie around 2^-126, many subnormal
        // (f8 products are never subnormal: ≥ 2^-32).
        std::mt19937_64 rng(seed);
        for (auto* img : {&o.stream, &o.trf})
          for (std::size_t i = 0; i < img->bits.size(); ++i)
            if (img->state[i] == CellState::Live)
              img->bits[i] = static_cast<std::uint32_t>(
                  ((rng() & 1u) << 15) | ((58u + rng() % 9u) << 7) | (rng() & 0x7Fu));
      }
      CHECK(jit_vs_interp(*compiled, p, o) == 0);
      // The switch matters on these operands for some kernel (else the test proves nothing).
      ir::seq::ContractionProgram ieee = p;
      ieee.ftz_results = false;
      auto a = testing::interp::run_images(p, o.stream, o.trf);
      auto b = testing::interp::run_images(ieee, o.stream, o.trf);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      flushed_somewhere += a->output.bits != b->output.bits;
    }
    ++f32_kernels;
  }
  CHECK(f32_kernels >= 10);
  CHECK(flushed_somewhere > 0);
}
