// Helpers of the JIT tests ("[jit]"): one shared JIT per test process (cache off unless a test
// asks), operand images with adversarial values (made into the chain run's logical inputs,
// interp_test_support.h image_inputs), and a bit-for-bit comparison of a JIT run with the
// reference interpreter (every output element, poison, simulated_macs).
#pragma once

#include "tests/unit/interp_test_support.h"

#include "codegen/contraction_jit.h"
#include "ir/seq/lower_contraction.h"
#include "runtime/interp/interpreter.h"
#include "tests/support/checked.h"
#include "tests/support/run_case.h"

#include <fmt/format.h>

#include <filesystem>
#include <random>

namespace tujit::testing::jit {

/// The lowered program of specs/bmatmul_m_in_time.rs (the JIT tests' everyday kernel).
inline ir::seq::ContractionProgram bmatmul() {
  auto file = ir::load_spec(
      (std::filesystem::path(TUJIT_SOURCE_DIR) / "specs" / "bmatmul_m_in_time.rs").string());
  REQUIRE(file.ok());
  REQUIRE(!file->kernels.empty());
  auto p = ir::seq::lower_contraction(testing::checked(file->kernels[0]));
  REQUIRE(p.ok());
  return *p;
}

/// The lowered program of a one-kernel spec text, REQUIREd to succeed (diagnostics shown).
inline ir::seq::ContractionProgram lowered(const std::string& spec) {
  const ir::SpecFile file = interp::parse_spec(spec);
  REQUIRE(file.kernels.size() == 1);
  auto p = ir::seq::lower_contraction(testing::checked(file.kernels[0]));
  if (!p)
    for (const auto& d : p.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(p.ok());
  return *p;
}

using interp::CellState;
using interp::DeviceImage;

inline codegen::ContractionJit& shared_jit(bool checked = false) {
  static auto make = [](bool c) {
    codegen::JitOptions o;
    o.use_cache = false;
    o.checked = c;
    auto j = codegen::ContractionJit::create(o);
    if (!j)
      for (const auto& d : j.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
    REQUIRE(j.ok());
    return std::move(j).value();
  };
  static std::unique_ptr<codegen::ContractionJit> plain = make(false);
  static std::unique_ptr<codegen::ContractionJit> with_checks = make(true);
  return checked ? *with_checks : *plain;
}

/// A code of `t` drawn to hit every numeric corner: small integers (exact sums), values near 1
/// with random mantissas (inexact sums: any change of summation order shows), and for floats
/// raw random codes (NaN, ±inf, subnormals, huge values) and a list of specials (±0, ±inf,
/// NaN, smallest subnormal, largest finite).
inline std::uint32_t adversarial_code(ir::ScalarType t, std::mt19937_64& rng) {
  const std::uint64_t r = rng();
  const unsigned kind = static_cast<unsigned>(r % 100);
  const std::uint64_t v = r >> 8;
  if (ir::is_integer(t)) {
    const auto range = *ir::integer_range(t);
    const auto span = static_cast<std::uint64_t>(range.second - range.first + 1);
    // Half at the extremes so sums grow fast.
    const std::int64_t x = kind < 50 ? (v % 2 ? range.first : range.second)
                                     : range.first + static_cast<std::int64_t>(v % span);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(x));
  }
  if (kind < 25) return interp::code_from_hash(t, v);
  const bool bf16 = t == ir::ScalarType::BF16;
  if (kind < 70) {
    // Normal values in [2^-7, 2^8) with random mantissa bits, either sign.
    const std::uint32_t f = (static_cast<std::uint32_t>(v & 1u) << 31) |
                            ((120u + static_cast<std::uint32_t>(v >> 1) % 15u) << 23) |
                            (static_cast<std::uint32_t>(v >> 8) & 0x7FFFFFu);
    if (bf16) return f >> 16;
    return t == ir::ScalarType::F8E4M3 ? runtime::enc_e4m3(f) : runtime::enc_e5m2(f);
  }
  if (kind < 90) return static_cast<std::uint32_t>(v & (bf16 ? 0xFFFFu : 0xFFu));
  static constexpr std::uint32_t bf16_specials[] = {0x0000, 0x8000, 0x7F80, 0xFF80, 0x7FC0,
                                                    0x0001, 0x8001, 0x7F7F, 0x0080, 0xFFC1};
  static constexpr std::uint32_t e4m3_specials[] = {0x00, 0x80, 0x7F, 0xFF, 0x01,
                                                    0x81, 0x7E, 0xFE, 0x08, 0x38};
  static constexpr std::uint32_t e5m2_specials[] = {0x00, 0x80, 0x7C, 0xFC, 0x7E,
                                                    0x01, 0x81, 0x7B, 0x04, 0x7D};
  const std::uint64_t i = v % 10;
  if (bf16) return bf16_specials[i];
  return t == ir::ScalarType::F8E4M3 ? e4m3_specials[i] : e5m2_specials[i];
}

/// Overwrites every Live cell of `img` with an adversarial code.
inline void randomize(DeviceImage& img, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < img.bits.size(); ++i)
    if (img.state[i] == CellState::Live) img.bits[i] = adversarial_code(img.dtype, rng);
}

struct Operands {
  DeviceImage stream, trf;
};

/// Images of the program's operands: states from the mappings (interp_test_support.h), live
/// values adversarial.
inline Operands operands_for(const ir::seq::ContractionProgram& p, std::uint64_t seed) {
  const auto& m = p.m;
  const auto spatial = interp::spatial_liveness(m.chip, m.cluster, m.slice);
  Operands o{interp::fill_image(p.stream_type, spatial, m.time, m.packet, seed),
             interp::fill_image(p.trf_type, spatial, m.lane, m.element, seed + 1)};
  randomize(o.stream, seed * 3 + 1);
  randomize(o.trf, seed * 3 + 2);
  return o;
}

/// Number of differences between a JIT result and the interpreter's (every output element,
/// poison, simulated_macs); the first few are reported.
inline std::uint64_t differences(const runtime::RunResult& want, const runtime::RunResult& got) {
  std::uint64_t bad = 0;
  const auto note = [&](const std::string& s) {
    if (bad++ < 4) UNSCOPED_INFO(s);
  };
  if (want.output.elements() != got.output.elements() || want.output.dtype != got.output.dtype) {
    note("output shapes differ");
    return bad;
  }
  for (std::uint64_t i = 0; i < want.output.elements(); ++i)
    if (want.output.get(i) != got.output.get(i))
      note(fmt::format("element {}: interpreter {:#010x}, JIT {:#010x}",
                       want.output.coordinate_text(i), want.output.get(i), got.output.get(i)));
  if (want.poison != got.poison) note("poison reports differ");
  if (want.simulated_macs != got.simulated_macs)
    note(fmt::format("simulated_macs {} vs {}", want.simulated_macs, got.simulated_macs));
  return bad;
}

/// Compiles a run program (the shared JIT).
inline std::shared_ptr<const codegen::CompiledContraction> compile(const ir::seq::RunProgram& p,
                                                                   bool checked = false) {
  auto compiled = shared_jit(checked).compile(p);
  if (!compiled)
    for (const auto& d : compiled.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(compiled.ok());
  return *compiled;
}

/// Compiles the chain's run program.
inline std::shared_ptr<const codegen::CompiledContraction>
compile(const ir::seq::ContractionProgram& p, bool checked = false) {
  return compile(testing::chain_run_of(p).program, checked);
}

/// Runs a compiled run program in the JIT and in the interpreter on the same inputs; returns the
/// number of differences (0 expected).
inline std::uint64_t jit_vs_interp(const codegen::CompiledContraction& compiled,
                                   const ir::seq::RunProgram& p, const runtime::RunInputs& in,
                                   unsigned threads = 1) {
  auto want = runtime::interpret(p, in);
  REQUIRE(want.ok());
  codegen::JitRunOptions ro;
  ro.threads = threads;
  auto got = codegen::run_contraction_jit(compiled, p, in, ro);
  if (!got)
    for (const auto& d : got.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(got.ok());
  return differences(*want, *got);
}

/// The same for a chain on operand images (their live cells become the logical inputs).
inline std::uint64_t jit_vs_interp(const codegen::CompiledContraction& compiled,
                                   const ir::seq::ContractionProgram& p, const Operands& o,
                                   unsigned threads = 1) {
  const interp::ImageInputs in = interp::image_inputs(p, o.stream, o.trf);
  return jit_vs_interp(compiled, in.run.program, in.inputs(), threads);
}

/// Compiles the chain and compares one run with the interpreter's.
inline std::uint64_t jit_vs_interp(const ir::seq::ContractionProgram& p, const Operands& o,
                                   bool checked = false, unsigned threads = 1) {
  return jit_vs_interp(*compile(p, checked), p, o, threads);
}

} // namespace tujit::testing::jit
