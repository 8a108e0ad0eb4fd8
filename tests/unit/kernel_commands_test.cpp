// A whole kernel's commands that hand each other DmTensors (docs/kernels.md §3): the split into
// commands (ir/seq/kernel_commands.h), and `tujit run` over them, each output checked against a
// brute-force computation written here on the inputs the run saved.
#include "ir/lang/kernel.h"
#include "ir/seq/kernel_commands.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/float_bits.h"
#include "tests/support/checked.h"
#include "tests/support/saved_run.h"
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

ir::SpecFile analyze(const std::string& name, const std::string& text) {
  auto file = ir::analyze_spec(SourceBuffer(name, text));
  REQUIRE(file.ok());
  REQUIRE(file->kernels.size() == 1);
  REQUIRE(file->kernels[0].ok);
  return std::move(*file);
}

ir::SpecFile load(const std::string& rel) {
  auto file = ir::load_spec(source_path(rel));
  REQUIRE(file.ok());
  return std::move(*file);
}

std::vector<ir::seq::KernelCommand> split(const ir::Kernel& k) {
  auto commands = ir::seq::split_commands(testing::checked(k));
  REQUIRE(commands.ok());
  REQUIRE(commands->has_value());
  return std::move(**commands);
}

std::vector<std::string> ops(const ir::Kernel& k) {
  std::vector<std::string> v;
  for (const ir::Stage& s : k.stages) v.emplace_back(ir::stage_name(s));
  return v;
}

const ir::KernelParam* param(const ir::Kernel& k, const std::string& name) {
  for (const ir::KernelParam& p : k.params)
    if (p.name == name) return &p;
  return nullptr;
}

/// An i8 contraction r[M, N] = Σ_K a·b committed as i32 (the trim keeps N < 4), then a second
/// command that reads `r` through `read` (a DmTensor name) and multiplies it by 3 in the Vector
/// Engine. `between` goes between the two commands.
std::string contract_then_scale(const std::string& between, const std::string& read,
                                const std::string& r_name = "r") {
  return R"(use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];

axes![M = 4, N = 8, K = 32];

#[device(chip = 1)]
pub fn contract_then_scale(
    ctx: &mut Context,
    a: &HbmTensor<i8, Chip, m![M, K]>,
    b: &HbmTensor<i8, Chip, m![N, K]>,
) -> HbmTensor<i32, Chip, m![M, N = 4]> {
    let a: DmTensor<i8, Chip, Cluster, Slice, m![M, K]> = a.to_dm(&mut ctx.tdma);
    let b: DmTensor<i8, Chip, Cluster, Slice, m![N, K]> = b.to_dm(&mut ctx.tdma);
    let trf: TrfTensor<i8, Chip, Cluster, Slice, m![N], m![K]> = ctx
        .sub
        .begin(b.view())
        .fetch::<m![N], m![K]>()
        .collect::<m![N], m![K]>()
        .to_trf();
    let )" +
         r_name +
         R"(: DmTensor<i32, Chip, Cluster, Slice, m![M, N = 4]> = ctx
        .main
        .begin(a.view())
        .fetch::<m![M], m![K]>()
        .collect::<m![M], m![K]>()
        .contract_outer::<m![M], m![K], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![M]>()
        .contract_lane::<m![M], m![N]>(LaneMode::Interleaved)
        .commit_trim::<m![N = 4]>()
        .commit();
)" + between +
         R"(
    let out: DmTensor<i32, Chip, Cluster, Slice, m![M, N = 4]> = ctx
        .main
        .begin()" +
         read +
         R"(.view())
        .fetch::<m![M], m![N = 4 # 8]>()
        .collect::<m![M], m![N = 4 # 8]>()
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_fxp(FxpBinaryOp::MulInt, 3)
        .vector_final()
        .commit_trim::<m![N = 4]>()
        .commit();
    out.to_hbm(&mut ctx.tdma)
}
)";
}

/// The relayout through HBM: `r` to HBM and back into DM as `r2`.
const char* const kThroughHbm = R"(
    let r_hbm: HbmTensor<i32, Chip, m![M, N = 4]> = r.to_hbm(&mut ctx.tdma);
    let r2: DmTensor<i32, Chip, Cluster, Slice, m![M, N = 4]> = r_hbm.to_dm(&mut ctx.tdma);
)";

