// NaN results of every part of a contraction chain ("[seq-partial][nan]"): docs/contraction.md
// §9.3 makes every NaN result the canonical 0x7FC00000, also where a part only moves a value (a
// Lane Folder alone, a one-cell tree). Every entry point of two chains (from contract_outer,
// contract_packet, contract_time, contract_lane; ending at any later stage, whole chains
// included) and the book's Lane Folder examples run on both engines with inputs holding NaNs of
// assorted payloads and signs, quiet and signalling, among small integers.
//
// The expected output is a brute force over logical coordinates, independent of stages,
// mappings and engines: an output element sums, over every coordinate of the inputs' axes that
// agrees with it, the input element (a part from a ContractOuter / Packet / Time tensor) or the
// product of the two widened operands (a part from contract_outer), in double. Every input value
// is a small nonzero integer, ±inf or a NaN, so each sum is exact, and its sign and NaN-ness do not
// depend on the order: an element is affected exactly when its double sum is a NaN, and must then
// hold 0x7FC00000; every other element must hold the f32 of the exact sum.
#include "tests/unit/jit_test_support.h"

#include "codegen/contraction_jit.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_program.h"
#include "runtime/engine/run_io.h"
#include "runtime/interp/interpreter.h"
#include "runtime/scalar/float_bits.h"
#include "tests/support/chain_run.h"
#include "tests/support/checked.h"
#include "tests/support/run_case.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>

using namespace tujit;

namespace {

// NaN codes of both signs, quiet and signalling, with assorted payloads (the canonical one too).
constexpr std::uint32_t kF32Nans[] = {0x7FC00001u, 0xFFBCF67Fu, 0x7FC727D3u, 0x7F800001u,
                                      0xFFFFFFFFu, 0xFFC00000u, 0x7FBFFFFFu, 0x7FC00000u};
constexpr std::uint16_t kBf16Nans[] = {0x7FC1u, 0xFFC5u, 0x7F81u, 0xFF8Fu, 0x7FFFu, 0xFFC0u};

std::uint32_t f32_of(double v) {
  return runtime::f32_bits(static_cast<float>(v));
}

/// An input element: mostly a small nonzero integer of either sign, one in `nan_every` a NaN;
/// bf16 operands also hold ±inf now and then (inf - inf is a NaN the sum makes).
std::uint32_t input_code(ir::ScalarType t, std::mt19937_64& rng, std::uint64_t nan_every) {
  const std::uint64_t r = rng();
  const bool bf16 = t == ir::ScalarType::BF16;
  if (r % nan_every == 0)
    return bf16 ? kBf16Nans[(r >> 16) % std::size(kBf16Nans)]
                : kF32Nans[(r >> 16) % std::size(kF32Nans)];
  if (bf16 && r % 53 == 1) return (r >> 20) % 2 ? 0x7F80u : 0xFF80u;
  const double v = static_cast<double>(1 + (r >> 8) % 4) * ((r >> 12) % 2 ? -1 : 1);
  if (t == ir::ScalarType::F32) return f32_of(v);
  REQUIRE(bf16);
  return f32_of(v) >> 16; // exact: a small integer has at most 3 significant bits
}

runtime::LogicalTensor input_tensor(ir::ScalarType t, const std::vector<ir::Axis>& axes,
                                    std::uint64_t seed, std::uint64_t nan_every) {
  auto x = runtime::make_logical_tensor(t, axes);
  REQUIRE(x.ok());
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < x->elements(); ++i) x->set(i, input_code(t, rng, nan_every));
  return std::move(*x);
}

/// The value of an input element: f32 bits, or a bf16 code as the upper half of an f32 (no
/// subnormal codes occur, so this is the Multiplier's widening of these inputs).
double value_of(const runtime::LogicalTensor& t, std::uint64_t offset) {
  const std::uint32_t bits = t.get(offset);
  return t.dtype == ir::ScalarType::BF16 ? runtime::f32_from_bits(bits << 16)
                                         : runtime::f32_from_bits(bits);
}

ir::Index restrict_to(const ir::Index& ix, const std::vector<ir::Axis>& axes) {
  ir::Index r;
  for (const auto& a : axes) r[a.name] = ix.at(a.name);
  return r;
}

