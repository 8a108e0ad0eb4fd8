// `&vrf` operands of the Vector Engine (docs/vector-engine.md §3.2): the type and placement rules
// (E-VE-016, E-VE-017) and the per-slice read rule (E-VE-018) each refuse their case; the book's
// `vrf_add` checks with the broadcast it implies (each VRF element read by the 256 elements of its
// lane) and runs on both engines bit for bit, its output equal to a brute-force sum over the
// inputs the run saved.
#include "tests/support/cli_capture.h"

#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/npy/npy.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

std::set<std::string> codes(const std::string& text) {
  ir::SpecAnalysis a = ir::analyze(SourceBuffer("t.rs", text));
  std::set<std::string> out;
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) out.insert(d.code);
  for (const auto& k : a.file.kernels) {
    const auto kc = ir::verify::check_kernel(a.file, k);
    for (const auto& d : kc.all_diagnostics())
      if (d.severity == Severity::Error) out.insert(d.code);
  }
  return out;
}

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

template <class T>
std::vector<T> values(const runtime::NpyArray& a) {
  std::vector<T> v(a.elements());
  REQUIRE(a.data.size() == v.size() * sizeof(T));
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

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
  const auto r = run_tujit({"run", source_path("specs/vrf_add.rs"), "--verify", "--seed", "11",
                            "--save-inputs", dir.path.string(), "--raw-output", "--output",
                            (dir.path / "out.npy").string(), "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.status == 0);
  const auto j = r.json();
  CHECK(j["verify"]["engines_bit_exact"] == true);
  CHECK(j["verify"]["oracle_ok"] == true);
  std::map<std::string, runtime::NpyArray> a;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) {
    auto arr = runtime::read_npy_file(e.path().string());
    REQUIRE(arr.ok());
    a[e.path().stem().string()] = std::move(*arr);
  }
  // Logical shapes in axes! order: input and output [A, B, N], the VRF [A, B].
  REQUIRE(a["input"].shape == std::vector<std::uint64_t>{2048, 2, 256});
  REQUIRE(a["vrf"].shape == std::vector<std::uint64_t>{2048, 2});
  REQUIRE(a["out"].shape == std::vector<std::uint64_t>{2048, 2, 256});
  const auto in = values<std::int32_t>(a["input"]);
  const auto vrf = values<std::int32_t>(a["vrf"]);
  const auto out = values<std::int32_t>(a["out"]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t ab = i / 256; // (a, b) row-major, n innermost
    const auto want = static_cast<std::int32_t>(static_cast<std::uint32_t>(in[i]) +
                                                static_cast<std::uint32_t>(vrf[ab]));
    if (out[i] == want) continue;
    FAIL_CHECK("element " << i << ": " << out[i] << " != " << want);
    break;
  }
}
