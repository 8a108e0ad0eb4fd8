// specs/kernels/fetch_table_lookup.rs, the reference's table-lookup kernels as written, run end to
// end: `tujit run --verify` runs both engines (bit for bit) and the oracle, and each output is
// checked against the decode computed here from the formats' definitions (docs/scalars.md
// §3.3–§3.5) on the inputs the run saved; a packed f4e2m1 input shows the paired decode's order;
// a refused pair, a stage out of the adapter's order and a sub-context lookup are diagnosed.
#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "runtime/npy/npy.h"
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace tujit;
using namespace tujit::testing;

namespace {

const std::string kSpec = "specs/kernels/fetch_table_lookup.rs";

std::map<std::string, runtime::NpyArray> run_kernel(const std::string& kernel, const TempDir& dir,
                                                    std::vector<std::string> extra = {}) {
  extra.insert(extra.begin(), {"--kernel", kernel});
  return run_saved(kSpec, dir, "11", std::move(extra));
}

/// An f4e2m1 code's value (docs/scalars.md §3.5: S.EE.M, bias 1, E = 0 the subnormal M·2^-1).
double e2m1_value(std::uint32_t code) {
  const std::uint32_t e = (code >> 1) & 0x3u, m = code & 0x1u;
  const double magnitude = e == 0 ? m * 0.5 : (1.0 + m / 2.0) * std::ldexp(1.0, int(e) - 1);
  return (code & 0x8u) != 0 ? -magnitude : magnitude;
}

/// An f8 code's value (§3.3, §3.4; the inputs here are finite).
double f8_value(std::uint32_t code, int exp_bits, int frac_bits, int bias) {
  const std::uint32_t e = (code >> frac_bits) & ((1u << exp_bits) - 1);
  const std::uint32_t m = code & ((1u << frac_bits) - 1);
  const double frac = m * std::ldexp(1.0, -frac_bits);
  const double magnitude =
      e == 0 ? frac * std::ldexp(1.0, 1 - bias) : (1.0 + frac) * std::ldexp(1.0, int(e) - bias);
  return (code & 0x80u) != 0 ? -magnitude : magnitude;
}

/// `v` (exact and normal in the target, or ±0) encoded into sign, biased exponent and fraction.
std::uint32_t encode_exact(double v, int exp_bits, int frac_bits, int bias) {
  const std::uint32_t sign = (std::signbit(v) ? 1u : 0u) << (exp_bits + frac_bits);
  if (v == 0.0) return sign;
  int e = 0;
  const double f = std::frexp(std::fabs(v), &e);
  const double fraction = (2.0 * f - 1.0) * std::ldexp(1.0, frac_bits);
  REQUIRE(fraction == std::floor(fraction));
  REQUIRE(e - 1 + bias >= 1);
  return sign | (std::uint32_t(e - 1 + bias) << frac_bits) | std::uint32_t(fraction);
}

std::uint32_t f32_bits_of(double v) {
  return encode_exact(v, 8, 23, 127);
}

/// out[i] (the output's bits, of `OutT`) equals expect(in[i]) for every element.
template <class OutT, class F>
void check_each(const std::vector<std::uint8_t>& in, const std::vector<OutT>& out, F expect) {
  REQUIRE(in.size() == out.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < in.size() && bad < 5; ++i) {
    const std::uint32_t want = expect(in[i]);
    if (static_cast<std::uint32_t>(out[i]) == want) continue;
    ++bad;
    FAIL_CHECK("element " << i << ": input code 0x" << std::hex << int(in[i]) << " gave 0x"
                          << std::uint32_t(out[i]) << ", expected 0x" << want);
  }
}

void write_npy(const std::string& path, runtime::NpyDtype dtype, std::vector<std::uint64_t> shape,
               std::vector<std::uint8_t> data) {
  runtime::NpyArray a;
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.data = std::move(data);
  const auto bytes = runtime::serialize_npy(a);
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
}

/// The first error code `tujit check` gives a kernel (front end, then the stage verifiers).
std::string first_error(const std::string& body) {
  const std::string src = "use furiosa_opt_std::prelude::*;\naxes![A = 4096, B = 16];\n"
                          "type Cluster = m![1 # 2];\n" +
                          body;
  const ir::SpecAnalysis a = ir::analyze(SourceBuffer("k.rs", src));
  for (const auto& d : a.diagnostics)
    if (d.severity == Severity::Error) return d.code;
  const ir::verify::KernelCheck c = ir::verify::check_kernel(a.file, a.file.kernels.at(0));
  for (const auto& d : c.all_diagnostics())
    if (d.severity == Severity::Error) return d.code;
  return "none";
}

/// A whole kernel from `in` HBM to `out` HBM through `adapter` (the calls between fetch and
/// collect), in context `ctx`; B = 16 makes one collected packet of `out` a flit when it is bf16.
std::string lookup_kernel(const char* in, const char* out, const char* ctx, const char* adapter) {
  return fmt::format(
      "fn k(ctx: &mut Context, x: &HbmTensor<{0}, m![1], m![A, B]>) -> HbmTensor<{1}, m![1], "
      "m![B, A]> {{\n"
      "  let d = x.to_dm::<Cluster, m![A / 16], m![A / 8 % 2, A % 8, B]>(&mut ctx.tdma);\n"
      "  let o: DmTensor<{1}, m![1], Cluster, m![A / 16], m![A / 8 % 2, A % 8, B]> = ctx.{2}\n"
      "    .begin(d.view()).fetch::<m![A / 8 % 2], m![A % 8, B]>(){3}\n"
      "    .collect::<m![A / 8 % 2, A % 8], m![B]>().commit_trim::<m![B]>().commit();\n"
      "  o.to_hbm(&mut ctx.tdma)\n}}\n",
      in, out, ctx, adapter);
}

} // namespace

