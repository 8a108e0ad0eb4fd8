// The JIT's fast paths against the reference interpreter, bit for bit ("[jit]"): packets whose
// padding cells form no code (K in Time: one live cell of 16), flits read with one vector load and
// widened as a vector (bf16 and i8 M in Time; f8 through its table, with FMA), integer packets as
// i16 pair multiply-adds (i4, i5, i8, i9), one and two workers, adversarial operands (NaN, ±inf,
// ±0, subnormals, f8 exponent extremes, integer extremes) and ftz_results on and off. The code's
// shape is checked on the optimised LLVM IR.
#include "tests/unit/jit_test_support.h"

#include "codegen/host_target.h"
#include "codegen/native_compiler.h"

#include <string_view>

using namespace tujit;
using namespace tujit::testing::jit;

namespace {

// The book's batched matmul with K walked in Time, one element per packet of `fe` cells
// (docs/contraction.md §11 ex 1).
std::string k_in_time(std::uint64_t k, const char* dtype, const char* acc, unsigned fe) {
  return fmt::format(
      "use furiosa_opt_std::prelude::*;\naxes![V = 32, M = 32, N = 8, K = {0}];\n"
      "fn k_in_time<'l, const T: Tu>(\n"
      "  input: CollectTensor<'l, T, {1}, m![1], m![M / 16], m![M % 16, V % 16], m![V / 16, K], "
      "m![1 # {3}]>,\n"
      "  trf: &TrfTensor<{1}, m![1], m![M / 16], m![M % 16, V % 16], m![N], m![K]>,\n"
      ") -> ContractTensor<'l, T, {2}, m![1], m![M / 16], m![M % 16, V % 16], m![V / 16], m![N]> "
      "{{\n"
      "  input.contract_outer::<m![V / 16, K], m![1 # {3}], _, _, _>(trf)\n"
      "    .contract_packet::<m![1]>()\n"
      "    .contract_time::<m![V / 16]>()\n"
      "    .contract_lane::<m![V / 16], m![N]>(LaneMode::Interleaved)\n}}\n",
      k, dtype, acc, fe);
}

// The book's batched matmul with M in Time, K (here Z, so that a chain run's tensors, whose axes
// are in name order, hold it innermost) split into Time digits of one packet of `op` elements
// (docs/contraction.md §11 ex 2).
std::string m_in_time(const char* dtype, const char* acc, unsigned fe, unsigned op) {
  return fmt::format(
      "use furiosa_opt_std::prelude::*;\naxes![V = 32, M = 8, N = 8, Z = 128];\n"
      "fn m_in_time<'l, const T: Tu>(\n"
      "  input: CollectTensor<'l, T, {0}, m![1], m![V / 16], m![V % 16 # 256], m![M, Z / {2}], "
      "m![Z % {2}]>,\n"
      "  trf: &TrfTensor<{0}, m![1], m![V / 16], m![V % 16 # 256], m![N], m![Z]>,\n"
      ") -> ContractTensor<'l, T, {1}, m![1], m![V / 16], m![V % 16 # 256], m![M], m![N]> {{\n"
      "  input.contract_outer::<m![M, Z / {3}], m![Z % {3}], _, _, _>(trf)\n"
      "    .contract_packet::<m![1]>()\n"
      "    .contract_time::<m![M]>()\n"
      "    .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)\n}}\n",
      dtype, acc, fe, op);
}

std::string optimised_ir(const ir::seq::ContractionProgram& p) {
  auto text = codegen::emit_llvm_ir(testing::chain_run_of(p).program, false);
  REQUIRE(text.ok());
  return *text;
}

std::size_t occurrences(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Runs `p` on both engines for a few seeds, 1 and 2 workers, ftz_results off and (f32) on.
void check_against_interpreter(ir::seq::ContractionProgram p, std::uint64_t seed) {
  for (const bool ftz : {false, true}) {
    if (ftz && p.accumulator != ir::ScalarType::F32) continue;
    p.ftz_results = ftz;
    const auto compiled = compile(p);
    for (int round = 0; round < 2; ++round) {
      const Operands o = operands_for(p, seed + static_cast<std::uint64_t>(round));
      for (unsigned threads : {1u, 2u}) {
        INFO("ftz " << ftz << ", round " << round << ", threads " << threads);
        CHECK(jit_vs_interp(*compiled, p, o, threads) == 0);
      }
    }
  }
}

} // namespace

TEST_CASE("jit fast paths: K in Time forms one product per packet, no tree", "[jit]") {
  // 15 of the 16 cells of every packet are padding (docs/contraction.md §9.4: products that touch
  // padding are absent), so each cycle is one multiply and the Time Reducer's add.
  for (const auto& [dtype, acc, fe, mul, add] :
       {std::tuple{"bf16", "f32", 16u, " fmul <8 x float>", " fadd <8 x float>"},
        std::tuple{"i8", "i32", 32u, " mul <8 x i32>", " add <8 x i32>"}}) {
    INFO(dtype);
    const ir::seq::ContractionProgram p = lowered(k_in_time(64, dtype, acc, fe));
    const std::string ir = optimised_ir(p);
    CHECK(occurrences(ir, mul) == 1);
    CHECK(occurrences(ir, add) == 1);
    check_against_interpreter(p, 31);
  }
}

TEST_CASE("jit fast paths: a flit of consecutive cells is one vector load widened as a vector",
          "[jit]") {
  // bf16 widens by widen_bf16 in select form, i8 by sign extension (on a VNNI host not at all:
  // four raw bytes at a time are one operand of a byte multiply-add); f8 (no arithmetic widening)
  // keeps its 256-entry table, and its products are exact so the first tree level is an FMA
  // where the host has one.
  const char* f8_product = codegen::host_target().fma ? "@llvm.fma" : " fmul <8 x float>";
  const codegen::HostDot& dot = codegen::native_host_dot();
  const bool quads = dot.vnni || dot.vnni512;
  for (const auto& [dtype, acc, fe, op, load, widen] :
       {std::tuple{"bf16", "f32", 16u, 32u, "load <16 x i16>", "zext <16 x i16>"},
        std::tuple{"i8", "i32", 32u, 64u,
                   dot.vnni512 ? "load i64, ptr"
                   : quads     ? "load i32, ptr"
                               : "load <32 x i8>",
                   dot.vnni512 ? "@llvm.x86.avx512.vpdpbusd.512"
                   : quads     ? "@llvm.x86.avx512.vpdpbusd.256"
                               : "sext <32 x i8>"},
        std::tuple{"f8e4m3", "f32", 32u, 64u, "@stream_widen", f8_product}}) {
    INFO(dtype);
    const ir::seq::ContractionProgram p = lowered(m_in_time(dtype, acc, fe, op));
    const std::string ir = optimised_ir(p);
    CHECK(occurrences(ir, load) >= 1);
    CHECK(occurrences(ir, widen) >= 1);
    // Each bf16 cell reaches the lanes by one cross-lane permute of its widened flit, which stays
    // in registers (no store and reload): with 16 f32 lanes two cells, j and j + 16, share one
    // permute (contraction_emit.cpp, HALF PACKETS), whose TRF rows are one stack copy.
    const bool bf16 = std::string_view(dtype) == "bf16";
    if (bf16 && dot.avx512f)
      CHECK(occurrences(ir, "@llvm.x86.avx512.permvar.sf.512(") >= 16);
    else if (bf16 && codegen::host_target().avx2)
      CHECK(occurrences(ir, "@llvm.x86.avx2.permps(") >= 32);
    CHECK(occurrences(ir, "alloca") == (bf16 && dot.avx512f ? 1 : 0));
    check_against_interpreter(p, 57);
  }
}

TEST_CASE("jit fast paths: f32 columns of 8 cells pair cell j with j + 4 on 16 lanes", "[jit]") {
  // Flits of 12 live cells padded to 16 in the stream and the TRF (docs/contraction.md §9.4), four
  // columns of 8 cells: in the second column of each flit, cells 8–11 are live and 12–15 padding,
  // so each 16-lane vector (contraction_emit.cpp, HALF PACKETS) has a present half and an absent
  // one, whose identity must leave the present half's tree as the interpreter's.
  {
    const char *dtype = "bf16", *acc = "f32";
    const std::string spec = fmt::format(
        "use furiosa_opt_std::prelude::*;\naxes![V = 32, M = 8, N = 8, A = 4, B = 2, Z = 12];\n"
        "fn cols<'l, const T: Tu>(\n"
        "  input: CollectTensor<'l, T, {0}, m![1], m![V / 16], m![V % 16 # 256], m![M, A, B], "
        "m![Z # 16]>,\n"
        "  trf: &TrfTensor<{0}, m![1], m![V / 16], m![V % 16 # 256], m![N], m![A, B, Z # 16]>,\n"
        ") -> ContractTensor<'l, T, {1}, m![1], m![V / 16], m![V % 16 # 256], "
        "m![M, B, Z # 16 / 8], m![N]> {{\n"
        "  input.contract_outer::<m![M, A], m![B, Z # 16], _, _, _>(trf)\n"
        "    .contract_packet::<m![B, Z # 16 / 8]>()\n"
        "    .contract_time::<m![M]>()\n"
        "    .contract_lane::<m![M, B, Z # 16 / 8], m![N]>(LaneMode::Interleaved)\n}}\n",
        dtype, acc);
    const ir::seq::ContractionProgram p = lowered(spec);
    CHECK(p.columns == 4);
    CHECK(p.group == 8);
    if (codegen::native_host_dot().avx512f)
      CHECK(occurrences(optimised_ir(p), "@llvm.x86.avx512.permvar.sf.512(") >= 1);
    check_against_interpreter(p, 91);
  }
}

TEST_CASE("jit fast paths: integer packets are i16 pair multiply-adds in any order", "[jit]") {
  // Integer products and sums are exact mod 2^32 in any order (docs/contraction.md §9.1): each pair
  // of adjacent cells is one multiply-add (codegen/pair_madd.h) on the TRF staged as i16 pairs,
  // the host's VNNI / AVX2 instruction where it has one; on a VNNI host, one-byte operands (i4, i5,
  // i8) go four cells at a time instead, eight on AVX512-VNNI (codegen/quad_madd.h, the TRF staged
  // as byte quads / octets).
  // Operands at their extremes (half of the draws) make every product large.
  const codegen::HostDot host = codegen::host_dot(codegen::native_target()->features);
  for (const auto& [dtype, fe, op] : {std::tuple{"i8", 32u, 64u}, std::tuple{"i4", 64u, 128u},
                                      std::tuple{"i5", 64u, 128u}, std::tuple{"i9", 32u, 64u}}) {
    INFO(dtype);
    const bool bytes = std::string_view(dtype) != "i9";
    const char* madd = host.vnni512 && bytes ? "@llvm.x86.avx512.vpdpbusd.512"
                       : host.vnni && bytes  ? "@llvm.x86.avx512.vpdpbusd.256"
                       : host.vnni           ? "@llvm.x86.avx512.vpdpwssd.256"
                       : host.avx2           ? "@llvm.x86.avx2.pmadd.wd"
                                             : " mul <16 x i32>";
    const ir::seq::ContractionProgram p = lowered(m_in_time(dtype, "i32", fe, op));
    const std::string ir = optimised_ir(p);
    CHECK(occurrences(ir, madd) >= 1);
    CHECK(occurrences(ir, " mul <8 x i32>") == 0);
    check_against_interpreter(p, 73);
  }
}
