// The reference's starter kernels of specs/kernels/ run verbatim (docs/kernels.md §3): `tujit run
// --verify` runs both engines (bit for bit) and the oracle, and each output is checked against
// a brute-force computation written here from the kernel's meaning, on the inputs the run saved:
// an exact relayout, an exact elementwise op, or a bf16-rounded dot product within a bound
// derived below.
#include "runtime/npy/npy.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/float_bits.h"
#include "tests/support/cli_capture.h"

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

/// Runs `kernel` with --verify, saving its inputs and its raw output into `dir`; the arrays by
/// name ("out" for the output).
std::map<std::string, runtime::NpyArray> run_saved(const std::string& kernel, const TempDir& dir,
                                                   std::vector<std::string> extra = {}) {
  std::vector<std::string> args{source_path("specs/kernels/" + kernel + ".rs"),
                                "--verify",
                                "--seed",
                                "7",
                                "--save-inputs",
                                dir.path.string(),
                                "--raw-output",
                                "--output",
                                (dir.path / "out.npy").string(),
                                "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliRun r = run_cmd(args);
  INFO(r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
  std::map<std::string, runtime::NpyArray> arrays;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    auto a = runtime::read_npy_file(e.path().string());
    REQUIRE(a.ok());
    arrays[e.path().stem().string()] = std::move(*a);
  }
  return arrays;
}

template <class T>
std::vector<T> values(const runtime::NpyArray& a) {
  std::vector<T> v(a.elements());
  REQUIRE(a.data.size() == v.size() * sizeof(T));
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
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
  const auto in = values<std::int8_t>(a["input"]);
  const auto out = values<std::int32_t>(a["out"]);
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (out[i] == in[i]) continue;
    FAIL_CHECK("element " << i << ": " << out[i] << " != " << int(in[i]));
    break;
  }
}

TEST_CASE("constant_add_kernel: every element plus 1, wrapping", "[whole_kernel][run]") {
  TempDir dir("constant_add");
  auto a = run_saved("constant_add_kernel", dir);
  const auto in = values<std::int32_t>(a["input"]);
  const auto out = values<std::int32_t>(a["out"]);
  REQUIRE(in.size() == 2048);
  REQUIRE(out.size() == 2048);
  for (std::size_t i = 0; i < in.size(); ++i)
    REQUIRE(out[i] == static_cast<std::int32_t>(static_cast<std::uint32_t>(in[i]) + 1u));
}

TEST_CASE("elementwise_mul_kernel: lhs · rhs per element, wrapping (rhs read from the VRF)",
          "[whole_kernel][run][vrf]") {
  TempDir dir("elementwise_mul");
  auto a = run_saved("elementwise_mul_kernel", dir);
  const auto lhs = values<std::int32_t>(a["lhs"]);
  const auto rhs = values<std::int32_t>(a["rhs"]);
  const auto out = values<std::int32_t>(a["out"]);
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
  const auto in = values<std::uint32_t>(a["input"]);
  const auto v = values<std::uint32_t>(a["vrf_data"]);
  const auto out = values<std::int32_t>(a["out"]);
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
  const auto in = values<std::uint32_t>(a["input"]);
  const auto v1 = values<std::uint32_t>(a["vrf_data1"]);
  const auto v2 = values<std::uint32_t>(a["vrf_data2"]);
  const auto out = values<std::int32_t>(a["out"]);
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
  const auto m = values<std::uint16_t>(a["matrix"]);
  const auto v = values<std::uint16_t>(a["vector"]);
  const auto out = values<std::uint16_t>(a["out"]);
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
  const auto l = values<std::uint16_t>(a["lhs"]);
  const auto r = values<std::uint16_t>(a["rhs"]);
  const auto out = values<std::uint16_t>(a["out"]);
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
  const auto x = values<std::uint16_t>(a["a"]);
  const auto w = values<std::uint16_t>(a["b"]);
  const auto out = values<std::uint16_t>(a["out"]);
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
