// Constant `for` loops in a kernel body (docs/kernel-language.md §3.1): a loop is unrolled into
// the stages of its iterations written out by hand, its variable read as each value; a bound that
// is not a constant, and loops past the iteration limit, are E-TYPE-028; other control flow stays
// E-PARSE-205.
#include "ir/lang/kernel.h"
#include "ir/lang/loop_unroll.h"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <set>
#include <string>

using namespace tujit;

namespace {

const std::string kHead = R"(use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

axes![M = 4, N = 8];
const TWO: usize = 2;
)";

const std::string kDm = "DmTensor<i32, Chip, Cluster, Slice, m![M, N]>";

/// A Vector Engine command multiplying `dm` by `factor` (an expression), committed to a `let`.
std::string scale(const std::string& name, const std::string& dm, const std::string& factor) {
  return fmt::format(R"(    let {}: {} = ctx
        .main
        .begin({}.view())
        .fetch::<m![M], m![N]>()
        .collect::<m![M], m![N]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::MulInt, {})
        .vector_final()
        .commit_trim::<m![N]>()
        .commit();
)",
                     name, kDm, dm, factor);
}

/// The kernel `k` with `body` between the DMA of its input and the DMA of its result.
std::string kernel(const std::string& body) {
  return kHead + R"(
#[device(chip = 1)]
pub fn k(ctx: &mut Context, a: &HbmTensor<i32, Chip, m![M, N]>) -> HbmTensor<i32, Chip, m![M, N]> {
    let r: )" +
         kDm +
         R"( = a.to_dm(&mut ctx.tdma);
)" + body +
         R"(    r.to_hbm(&mut ctx.tdma)
}
)";
}

ir::SpecAnalysis analyze(const std::string& text) {
  return ir::analyze(SourceBuffer("loops_test.rs", text));
}

std::set<std::string> codes(const ir::SpecAnalysis& a) {
  std::set<std::string> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) out.insert(d.code);
  return out;
}

/// The constant operand of every Vector Engine call of the kernel, in stage order.
std::vector<std::uint32_t> factors(const ir::Kernel& k) {
  std::vector<std::uint32_t> out;
  for (const ir::Stage& s : k.stages)
    if (s.vector && s.vector->kind == ir::VectorCallKind::Fxp) out.push_back(s.vector->operand[0]);
  return out;
}

} // namespace

TEST_CASE("loops: a constant for loop has the stages of its iterations written out",
          "[lang][loops]") {
  const auto looped = analyze(kernel("    for i in 1..4 {\n" + scale("t", "r", "i") + "    }\n"));
  REQUIRE(codes(looped).empty());
  const auto written =
      analyze(kernel(scale("t", "r", "1") + scale("t", "r", "2") + scale("t", "r", "3")));
  REQUIRE(codes(written).empty());
  const ir::Kernel& l = looped.file.kernels.at(0);
  const ir::Kernel& w = written.file.kernels.at(0);
  REQUIRE(l.stages.size() == w.stages.size());
  for (std::size_t i = 0; i < l.stages.size(); ++i) {
    INFO("stage " << i << " " << ir::stage_name(l.stages[i]));
    CHECK(l.stages[i].op == w.stages[i].op);
    CHECK(l.stages[i].producer == w.stages[i].producer);
    CHECK(l.stages[i].memory_producer == w.stages[i].memory_producer);
    CHECK(l.stages[i].chain == w.stages[i].chain);
    CHECK(ir::to_string(l.stages[i].output) == ir::to_string(w.stages[i].output));
  }
  // The loop variable is each value of the range, in order.
  CHECK(factors(l) == std::vector<std::uint32_t>{1, 2, 3});
  CHECK(factors(w) == factors(l));
  // A binding inside the loop is named by its iteration.
  std::set<std::string> bound;
  for (const ir::Stage& s : l.stages) bound.insert(s.bound_to);
  CHECK(bound.count("i=1.t"));
  CHECK(bound.count("i=3.t"));
}

