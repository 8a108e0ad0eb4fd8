// The reference's starter kernels of specs/kernels/ run verbatim (docs/kernels.md §3): `tujit run
// --verify` runs both engines (bit for bit) and the oracle, and each output is checked against
// a brute-force computation written here from the kernel's meaning, on the inputs the run saved:
// an exact relayout, an exact elementwise op, or a bf16-rounded dot product within a bound
// derived below.
#include "runtime/npy/npy.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/float_bits.h"
#include "tests/support/saved_run.h"
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const TujitCommand run_cmd{"run"};

/// Runs specs/kernels/`kernel`.rs with --verify on seed 7 (testing::run_saved).
std::map<std::string, runtime::NpyArray> run_saved(const std::string& kernel, const TempDir& dir,
                                                   std::vector<std::string> extra = {}) {
  return testing::run_saved("specs/kernels/" + kernel + ".rs", dir, "7", std::move(extra));
}

double bf16_value(std::uint16_t code) {
  return static_cast<double>(runtime::f32_from_bits(runtime::widen_bf16(code)));
}

/// out ≈ Σ products, rounded to bf16: the chip sums in f32 (each rounding ≤ 2^-24 relative to the
/// sum of the magnitudes below it, at most a few dozen of them on the path of one product, far
/// below 2^-16·Σ|p|), then narrows to bf16 (half a unit in the last place: 2^-9 relative).
void check_bf16_sum(double got, double exact, double magnitude) {
  const double bound = std::ldexp(std::fabs(exact), -8) + std::ldexp(magnitude, -16) + 1e-30;
  INFO("got " << got << ", exact " << exact << ", bound " << bound);
  CHECK(std::fabs(got - exact) <= bound);
}

} // namespace

TEST_CASE("fetch_commit_simple: the output is the input widened to i32, [B, A] as [A, B]",
          "[whole_kernel][run]") {
  TempDir dir("fetch_commit");
  auto a = run_saved("fetch_commit_simple", dir);
  // Logical shapes in axes! order: input [A, B] i8, output [A, B] i32 (the HBM layout [B, A] is a
  // layout, not the logical order, docs/cli.md §6.1).
  REQUIRE(a["input"].shape == std::vector<std::uint64_t>{4096, 8});
  REQUIRE(a["out"].shape == std::vector<std::uint64_t>{4096, 8});
  const auto in = npy_values<std::int8_t>(a["input"]);
  const auto out = npy_values<std::int32_t>(a["out"]);
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (out[i] == in[i]) continue;
    FAIL_CHECK("element " << i << ": " << out[i] << " != " << int(in[i]));
    break;
  }
}

TEST_CASE("constant_add_kernel: every element plus 1, wrapping", "[whole_kernel][run]") {
  TempDir dir("constant_add");
  auto a = run_saved("constant_add_kernel", dir);
  const auto in = npy_values<std::int32_t>(a["input"]);
  const auto out = npy_values<std::int32_t>(a["out"]);
  REQUIRE(in.size() == 2048);
  REQUIRE(out.size() == 2048);
  for (std::size_t i = 0; i < in.size(); ++i)
    REQUIRE(out[i] == static_cast<std::int32_t>(static_cast<std::uint32_t>(in[i]) + 1u));
}

TEST_CASE("elementwise_mul_kernel: lhs · rhs per element, wrapping (rhs read from the VRF)",
          "[whole_kernel][run][vrf]") {
  TempDir dir("elementwise_mul");
  auto a = run_saved("elementwise_mul_kernel", dir);
  const auto lhs = npy_values<std::int32_t>(a["lhs"]);
  const auto rhs = npy_values<std::int32_t>(a["rhs"]);
  const auto out = npy_values<std::int32_t>(a["out"]);
  REQUIRE(lhs.size() == 2048);
  REQUIRE(rhs.size() == 2048);
  REQUIRE(out.size() == 2048);
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto want = static_cast<std::int32_t>(static_cast<std::uint32_t>(lhs[i]) *
                                                static_cast<std::uint32_t>(rhs[i]));
    REQUIRE(out[i] == want);
    nonzero += lhs[i] != 0 && rhs[i] != 0 && lhs[i] != rhs[i];
  }
  CHECK(nonzero > 1000); // the seeded inputs differ: a product of lhs with itself would fail above
}