/// out[m, n] = 3 · Σ_k a[m, k]·b[n, k] for n < 4, wrapping in i32.
void check_contract_then_scale(const std::string& spec, const std::string& tag) {
  TempDir dir(tag);
  auto arr = run_saved(spec, dir, "3");
  CHECK(arr.count("r") == 0); // a value commands hand on is not an input
  const auto a = npy_values<std::int8_t>(arr.at("a"));
  const auto b = npy_values<std::int8_t>(arr.at("b"));
  REQUIRE(arr.at("out").shape == std::vector<std::uint64_t>{4, 4});
  const auto out = npy_values<std::int32_t>(arr.at("out"));
  for (std::size_t m = 0; m < 4; ++m)
    for (std::size_t n = 0; n < 4; ++n) {
      std::int32_t sum = 0;
      for (std::size_t k = 0; k < 32; ++k) sum += a[m * 32 + k] * b[n * 32 + k];
      INFO("m " << m << ", n " << n);
      CHECK(out[m * 4 + n] == static_cast<std::int32_t>(static_cast<std::uint32_t>(sum) * 3u));
    }
}

double bf16_value(std::uint16_t code) {
  return static_cast<double>(runtime::f32_from_bits(runtime::widen_bf16(code)));
}

} // namespace

TEST_CASE("kernel commands: a kernel that is not a whole kernel is not split",
          "[kernel_commands]") {
  const ir::SpecFile file = load("specs/matmul.rs");
  auto commands = ir::seq::split_commands(testing::checked(file.kernels.at(0)));
  REQUIRE(commands.ok());
  CHECK_FALSE(commands->has_value());
}

TEST_CASE("kernel commands: a starter kernel is one command holding every stage",
          "[kernel_commands]") {
  const ir::SpecFile file = load("specs/kernels/gemm_kernel.rs");
  const ir::Kernel& k = file.kernels.at(0);
  const auto commands = split(k);
  REQUIRE(commands.size() == 1);
  CHECK(commands[0].value.empty());
  CHECK(commands[0].reads.empty());
  CHECK(ops(commands[0].kernel) == ops(k));
  CHECK(commands[0].kernel.name == k.name);
}

TEST_CASE("kernel commands: a committed DmTensor fetched by a later command is a parameter of it",
          "[kernel_commands]") {
  const ir::SpecFile file = load("specs/kernels/constant_add_twice_kernel.rs");
  const ir::Kernel& k = file.kernels.at(0);
  const auto commands = split(k);
  REQUIRE(commands.size() == 2);
  const ir::Kernel& once = commands[0].kernel;
  CHECK(commands[0].value == "once");
  CHECK(once.name == "constant_add_twice_kernel.once");
  CHECK(ops(once) == std::vector<std::string>{"to_dm", "fetch", "collect", "vector_init",
                                              "vector_intra_slice_tag", "vector_fxp",
                                              "vector_final", "commit_trim", "commit"});
  REQUIRE(once.returned.has_value());
  CHECK(once.returned->kind == ir::TensorKind::Dm);

  const ir::Kernel& result = commands[1].kernel;
  CHECK(commands[1].value.empty());
  REQUIRE(commands[1].reads.size() == 1);
  CHECK(commands[1].reads[0].param == "once");
  CHECK(commands[1].reads[0].value == "once");
  // The second command starts at its fetch: the first command's stages are not in it.
  CHECK(ops(result) == std::vector<std::string>{"fetch", "collect", "vector_init",
                                                "vector_intra_slice_tag", "vector_fxp",
                                                "vector_final", "commit_trim", "commit", "to_hbm"});
  const ir::KernelParam* p = param(result, "once");
  REQUIRE(p != nullptr);
  REQUIRE(p->tensor.has_value());
  CHECK(p->tensor->kind == ir::TensorKind::Dm);
  CHECK(ir::to_string(*p->tensor) ==
        ir::to_string(k.stages[8].output)); // the first commit's DmTensor
  for (const ir::Stage& s : result.stages)
    if (s.op != ir::StageOp::ToHbm) CHECK(s.source == "once");
  CHECK_FALSE(result.stages[0].memory_producer.has_value());
}