/// The brute force of the file comment over the output's axes: the expected bits per element.
std::vector<std::uint32_t> brute_force(const std::vector<const runtime::LogicalTensor*>& inputs,
                                       const runtime::LogicalTensor& output) {
  std::map<std::string, std::uint64_t> size;
  for (const auto* t : inputs)
    for (const auto& a : t->axes) {
      auto [it, fresh] = size.emplace(a.name, a.size);
      REQUIRE(it->second == a.size);
    }
  for (const auto& a : output.axes) REQUIRE(size.count(a.name) == 1);
  std::vector<double> sum(output.elements(), 0.0);
  ir::Index ix;
  for (const auto& [name, n] : size) ix[name] = 0;
  while (true) {
    double term = 1.0;
    for (const auto* t : inputs) term *= value_of(*t, t->offset(restrict_to(ix, t->axes)));
    sum[output.offset(restrict_to(ix, output.axes))] += term;
    auto it = ix.begin();
    for (; it != ix.end(); ++it) {
      if (++it->second < size.at(it->first)) break;
      it->second = 0;
    }
    if (it == ix.end()) break;
  }
  std::vector<std::uint32_t> want(sum.size());
  for (std::size_t o = 0; o < sum.size(); ++o)
    want[o] = std::isnan(sum[o]) ? runtime::kF32CanonicalNaN : f32_of(sum[o]);
  return want;
}

struct Tally {
  std::uint64_t affected = 0, unaffected = 0;
};

