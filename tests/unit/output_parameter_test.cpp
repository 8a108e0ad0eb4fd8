// A whole kernel that writes its result into an output parameter (`out: &mut HbmTensor<…>`,
// `x.view().to_hbm_view(&mut ctx.tdma, out.view_mut())`, docs/kernel-language.md §6) runs as the
// same kernel returning `x.to_hbm::<…>(&mut ctx.tdma)` does; a run takes one such result.
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tujit;

namespace {

const std::string kHeader = R"(use furiosa_opt_std::prelude::*;

axes![A = 8, B = 16];

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

)";

// HBM → DM → fetch → collect → commit, then the result back to HBM: written into `output`, or
// returned.
const std::string kBody = R"(
    let input_dm = input.to_dm::<Cluster, Slice, m![A, B]>(&mut ctx.tdma);
    let result: DmTensor<bf16, Chip, Cluster, Slice, m![A, B]> = ctx
        .main
        .begin(input_dm.view())
        .fetch::<m![A], m![B]>()
        .collect::<m![A], m![B]>()
        .commit_trim::<m![B]>()
        .commit();
)";

std::string written(const std::string& params, const std::string& writes) {
  return kHeader + "#[device(chip = 1)]\npub fn k(\n    ctx: &mut Context,\n    input: " +
         "&HbmTensor<bf16, Chip, m![A, B]>,\n" + params + ") {" + kBody + writes + "}\n";
}

const std::string kOut = "    output: &mut HbmTensor<bf16, Chip, m![B, A]>,\n";
const std::string kWrite = "    result.view().to_hbm_view(&mut ctx.tdma, output.view_mut());\n";

std::string sha256_of(const std::string& out) {
  const auto at = out.find("sha256 ");
  return at == std::string::npos ? std::string() : out.substr(at + 7, 64);
}

} // namespace

TEST_CASE("output parameter: to_hbm_view runs as the returned to_hbm does",
          "[run][dma][output-parameter]") {
  testing::TempDir dir("output_parameter");
  const std::string by_param = dir.file("param.rs", written(kOut, kWrite));
  const std::string returned =
      dir.file("returned.rs",
               kHeader + "#[device(chip = 1)]\npub fn k(\n    ctx: &mut Context,\n    input: " +
                   "&HbmTensor<bf16, Chip, m![A, B]>,\n) -> HbmTensor<bf16, Chip, m![B, A]> {" +
                   kBody + "    result.to_hbm::<m![B, A]>(&mut ctx.tdma)\n}\n");
  const testing::TujitCommand run{"run"};
  const auto a = run({by_param, "--verify", "--seed", "7"});
  const auto b = run({returned, "--seed", "7"});
  INFO(a.out << a.err << b.out << b.err);
  REQUIRE(a.status == 0);
  REQUIRE(b.status == 0);
  CHECK(a.out.find("jit vs interp: bit-exact") != std::string::npos);
  CHECK(a.out.find("oracle: ok (max abs err 0, 0 mismatches)") != std::string::npos);
  REQUIRE(sha256_of(a.out).size() == 64);
  CHECK(sha256_of(a.out) == sha256_of(b.out));
  // The output parameter is written, not read: it is not an input.
  const auto in = run({by_param, "--input", "output=" + dir.file("none.npy")});
  CHECK(in.status != 0);
  CHECK(in.err.find("has no input parameter 'output'; its inputs are: input") != std::string::npos);
  // The schedule has the write as the last DMA command.
  const auto cycles = testing::TujitCommand{"cycles"}({by_param});
  INFO(cycles.err);
  CHECK(cycles.status == 0);
  CHECK(cycles.out.find("result → to_hbm") != std::string::npos);
}

TEST_CASE("output parameter: an HBM → HBM to_hbm_view moves the parameter",
          "[run][dma][output-parameter]") {
  testing::TempDir dir("output_parameter_hbm");
  const std::string f = dir.file(
      "copy.rs", kHeader +
                     "#[device(chip = 1)]\npub fn copy(\n    ctx: &mut Context,\n    input: "
                     "&HbmTensor<bf16, Chip, m![A, B]>,\n" +
                     kOut +
                     ") {\n    input.view().to_hbm_view(&mut ctx.tdma, output.view_mut());\n}\n");
  const auto r = testing::TujitCommand{"run"}({f, "--verify"});
  INFO(r.out << r.err);
  CHECK(r.status == 0);
  CHECK(r.out.find("jit vs interp: bit-exact") != std::string::npos);
  CHECK(r.out.find("oracle: ok") != std::string::npos);
}

TEST_CASE("output parameter: a run takes one result", "[run][dma][output-parameter]") {
  testing::TempDir dir("output_parameter_refused");
  const testing::TujitCommand run{"run"}, check{"check"};
  struct Case {
    const char* name;
    std::string text;
    const char* message;
  };
  const std::string out2 = "    out2: &mut HbmTensor<bf16, Chip, m![A, B]>,\n";
  const Case cases[] = {
      {"two.rs",
       written(kOut + out2,
               kWrite + "    result.view().to_hbm_view(&mut ctx.tdma, out2.view_mut());\n"),
       "kernel `k` writes 2 output parameters (`output`, `out2`); a run takes one result"},
      {"early.rs",
       written(kOut, kWrite + "    let again = input.to_dm::<Cluster, Slice, m![A, B]>(&mut "
                              "ctx.tdma);\n"),
       "kernel `k` writes the output parameter `output` before its last statement"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const std::string f = dir.file(c.name, c.text);
    // Checked as the reference writes it; run refuses it with the reason.
    const auto ok = check({f});
    INFO(ok.out << ok.err);
    CHECK(ok.status == 0);
    const auto r = run({f});
    INFO(r.err);
    CHECK(r.status != 0);
    CHECK(r.err.find("error[E-RUN-110]") != std::string::npos);
    CHECK(r.err.find(c.message) != std::string::npos);
  }
}