TEST_CASE("kernel commands: each command keeps its own register-file loads and DMA",
          "[kernel_commands]") {
  const ir::SpecFile file = load("specs/kernels/gemm_gemm_kernel.rs");
  const auto commands = split(file.kernels.at(0));
  REQUIRE(commands.size() == 2);
  CHECK(commands[0].value == "h");
  CHECK(ops(commands[0].kernel) ==
        std::vector<std::string>{"to_dm", "to_dm", "fetch", "collect", "to_trf", "fetch", "collect",
                                 "contract_outer", "contract_packet", "contract_time",
                                 "contract_lane", "cast", "commit_trim", "commit"});
  CHECK(ops(commands[1].kernel) ==
        std::vector<std::string>{"to_dm", "fetch", "collect", "to_trf", "fetch", "collect",
                                 "contract_outer", "contract_packet", "contract_time",
                                 "contract_lane", "cast", "commit_trim", "commit", "to_hbm"});
  for (const ir::Stage& s : commands[1].kernel.stages)
    if (s.op == ir::StageOp::ContractOuter) {
      CHECK(s.source == "h");
      CHECK(s.trf_source == "c");
    }
}

TEST_CASE("kernel commands: a value read after DMA relayouts is the DM tensor the fetch reads",
          "[kernel_commands]") {
  const ir::SpecFile file = analyze("hbm.rs", contract_then_scale(kThroughHbm, "r2"));
  const auto commands = split(file.kernels.at(0));
  REQUIRE(commands.size() == 2);
  CHECK(commands[0].value == "r");
  REQUIRE(commands[1].reads.size() == 1);
  CHECK(commands[1].reads[0].param == "r2");
  CHECK(commands[1].reads[0].value == "r");
  CHECK(ops(commands[1].kernel).front() == "fetch"); // the DMA of `r` is not the command's
}

TEST_CASE("kernel commands: only what the result needs is run, a value's name is made unique",
          "[kernel_commands]") {
  // A command whose commit nothing reads, and a value named like a parameter (`a`).
  const std::string dead = R"(
    let unused: DmTensor<i8, Chip, Cluster, Slice, m![N, K]> = ctx
        .main
        .begin(b.view())
        .fetch::<m![N], m![K]>()
        .collect::<m![N], m![K]>()
        .commit_trim::<m![K]>()
        .commit();
)";
  const ir::SpecFile file = analyze("dead.rs", contract_then_scale(dead, "a", "a"));
  const auto commands = split(file.kernels.at(0));
  REQUIRE(commands.size() == 2);
  CHECK(commands[0].value == "a#2");
  CHECK(commands[1].reads.at(0).param == "a#2");
  for (const auto& c : commands)
    for (const ir::Stage& s : c.kernel.stages) CHECK(s.bound_to != "unused");
}

TEST_CASE("kernel commands: tujit run hands a committed value on, directly or through HBM",
          "[kernel_commands][run]") {
  TempDir src("commands_src");
  SECTION("directly") {
    check_contract_then_scale(src.file("direct.rs", contract_then_scale("", "r")), "cmd_direct");
  }
  SECTION("through HBM") {
    // Before the split, this kernel returned the first command's commit: a wrong output.
    check_contract_then_scale(src.file("hbm.rs", contract_then_scale(kThroughHbm, "r2")),
                              "cmd_hbm");
  }
}

TEST_CASE("kernel commands: constant_add_twice_kernel gives (x + 1) · 3, wrapping",
          "[kernel_commands][run]") {
  TempDir dir("add_twice");
  auto arr = run_saved("specs/kernels/constant_add_twice_kernel.rs", dir, "9");
  CHECK(arr.count("once") == 0);
  const auto in = npy_values<std::int32_t>(arr.at("input"));
  const auto out = npy_values<std::int32_t>(arr.at("out"));
  REQUIRE(in.size() == 2048);
  REQUIRE(out.size() == 2048);
  for (std::size_t i = 0; i < in.size(); ++i)
    REQUIRE(out[i] == static_cast<std::int32_t>((static_cast<std::uint32_t>(in[i]) + 1u) * 3u));
}