TEST_CASE("loops: const bounds, nested loops, shadowing and block scope", "[lang][loops]") {
  // A `const` bound; nested loops run the inner body per outer iteration, inner index fastest.
  const auto nested = analyze(kernel("    for i in 0..TWO {\n        for j in 0..3 {\n" +
                                     scale("t", "r", "j") + "        }\n    }\n"));
  REQUIRE(codes(nested).empty());
  CHECK(factors(nested.file.kernels.at(0)) == std::vector<std::uint32_t>{0, 1, 2, 0, 1, 2});
  // A `let` of the loop variable's name hides it for the rest of the iteration: the second call's
  // operand is then the bound number 7, not the loop's value (as in Rust).
  const auto other = analyze(kernel("    for i in 0..2 {\n" + scale("t", "r", "i") +
                                    "        let j = 7;\n" + scale("u", "t", "i") + "    }\n"));
  REQUIRE(codes(other).empty());
  CHECK(factors(other.file.kernels.at(0)) == std::vector<std::uint32_t>{0, 0, 1, 1});
  const auto shadowed = analyze(kernel("    for i in 0..2 {\n" + scale("t", "r", "i") +
                                       "        let i = 7;\n" + scale("u", "t", "i") + "    }\n"));
  REQUIRE(codes(shadowed).empty());
  CHECK(factors(shadowed.file.kernels.at(0)) == std::vector<std::uint32_t>{0, 7, 1, 7});
  // A binding made inside the loop is gone after it.
  const auto scoped = analyze(kernel("    for i in 0..2 {\n" + scale("t", "r", "i") + "    }\n" +
                                     "    let z = t.view();\n"));
  CHECK(codes(scoped).count("E-TYPE-017"));
  // An empty range runs nothing.
  const auto empty = analyze(kernel("    for i in 3..1 {\n" + scale("t", "r", "i") + "    }\n"));
  REQUIRE(codes(empty).empty());
  CHECK(factors(empty.file.kernels.at(0)).empty());
}

TEST_CASE("loops: a bound may be a constant expression", "[lang][loops]") {
  // M::SIZE = 4, TWO = 2: (4 / 2 + 3 * 2 - 1) % 5 = 7 % 5 = 2, so values 1 .. 2 - 1 and
  // (M::SIZE - TWO) = 2 .. (TWO * 2) = 4.
  const auto a = analyze(kernel("    for i in 1..((M::SIZE / TWO + 3 * 2 - 1) % 5) {\n" +
                                scale("t", "r", "i") + "    }\n"));
  REQUIRE(codes(a).empty());
  CHECK(factors(a.file.kernels.at(0)) == std::vector<std::uint32_t>{1});
  const auto b = analyze(
      kernel("    for i in (M::SIZE - TWO)..(TWO * 2) {\n" + scale("t", "r", "i") + "    }\n"));
  REQUIRE(codes(b).empty());
  CHECK(factors(b.file.kernels.at(0)) == std::vector<std::uint32_t>{2, 3});
  for (const char* bad : {"(TWO / 0)", "(TWO - 3)", "(Q::SIZE)", "(TWO + n)", "(TWO 2)"}) {
    INFO(bad);
    CHECK(codes(analyze(kernel(std::string("    for i in 0..") + bad + " {\n    }\n"))) ==
          std::set<std::string>{"E-TYPE-028"});
  }
}

TEST_CASE("loops: E-TYPE-028 for a bound that is not a constant and past the limit",
          "[lang][loops]") {
  const auto param = analyze(kernel("    for i in 0..n {\n" + scale("t", "r", "i") + "    }\n"));
  CHECK(codes(param) == std::set<std::string>{"E-TYPE-028"});
  const auto limit = fmt::format("{}", ir::lang::kMaxLoopIterations);
  const auto at_limit = analyze(kernel("    for i in 0.." + limit + " {\n    }\n"));
  CHECK(codes(at_limit).empty());
  const auto over = fmt::format("{}", ir::lang::kMaxLoopIterations + 1);
  CHECK(codes(analyze(kernel("    for i in 0.." + over + " {\n    }\n"))) ==
        std::set<std::string>{"E-TYPE-028"});
  // 65 × 65 = 4225 iterations of the inner body (plus the outer 65), past 4096 in all: reported
  // once, not once per outer iteration.
  const auto nested =
      analyze(kernel("    for i in 0..65 {\n        for j in 0..65 {\n        }\n    }\n"));
  std::size_t n = 0;
  for (const auto& d : nested.diagnostics) n += d.code == "E-TYPE-028";
  CHECK(n == 1);
}

TEST_CASE("loops: other control flow and other ranges stay refused", "[lang][loops]") {
  CHECK(codes(analyze(kernel("    while true {\n    }\n"))).count("E-PARSE-205"));
  CHECK(codes(analyze(kernel("    loop {\n    }\n"))).count("E-PARSE-205"));
  CHECK(codes(analyze(kernel("    for i in 0..=2 {\n    }\n"))).count("E-PARSE-203"));
  CHECK(codes(analyze(kernel("    for i in v {\n    }\n"))).count("E-PARSE-203"));
}