/// Runs `program` on both engines (the JIT plain and checked) and compares every output element
/// with the brute force; counts the affected and unaffected elements of the interpreter's run.
Tally check_engines(const ir::seq::RunProgram& program, const runtime::RunInputs& in,
                    const std::vector<const runtime::LogicalTensor*>& inputs) {
  auto interp = runtime::interpret(program, in);
  if (!interp)
    for (const auto& d : interp.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(interp.ok());
  const std::vector<std::uint32_t> want = brute_force(inputs, interp->output);
  Tally tally;
  for (std::uint32_t w : want)
    (w == runtime::kF32CanonicalNaN ? tally.affected : tally.unaffected)++;
  const auto compare = [&](const char* engine, const runtime::RunResult& r) {
    REQUIRE(r.output.elements() == want.size());
    REQUIRE(r.output.axes == interp->output.axes);
    std::uint64_t bad = 0;
    for (std::uint64_t o = 0; o < want.size(); ++o)
      if (r.output.get(o) != want[o] && bad++ < 4)
        UNSCOPED_INFO(fmt::format("{}: {}: {:#010x}, expected {:#010x}", engine,
                                  r.output.coordinate_text(o), r.output.get(o), want[o]));
    CHECK(bad == 0);
  };
  compare("interpreter", *interp);
  for (bool checked : {false, true}) {
    auto jit = codegen::run_contraction_jit(*testing::jit::compile(program, checked), program, in);
    if (!jit)
      for (const auto& d : jit.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
    REQUIRE(jit.ok());
    compare(checked ? "JIT (checked)" : "JIT", *jit);
  }
  return tally;
}

// Two chains of every stage over one slice pair: a depth-3 tree, U reduced in Time, Interleaved;
// and a one-cell tree (depth 0, so a tree passes a lone cell on), U reduced, Sequential.
constexpr const char* kAxes = "axes![S = 2, M = 2, U = 2, P = 2, Q = 8, N = 4];\n";

std::string chain_text(const char* p2, const char* t3, const char* p3, const char* mode) {
  return fmt::format(
      "use furiosa_opt_std::prelude::*;\n{}"
      "fn k<'l, const T: Tu>(\n"
      "  input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![S # 256], m![M, U], m![P, Q]>,\n"
      "  trf: &TrfTensor<bf16, m![1], m![1 # 2], m![S # 256], m![N], m![P, Q]>,\n"
      ") -> ContractTensor<'l, T, f32, m![1], m![1 # 2], m![S # 256], m![{}], m![{}]> {{\n"
      "  input.contract_outer::<m![M, U], m![P, Q], _, _, _>(&trf)\n"
      "    .contract_packet::<m![{}]>()\n"
      "    .contract_time::<m![M]>()\n"
      "    .contract_lane::<m![{}], m![{}]>(LaneMode::{})\n}}\n",
      kAxes, t3, p3, p2, t3, p3, mode);
}

} // namespace

TEST_CASE("seq partial: every NaN a part of a chain puts out is 0x7FC00000, on both engines",
          "[seq-partial][nan]") {
  const std::string chains[] = {chain_text("P", "M, P", "N # 8", "Interleaved"),
                                chain_text("P, Q", "M, N, P", "Q", "Sequential")};
  static constexpr const char* kStage[] = {"contract_outer", "contract_packet", "contract_time",
                                           "contract_lane"};
  std::uint64_t seed = 11, parts = 0;
  for (const std::string& text : chains) {
    const ir::SpecFile file = testing::interp::parse_spec(text);
    REQUIRE(file.kernels.size() == 1);
    const ir::Kernel& k = file.kernels[0];
    auto span = ir::seq::find_contraction_stages(k);
    REQUIRE(span.ok());
    REQUIRE(span->path.size() == 4);
    for (std::size_t f = 0; f < 4; ++f)
      for (std::size_t l = f; l < 4; ++l) {
        INFO(text << "part " << kStage[f] << " … " << kStage[l]);
        auto part = ir::seq::lower_contraction(testing::checked(k), span->path[f], span->path[l]);
        if (!part)
          for (const auto& d : part.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
        REQUIRE(part.ok());
        const testing::ChainRun run = testing::chain_run_of(*part);
        // Parts from contract_outer read bf16 operands, the others the f32 tensor they start from.
        const auto stream =
            input_tensor(run.stream_type.dtype, run.stream_axes, ++seed, f == 0 ? 24 : 20);
        std::optional<runtime::LogicalTensor> trf;
        runtime::RunInputs in{{"stream", &stream}};
        std::vector<const runtime::LogicalTensor*> inputs{&stream};
        if (part->forms_products()) {
          trf = input_tensor(run.trf_type.dtype, run.trf_axes, ++seed, 24);
          in["trf"] = &*trf;
          inputs.push_back(&*trf);
        }
        const Tally t = check_engines(run.program, in, inputs);
        // Both kinds of element occur, so the check can fail either way.
        CHECK(t.affected > 0);
        CHECK(t.unaffected > 0);
        ++parts;
      }
  }
  CHECK(parts == 20);
}

TEST_CASE("seq partial: the book's Lane Folder examples put out NaNs as 0x7FC00000",
          "[seq-partial][nan]") {
  // docs/contraction.md §11 ex 9 and 10: a ContractTimeTensor<f32> parameter folded alone.
  std::uint64_t seed = 41;
  for (const char* spec : {"specs/lane_interleaved.rs", "specs/lane_sequential.rs"}) {
    INFO(spec);
    auto file = ir::load_spec((std::filesystem::path(TUJIT_SOURCE_DIR) / spec).string());
    REQUIRE(file.ok());
    const ir::Kernel& kernel = file->kernels.front();
    auto ops = ir::seq::find_run_operands(kernel);
    REQUIRE(ops.ok());
    REQUIRE(ops->shape == ir::seq::RunShape::Partial);
    REQUIRE(ops->outer == nullptr);
    auto tiles = ir::seq::input_tiles(*file, kernel, *ops);
    REQUIRE(tiles.ok());
    const ir::KernelParam& p = *ops->stream;
    REQUIRE(p.tensor->dtype == ir::ScalarType::F32);
    const auto input = input_tensor(p.tensor->dtype, tiles->at(p.name), ++seed, 16);
    auto program = ir::seq::lower_run(*file, testing::checked(kernel), *ops, *tiles, false);
    if (!program)
      for (const auto& d : program.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
    REQUIRE(program.ok());
    const Tally t = check_engines(*program, {{p.name, &input}}, {&input});
    CHECK(t.affected > 0);
    CHECK(t.unaffected > 0);
  }
}