TEST_CASE("kernel commands: gemm_gemm_kernel's second GEMM reads the first one's bf16 result",
          "[kernel_commands][run]") {
  TempDir dir("gemm_gemm");
  auto arr = run_saved("specs/kernels/gemm_gemm_kernel.rs", dir, "4");
  CHECK(arr.count("h") == 0);
  const auto a = npy_values<std::uint16_t>(arr.at("a")); // [I = 8192, K = 64]
  const auto b = npy_values<std::uint16_t>(arr.at("b")); // [J = 32, K]
  const auto c = npy_values<std::uint16_t>(arr.at("c")); // [J, L = 8]: axes! order
  const auto out = npy_values<std::uint16_t>(arr.at("out"));
  REQUIRE(out.size() == 8192 * 8);
  // h = bf16(Σ_k a·b) is off its exact value by at most e_h = 2^-8·|h| + 2^-16·Σ|a·b| (f32 sums
  // far below 2^-16 of the magnitude, one bf16 narrowing: the starter kernels' bound). Then
  // out = bf16(Σ_j h·c): off Σ_j h_exact·c by the propagated Σ_j |c|·e_h plus its own rounding.
  for (std::size_t i = 0; i < 8192; i += 61)
    for (std::size_t l = 0; l < 8; ++l) {
      double exact = 0, magnitude = 0, propagated = 0;
      for (std::size_t j = 0; j < 32; ++j) {
        double h = 0, h_magnitude = 0;
        for (std::size_t k = 0; k < 64; ++k) {
          const double p = bf16_value(a[i * 64 + k]) * bf16_value(b[j * 64 + k]);
          h += p;
          h_magnitude += std::fabs(p);
        }
        const double w = bf16_value(c[j * 8 + l]);
        exact += h * w;
        magnitude += std::fabs(h * w);
        propagated += std::fabs(w) * (std::ldexp(std::fabs(h), -8) + std::ldexp(h_magnitude, -16));
      }
      const double bound = propagated + std::ldexp(std::fabs(exact) + propagated, -8) +
                           std::ldexp(magnitude + propagated, -16) + 1e-30;
      const double got = bf16_value(out[i * 8 + l]);
      INFO("i " << i << ", l " << l << ": got " << got << ", exact " << exact << ", bound "
                << bound);
      CHECK(std::fabs(got - exact) <= bound);
    }
}

TEST_CASE("kernel commands: the first command's value is the output of that command run alone",
          "[kernel_commands][run]") {
  // gemm_gemm_kernel cut after its first command, returning `h`: the same inputs (seeded by name
  // and coordinate), so the value handed on must have the same bytes.
  std::string text = read_text_file(source_path("specs/kernels/gemm_gemm_kernel.rs"));
  const std::size_t cut = text.find("    let c_trf");
  REQUIRE(cut != std::string::npos);
  text = text.substr(0, cut) + "    h.to_hbm(&mut ctx.tdma)\n}\n";
  const std::size_t ret = text.find("-> HbmTensor<bf16, Chip, m![I, L]>");
  REQUIRE(ret != std::string::npos);
  text.replace(ret, std::string("-> HbmTensor<bf16, Chip, m![I, L]>").size(),
               "-> HbmTensor<bf16, Chip, m![I, J]>");
  TempDir src("first_command");
  const auto alone = run_tujit({"run", src.file("h.rs", text), "--seed", "4", "--json"});
  INFO(alone.out << alone.err);
  REQUIRE(alone.status == 0);
  const auto whole =
      run_tujit({"run", source_path("specs/kernels/gemm_gemm_kernel.rs"), "--seed", "4", "--json"});
  INFO(whole.out << whole.err);
  REQUIRE(whole.status == 0);
  const auto earlier = whole.json()["earlier_commands"];
  REQUIRE(earlier.size() == 1);
  CHECK(earlier[0]["value"] == "h");
  CHECK(earlier[0]["output"] == "[I=8192, J=32] bf16");
  CHECK(earlier[0]["sha256"] == alone.json()["output"]["sha256"]);
  CHECK(whole.json()["simulated_macs"] == 8192u * 32u * 64u + 8192u * 8u * 32u);
}

TEST_CASE("kernel commands: compile shows every command, bench refuses the kernel",
          "[kernel_commands][cli]") {
  const std::string spec = source_path("specs/kernels/gemm_gemm_kernel.rs");
  const auto seq = run_tujit({"compile", spec, "--emit", "seq"});
  INFO(seq.err);
  REQUIRE(seq.status == 0);
  const std::size_t first = seq.out.find("; command `h`");
  const std::size_t second = seq.out.find("; command `the result`");
  CHECK(first != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < second);
  const auto bench = run_tujit({"bench", spec});
  CHECK(bench.status == 1);
  CHECK(bench.err.find("E-BENCH-005") != std::string::npos);
  CHECK(bench.err.find("run one after another") != std::string::npos);
}