TEST_CASE("ve_elementwise_vrf: input[a, b] + vrf_data[b], the VRF broadcast along A",
          "[whole_kernel][run][vrf]") {
  TempDir dir("ve_elementwise_vrf");
  auto a = run_saved("ve_elementwise_vrf", dir);
  const auto in = npy_values<std::uint32_t>(a["input"]);
  const auto v = npy_values<std::uint32_t>(a["vrf_data"]);
  const auto out = npy_values<std::int32_t>(a["out"]);
  REQUIRE(in.size() == 512 * 256);
  REQUIRE(v.size() == 256);
  REQUIRE(out.size() == in.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    REQUIRE(out[i] == static_cast<std::int32_t>(in[i] + v[i % 256]));
}

TEST_CASE("ve_elementwise_multi_vrf: ((input + v1) · v2) + v1, two VRFs read by three calls",
          "[whole_kernel][run][vrf]") {
  TempDir dir("ve_elementwise_multi_vrf");
  auto a = run_saved("ve_elementwise_multi_vrf", dir);
  const auto in = npy_values<std::uint32_t>(a["input"]);
  const auto v1 = npy_values<std::uint32_t>(a["vrf_data1"]);
  const auto v2 = npy_values<std::uint32_t>(a["vrf_data2"]);
  const auto out = npy_values<std::int32_t>(a["out"]);
  REQUIRE(in.size() == 512 * 256);
  REQUIRE(out.size() == in.size());
  // AddFxp, MulInt and the Clip cluster's AddFxp all wrap (docs/vector-engine.md §3).
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t b = i % 256;
    REQUIRE(out[i] == static_cast<std::int32_t>((in[i] + v1[b]) * v2[b] + v1[b]));
  }
}

TEST_CASE("gemv_kernel: each row's dot product with the vector, in bf16", "[whole_kernel][run]") {
  TempDir dir("gemv");
  auto a = run_saved("gemv_kernel", dir);
  const auto m = npy_values<std::uint16_t>(a["matrix"]);
  const auto v = npy_values<std::uint16_t>(a["vector"]);
  const auto out = npy_values<std::uint16_t>(a["out"]);
  REQUIRE(out.size() == 256);
  REQUIRE(v.size() == 2048);
  for (std::size_t i = 0; i < 256; ++i) {
    double exact = 0, magnitude = 0;
    for (std::size_t j = 0; j < 2048; ++j) {
      const double p = bf16_value(m[i * 2048 + j]) * bf16_value(v[j]);
      exact += p;
      magnitude += std::fabs(p);
    }
    check_bf16_sum(bf16_value(out[i]), exact, magnitude);
  }
}

TEST_CASE("dot_product_kernel: one bf16 dot product", "[whole_kernel][run]") {
  TempDir dir("dot");
  auto a = run_saved("dot_product_kernel", dir);
  const auto l = npy_values<std::uint16_t>(a["lhs"]);
  const auto r = npy_values<std::uint16_t>(a["rhs"]);
  const auto out = npy_values<std::uint16_t>(a["out"]);
  REQUIRE(out.size() == 1);
  double exact = 0, magnitude = 0;
  for (std::size_t k = 0; k < l.size(); ++k) {
    exact += bf16_value(l[k]) * bf16_value(r[k]);
    magnitude += std::fabs(bf16_value(l[k]) * bf16_value(r[k]));
  }
  check_bf16_sum(bf16_value(out[0]), exact, magnitude);
}