TEST_CASE("fetch_table_lookup_decode_e2m1: each code decoded to f8e4m3, widened to f32",
          "[table_lookup][whole_kernel][run]") {
  TempDir dir("lookup_e2m1");
  auto a = run_kernel("fetch_table_lookup_decode_e2m1", dir);
  REQUIRE(a["input"].shape == std::vector<std::uint64_t>{4096, 16});
  REQUIRE(a["input"].dtype == runtime::NpyDtype::U1); // f4e2m1 saved as its codes
  REQUIRE(a["out"].shape == std::vector<std::uint64_t>{4096, 16});
  check_each(a["input"].data, npy_values<std::uint32_t>(a["out"]),
             [](std::uint32_t c) { return f32_bits_of(e2m1_value(c)); });
}

TEST_CASE("fetch_table_lookup_decode_e2m1_mxfp4: the same decode over the 32-element block",
          "[table_lookup][whole_kernel][run]") {
  TempDir dir("lookup_mxfp4");
  auto a = run_kernel("fetch_table_lookup_decode_e2m1_mxfp4", dir);
  REQUIRE(a["input"].shape == std::vector<std::uint64_t>{16, 8192}); // axes! order: B, then AM
  REQUIRE(a["out"].shape == std::vector<std::uint64_t>{16, 8192});
  check_each(a["input"].data, npy_values<std::uint32_t>(a["out"]),
             [](std::uint32_t c) { return f32_bits_of(e2m1_value(c)); });
}

TEST_CASE("fetch_table_lookup_decode_e2m1_to_f8e5m2: each code's value in f8e5m2",
          "[table_lookup][whole_kernel][run]") {
  TempDir dir("lookup_e5m2");
  auto a = run_kernel("fetch_table_lookup_decode_e2m1_to_f8e5m2", dir);
  REQUIRE(a["out"].dtype == runtime::NpyDtype::U1);
  check_each(a["input"].data, npy_values<std::uint8_t>(a["out"]),
             [](std::uint32_t c) { return encode_exact(e2m1_value(c), 5, 2, 15); });
}

