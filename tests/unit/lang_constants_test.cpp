// Numbers bound by `let` in a kernel body (docs/kernel-language.md §3): a Vector Engine operand
// may name one, and `-x` negates one (the reference's `let neg_offset = -offset;`). The expected
// operand bits are the IEEE / two's-complement encodings of the values, written out here.
#include "ir/lang/kernel.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

using namespace tujit;

namespace {

/// A whole kernel on a `dtype` stream whose Vector Engine pass is `ops`, after `lets`.
std::string kernel(const std::string& dtype, const std::string& lets, const std::string& ops) {
  return R"(use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
axes![A = 512];

#[device(chip = 1)]
pub fn k(ctx: &mut Context, input: &HbmTensor<)" +
         dtype + R"(, Chip, m![A]>) -> HbmTensor<)" + dtype + R"(, Chip, m![A]> {
    let input_dm = input.to_dm::<Cluster, m![A / 2], m![A % 2]>(&mut ctx.tdma);
)" + lets +
         R"(    let result: DmTensor<)" + dtype + R"(, Chip, Cluster, m![A / 2], m![A % 2]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![1], m![A % 2]>()
        .collect::<m![1], m![A % 2 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
)" + ops +
         R"(        .vector_final()
        .commit_trim::<m![A % 2]>()
        .commit();
    result.to_hbm(&mut ctx.tdma)
}
)";
}

/// Operand 0 of every Vector Engine call with a constant, in stage order.
std::vector<std::uint32_t> operands(const ir::Kernel& k) {
  std::vector<std::uint32_t> out;
  for (const ir::Stage& s : k.stages)
    if (s.vector && (s.vector->kind == ir::VectorCallKind::Fxp ||
                     s.vector->kind == ir::VectorCallKind::FpBinary))
      out.push_back(s.vector->operand[0]);
  return out;
}

std::set<std::string> codes(const ir::SpecAnalysis& a) {
  std::set<std::string> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) out.insert(d.code);
  return out;
}

} // namespace

TEST_CASE("let constants: an operand names a number, and -x negates it", "[lang][vector]") {
  SECTION("i32: 7, -7 and -(-7)") {
    const auto a = ir::analyze(
        SourceBuffer("i32.rs", kernel("i32", "    let c = 7;\n    let d = -c;\n    let e = -d;\n",
                                      "        .vector_fxp(FxpBinaryOp::AddFxp, d)\n"
                                      "        .vector_fxp(FxpBinaryOp::MulInt, e)\n")));
    CHECK(codes(a).empty());
    REQUIRE(a.file.kernels.size() == 1);
    CHECK(operands(a.file.kernels[0]) == std::vector<std::uint32_t>{0xFFFFFFF9u, 7u});
  }
  SECTION("f32: the reference's neg_offset, -100.0") {
    const auto a = ir::analyze(SourceBuffer(
        "f32.rs", kernel("f32",
                         "    let offset = 100.0f32;\n    let neg_offset = "
                         "-offset;\n",
                         "        .vector_fp_binary(FpBinaryOp::AddF, neg_offset)\n")));
    CHECK(codes(a).empty());
    REQUIRE(a.file.kernels.size() == 1);
    // -100.0f32 = sign 1, exponent 127 + 6, mantissa 0x480000 (1.5625 × 2^6).
    CHECK(operands(a.file.kernels[0]) == std::vector<std::uint32_t>{0xC2C80000u});
  }
  SECTION("-x of a tensor is outside the kernel language") {
    const auto a = ir::analyze(
        SourceBuffer("neg_tensor.rs", kernel("i32", "    let d = -input;\n",
                                             "        .vector_fxp(FxpBinaryOp::AddFxp, 1)\n")));
    CHECK(codes(a) == std::set<std::string>{"E-TYPE-021"});
  }
}

TEST_CASE("let constants: a negated offset runs on both engines and the oracle", "[lang][vector]") {
  testing::TempDir dir("let_constants");
  const std::string f = dir.file(
      "neg.rs", kernel("f32", "    let offset = 100.0f32;\n    let neg_offset = -offset;\n",
                       "        .vector_narrow_trim::<m![A % 2 # 4]>()\n"
                       "        .vector_fp_binary(FpBinaryOp::AddF, neg_offset)\n"
                       "        .vector_widen_pad::<m![A % 2 # 8]>()\n"));
  const auto r = testing::TujitCommand{"run"}({f, "--verify"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("jit vs interp: bit-exact") != std::string::npos);
  CHECK(r.out.find("oracle: ok") != std::string::npos);
}