TEST_CASE("gemm_kernel: out[i, j] = Σ_k a[i, k]·b[j, k] in bf16", "[whole_kernel][run]") {
  TempDir dir("gemm");
  auto a = run_saved("gemm_kernel", dir);
  const auto x = npy_values<std::uint16_t>(a["a"]);
  const auto w = npy_values<std::uint16_t>(a["b"]);
  const auto out = npy_values<std::uint16_t>(a["out"]);
  REQUIRE(out.size() == 512 * 512);
  for (std::size_t i = 0; i < 512; i += 7)
    for (std::size_t j = 0; j < 512; j += 3) {
      double exact = 0, magnitude = 0;
      for (std::size_t k = 0; k < 64; ++k) {
        const double p = bf16_value(x[i * 64 + k]) * bf16_value(w[j * 64 + k]);
        exact += p;
        magnitude += std::fabs(p);
      }
      check_bf16_sum(bf16_value(out[i * 512 + j]), exact, magnitude);
    }
}

namespace {

/// The spatial types of the two kernels below: one slice of cluster 0.
const char* const kI8Header = R"(use furiosa_opt_std::prelude::*;

type Chip = m![1];
type Cluster = m![1 # 2];
type Slice = m![1 # 256];
)";

} // namespace

TEST_CASE("an axis the chain reduces and both operands hold only as DMA copies is summed over "
          "every copy",
          "[whole_kernel][run]") {
  // docs/dma.md §1: `to_dm` copies a[J] to every K of DmTensor m![K, J], likewise b; the chain
  // reduces K (in Time) and J (in the packet), so out = Σ_k Σ_j a[j]·b[j] = 3 · a·b. The engines
  // sum the three copies; the oracle read a and b over their own axes and missed the factor 3
  // (found by the generated whole kernels, tests/unit/whole_kernel_differential_test.cpp).
  TempDir src("bcast_reduced_src");
  const std::string file = src.file("k.rs", std::string(kI8Header) + R"(
axes![K = 3, J = 32];

#[device(chip = 1)]
pub fn broadcast_reduced(
    ctx: &mut Context,
    a: &HbmTensor<i8, Chip, m![J]>,
    b: &HbmTensor<i8, Chip, m![J]>,
) -> HbmTensor<i32, Chip, m![1]> {
    let a: DmTensor<i8, Chip, Cluster, Slice, m![K, J]> = a.to_dm(&mut ctx.tdma);
    let b: DmTensor<i8, Chip, Cluster, Slice, m![K, J]> = b.to_dm(&mut ctx.tdma);
    let trf: TrfTensor<i8, Chip, Cluster, Slice, m![1], m![K, J]> = ctx
        .sub
        .begin(b.view())
        .fetch::<m![K], m![J]>()
        .collect::<m![K], m![J]>()
        .to_trf();
    let result: DmTensor<i32, Chip, Cluster, Slice, m![1 # 2]> = ctx
        .main
        .begin(a.view())
        .fetch::<m![K], m![J]>()
        .collect::<m![K], m![J]>()
        .contract_outer::<m![K], m![J], _, _, _>(&trf)
        .contract_packet::<m![1]>()
        .contract_time::<m![1]>()
        .contract_lane::<m![1], m![1 # 8]>(LaneMode::Interleaved)
        .commit_trim::<m![1 # 2]>()
        .commit();
    result.to_hbm(&mut ctx.tdma)
}
)");
  TempDir dir("bcast_reduced");
  auto arr = testing::run_saved(file, dir, "7");
  const auto a = npy_values<std::int8_t>(arr["a"]);
  const auto b = npy_values<std::int8_t>(arr["b"]);
  const auto out = npy_values<std::int32_t>(arr["out"]);
  REQUIRE(a.size() == 32);
  REQUIRE(b.size() == 32);
  REQUIRE(out.size() == 1);
  std::int32_t dot = 0;
  for (std::size_t j = 0; j < 32; ++j) dot += a[j] * b[j];
  CHECK(out[0] == 3 * dot);
}

TEST_CASE("a trim that keeps part of an axis commits into an Element that holds just that part",
          "[whole_kernel][run]") {
  // docs/output-path.md §2.1: commit_trim::<m![N = 4]>() keeps lanes 0 … 3 of the 8; the commit
  // writes them into Element m![M, N = 4] (docs/datapath.md §4.2: the buffer holds just the
  // slice), and the result holds N's first 4: out[m, n] = Σ_k a[m, k]·b[n, k] for n < 4.
  TempDir src("partial_trim_src");
  const std::string file = src.file("k.rs", std::string(kI8Header) + R"(
axes![M = 4, N = 8, K = 32];

#[device(chip = 1)]
pub fn partial_trim(
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
    let result: DmTensor<i32, Chip, Cluster, Slice, m![M, N = 4]> = ctx
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
    result.to_hbm(&mut ctx.tdma)
}
)");
  TempDir dir("partial_trim");
  auto arr = testing::run_saved(file, dir, "7");
  const auto a = npy_values<std::int8_t>(arr["a"]);
  const auto b = npy_values<std::int8_t>(arr["b"]);
  REQUIRE(arr["out"].shape == std::vector<std::uint64_t>{4, 4});
  const auto out = npy_values<std::int32_t>(arr["out"]);
  for (std::size_t m = 0; m < 4; ++m)
    for (std::size_t n = 0; n < 4; ++n) {
      std::int32_t sum = 0;
      for (std::size_t k = 0; k < 32; ++k) sum += a[m * 32 + k] * b[n * 32 + k];
      INFO("m " << m << ", n " << n);
      CHECK(out[m * 4 + n] == sum);
    }
}

TEST_CASE("proj_transposed_kernel: out[q] = Σ_h input[h]·weight[q, h] in bf16, the transpose a "
          "relayout",
          "[whole_kernel][run][transpose]") {
  TempDir dir("proj_transposed");
  auto a = run_saved("proj_transposed_kernel", dir);
  const auto in = npy_values<std::uint16_t>(a["input"]); // [H = 256]
  const auto w = npy_values<std::uint16_t>(a["weight"]); // [H, Q = 2048]: axes! order
  const auto out = npy_values<std::uint16_t>(a["out"]);
  REQUIRE(in.size() == 256);
  REQUIRE(out.size() == 2048);
  for (std::size_t q = 0; q < 2048; ++q) {
    double exact = 0, magnitude = 0;
    for (std::size_t h = 0; h < 256; ++h) {
      const double p = bf16_value(in[h]) * bf16_value(w[h * 2048 + q]);
      exact += p;
      magnitude += std::fabs(p);
    }
    INFO("q " << q);
    check_bf16_sum(bf16_value(out[q]), exact, magnitude);
  }
  // The same chain committed without the transpose, in the chain's own layout: the same bytes.
  std::string text = read_text_file(source_path("specs/kernels/proj_transposed_kernel.rs"));
  const auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
  };
  replace("        .transpose::<m![Q / 4 % 8], m![Q % 4 # 16]>()\n", "");
  replace(".commit_trim::<m![Q % 4]>()", ".commit_trim::<m![Q / 4 % 8]>()");
  replace("SliceQ, m![Q % 32]> = ctx", "SliceQ, m![Q % 4, Q / 4 % 8]> = ctx");
  TempDir src("proj_plain");
  const auto plain = run_cmd({src.file("plain.rs", text), "--seed", "7", "--json"});
  INFO(plain.out << plain.err);
  REQUIRE(plain.status == 0);
  const auto transposed =
      run_cmd({source_path("specs/kernels/proj_transposed_kernel.rs"), "--seed", "7", "--json"});
  REQUIRE(transposed.status == 0);
  CHECK(plain.json()["output"]["sha256"] == transposed.json()["output"]["sha256"]);
}