TEST_CASE("fetch_table_lookup_decode_f8_to_bf16 and its f8e5m2 twin: each code's value in bf16",
          "[table_lookup][whole_kernel][run]") {
  {
    TempDir dir("lookup_e4m3_bf16");
    auto a = run_kernel("fetch_table_lookup_decode_f8_to_bf16", dir);
    REQUIRE(a["out"].dtype == runtime::NpyDtype::U2);
    check_each(a["input"].data, npy_values<std::uint16_t>(a["out"]),
               [](std::uint32_t c) { return encode_exact(f8_value(c, 4, 3, 7), 8, 7, 127); });
  }
  {
    TempDir dir("lookup_e5m2_bf16");
    auto a = run_kernel("fetch_table_lookup_decode_f8e5m2_to_bf16", dir);
    check_each(a["input"].data, npy_values<std::uint16_t>(a["out"]),
               [](std::uint32_t c) { return encode_exact(f8_value(c, 5, 2, 15), 8, 7, 127); });
  }
}

TEST_CASE("a packed f4e2m1 input decodes each byte's low nibble first",
          "[table_lookup][whole_kernel][run]") {
  TempDir dir("lookup_packed");
  // [A = 4096, Bp = 32] given as the device packs it: [4096, 16] bytes, element 2j in the low
  // nibble of byte j. Two different nibbles in every byte.
  std::vector<std::uint8_t> bytes(4096 * 16);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const std::uint32_t lo = i % 16, hi = (i / 16 + 1 + lo) % 16;
    bytes[i] = static_cast<std::uint8_t>(hi == lo ? lo | ((lo ^ 1u) << 4) : lo | (hi << 4));
  }
  const std::string packed = (dir.path / "packed_in.npy").string();
  std::filesystem::create_directories(dir.path);
  write_npy(packed, runtime::NpyDtype::U1, {4096, 16}, bytes);
  TempDir saved("lookup_packed_run");
  auto a =
      run_kernel("fetch_table_lookup_decode_e2m1_to_f8e5m2", saved, {"--input", "input=" + packed});
  const auto out = npy_values<std::uint8_t>(a["out"]);
  REQUIRE(out.size() == 4096 * 32);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    INFO("byte " << i << " = 0x" << std::hex << int(bytes[i]));
    REQUIRE(out[2 * i] == encode_exact(e2m1_value(bytes[i] & 0xFu), 5, 2, 15));
    REQUIRE(out[2 * i + 1] == encode_exact(e2m1_value(bytes[i] >> 4), 5, 2, 15));
  }
}

TEST_CASE("fetch_table_lookup: a refused pair, the adapter's order and the main context",
          "[table_lookup][verify]") {
  // The four tables (docs/scalars.md §4.5) verify; a read's decoded output caps its size.
  CHECK(first_error(lookup_kernel("f8e4m3", "bf16", "main", ".fetch_table_lookup::<bf16>()")) ==
        "none");
  // No i8 → bf16 table (E-FETCH-003), nor f4e2m1 → bf16.
  CHECK(first_error(lookup_kernel("i8", "bf16", "main", ".fetch_table_lookup::<bf16>()")) ==
        "E-FETCH-003");
  CHECK(first_error(lookup_kernel("f4e2m1", "bf16", "main", ".fetch_table_lookup::<bf16>()")) ==
        "E-FETCH-003");
  // A cast before the lookup (E-FETCH-004), a second lookup too.
  CHECK(first_error(lookup_kernel("f8e4m3", "bf16", "main",
                                  ".fetch_cast::<f8e4m3>().fetch_table_lookup::<bf16>()")) ==
        "E-FETCH-004");
  CHECK(first_error(lookup_kernel("f8e4m3", "bf16", "main",
                                  ".fetch_table_lookup::<bf16>().fetch_table_lookup::<bf16>()")) ==
        "E-FETCH-004");
  // The sub context's Fetch Unit has no table (E-CTX-007).
  CHECK(first_error(lookup_kernel("f8e4m3", "bf16", "sub", ".fetch_table_lookup::<bf16>()")) ==
        "E-CTX-007");
  // After a lookup the cast reads the decoded type: f8e4m3 → bf16 is no cast (E-FETCH-001).
  CHECK(first_error(lookup_kernel("f4e2m1", "bf16", "main",
                                  ".fetch_table_lookup::<f8e4m3>().fetch_cast::<bf16>()")) ==
        "E-FETCH-001");
}
