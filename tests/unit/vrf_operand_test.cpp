// `&vrf` operands of the Vector Engine (docs/vector-engine.md §3.2): the type and placement rules
// (E-VE-016, E-VE-017) and the per-slice read rule (E-VE-018) each refuse their case; the book's
// `vrf_add` checks with the broadcast it implies (each VRF element read by the 256 elements of its
// lane) and runs on both engines bit for bit, its output equal to a brute-force sum over the
// inputs the run saved.
#include "tests/support/error_codes.h"
#include "tests/support/saved_run.h"

#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/npy/npy.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const auto codes = testing::error_codes;

/// An i32 stream [A / 8][A % 8] on one slice, one call reading `operand` (a parameter of `vrf`'s
/// type, or whatever `operand` names).
std::string kernel(const std::string& vrf, const std::string& call) {
  return fmt::format(R"(
axes![A = 64, S = 4];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![A / 8], m![A % 8]>,
    vrf: &{0},
) {{
    input.vector_init().vector_intra_slice_tag(TagMode::Zero){1}.vector_final()
}}
)",
                     vrf, call);
}

const std::string kVrf = "VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]>";
const std::string kMul = ".vector_fxp(FxpBinaryOp::MulInt, vrf)";

} // namespace

TEST_CASE("vrf operand: a VrfTensor holding every coordinate the stream reads checks clean",
          "[vector][vrf]") {
  CHECK(codes(kernel(kVrf, kMul)).empty());
  CHECK(codes(kernel(kVrf, ".vector_fxp(FxpBinaryOp::SubFxp, &vrf)")).empty());
  CHECK(codes(kernel(kVrf, ".vector_fxp_with_mode(FxpBinaryOp::SubFxp, BinaryArgMode::Mode10, "
                           "vrf)"))
            .empty());
}

TEST_CASE("vrf operand: each rule refuses its case", "[vector][vrf]") {
  // E-VE-016: another scalar than the stream's, or not a VrfTensor at all.
  CHECK(codes(kernel("VrfTensor<f32, m![1], m![1 # 2], m![1 # 256], m![A]>", kMul))
            .count("E-VE-016"));
  CHECK(codes(kernel("TrfTensor<i8, m![1], m![1 # 2], m![1 # 256], m![1 # 8], m![A]>", kMul))
            .count("E-VE-016"));
  // E-VE-017: another Cluster than the stream's.
  CHECK(codes(kernel("VrfTensor<i32, m![1], m![1], m![1 # 256], m![A]>", kMul)).count("E-VE-017"));
  // E-VE-018: the VRF holds A < 8 only, but the stream reads A up to 63 ...
  CHECK(codes(kernel("VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A % 8]>", kMul))
            .count("E-VE-018"));
  // ... or names an axis (S) the stream does not hold.
  CHECK(codes(kernel("VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![S, A]>", kMul))
            .count("E-VE-018"));
  // The register-file port feeds operand0 only.
  CHECK(codes(R"(
axes![A = 64];
fn k<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![1 # 2], m![1 # 256], m![A / 8], m![A % 8]>,
    vrf: &VrfTensor<f32, m![1], m![1 # 2], m![1 # 256], m![A]>,
) {
    input.vector_init().vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_split::<m![A / 8, A % 8 / 4], m![A % 4]>()
        .vector_fp_ternary(FpTernaryOp::FmaF, (1.0f32, vrf))
}
)")
            .count("E-VE-013"));
}

TEST_CASE("vrf operand: vrf_add's derived read counts show the broadcast along N",
          "[vector][vrf]") {
  const auto r = run_tujit({"check", source_path("specs/vrf_add.rs"), "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  bool seen = false;
  for (const auto& s : j["kernels"][0]["stages"]) {
    if (s["op"] != "vector_fxp") continue;
    seen = true;
    // Per slice: N = 256 flits of 8 elements, each reading one of the 8 VRF elements [A % 8].
    CHECK(s["derived"]["vrf_reads"] == 2048);
    CHECK(s["derived"]["vrf_elements_read"] == 8);
  }
  CHECK(seen);
}

TEST_CASE("vrf operand: vrf_add runs bit for bit and adds vrf[a, b] to every n",
          "[vector][vrf][run]") {
  TempDir dir("vrf_add");
  auto a = run_saved("specs/vrf_add.rs", dir, "11");
  // Logical shapes in axes! order: input and output [A, B, N], the VRF [A, B].
  REQUIRE(a["input"].shape == std::vector<std::uint64_t>{2048, 2, 256});
  REQUIRE(a["vrf"].shape == std::vector<std::uint64_t>{2048, 2});
  REQUIRE(a["out"].shape == std::vector<std::uint64_t>{2048, 2, 256});
  const auto in = npy_values<std::int32_t>(a["input"]);
  const auto vrf = npy_values<std::int32_t>(a["vrf"]);
  const auto out = npy_values<std::int32_t>(a["out"]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t ab = i / 256; // (a, b) row-major, n innermost
    const auto want = static_cast<std::int32_t>(static_cast<std::uint32_t>(in[i]) +
                                                static_cast<std::uint32_t>(vrf[ab]));
    if (out[i] == want) continue;
    FAIL_CHECK("element " << i << ": " << out[i] << " != " << want);
    break;
  }
}

TEST_CASE("vrf operand: a bias from the VRF after a contraction, then ReLU (gemv_bias_relu)",
          "[vector][vrf][run]") {
  TempDir dir("gemv_bias_relu");
  auto a = run_saved("specs/derived/gemv_bias_relu.rs", dir, "5");
  const auto m = npy_values<std::uint16_t>(a["matrix"]);
  const auto v = npy_values<std::uint16_t>(a["vector"]);
  const auto bias = npy_values<float>(a["bias"]);
  const auto out = npy_values<float>(a["out"]);
  REQUIRE(m.size() == 256 * 2048);
  REQUIRE(v.size() == m.size()); // one vector per slice (row)
  REQUIRE(bias.size() == 256);
  REQUIRE(out.size() == 256);
  const auto bf16 = [](std::uint16_t code) {
    std::uint32_t bits = std::uint32_t{code} << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return static_cast<double>(f);
  };
  std::size_t clipped = 0;
  for (std::size_t i = 0; i < 256; ++i) {
    double exact = 0, magnitude = 0;
    for (std::size_t k = 0; k < 2048; ++k) {
      const double p = bf16(m[i * 2048 + k]) * bf16(v[i * 2048 + k]);
      exact += p;
      magnitude += std::fabs(p);
    }
    const double want = std::max(exact + bias[i], 0.0);
    // The chain sums in f32 (each rounding within 2^-24 of the magnitudes summed, far below
    // 2^-16·Σ|p|), then the bias add rounds once more (2^-24 relative).
    const double bound = std::ldexp(magnitude, -16) + std::ldexp(std::fabs(exact + bias[i]), -23);
    INFO("row " << i << ": got " << out[i] << ", want " << want << ", bound " << bound);
    CHECK(out[i] >= 0.0f);
    CHECK(std::fabs(out[i] - want) <= bound + 1e-30);
    clipped += want == 0.0;
  }
  CHECK(clipped > 0);   // the ReLU cuts some rows ...
  CHECK(clipped < 256); // ... and not all of them
}
