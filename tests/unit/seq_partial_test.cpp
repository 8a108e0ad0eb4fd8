// Parts of a contraction chain in the Sequencer IR ("[seq-partial]"): a kernel that starts from a
// ContractOuter / Packet / Time tensor or returns one is lowered to the same ContractionProgram as
// a whole chain (ir/seq/contraction_program.h) and runs on both engines. Each run is compared bit
// for bit, poison included, with the stage-by-stage oracle (tests/support/stage_oracle.h), which
// is written from the stage definitions and reads the operands as the device layout lays them out
// (runtime/layout to_device), never through the IR's address streams:
//   - every kernel of specs/ whose operands are parameters (partial and whole chains);
//   - every contiguous part of generated chains (kernel_gen.h), both engines, with ftz_results on
//     some of them.
#include "tests/support/kernel_gen.h"
#include "tests/support/reliability_generated.h"
#include "tests/support/spec_corpus.h"
#include "tests/support/stage_oracle.h"
#include "tests/unit/jit_test_support.h"

#include "codegen/contraction_jit.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_program.h"
#include "runtime/interp/interpreter.h"
#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"
#include "tests/support/checked.h"
#include "tests/support/device_layout.h"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <random>

using namespace tujit;

namespace {

/// A code of `t` that reaches every corner: adversarial operand codes, and for the f32 / i32 of
/// an intermediate tensor small integers, random mantissas, and the specials (±0, ±inf, subnormals,
/// whose bits a relocation must keep, and a NaN with a payload, which comes out canonical).
std::uint32_t random_code(ir::ScalarType t, std::mt19937_64& rng) {
  if (t == ir::ScalarType::I32) return static_cast<std::uint32_t>(rng());
  if (t != ir::ScalarType::F32) return testing::jit::adversarial_code(t, rng);
  static constexpr std::uint32_t specials[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000,
                                               0x7FC00001, 0x00000001, 0x807FFFFF, 0x3F800000};
  const std::uint64_t r = rng();
  if (r % 8 == 0) return specials[(r >> 8) % 8];
  if (r % 8 < 4) return runtime::f32_bits(static_cast<float>(static_cast<int>((r >> 8) % 9) - 4));
  return static_cast<std::uint32_t>(((r >> 8) & 1u) << 31) |
         ((120u + static_cast<std::uint32_t>(r >> 9) % 15u) << 23) |
         (static_cast<std::uint32_t>(r >> 16) & 0x7FFFFFu);
}

runtime::LogicalTensor random_tensor(ir::ScalarType t, const std::vector<ir::Axis>& axes,
                                     std::uint64_t seed) {
  auto x = runtime::make_logical_tensor(t, axes);
  REQUIRE(x.ok());
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < x->elements(); ++i) x->set(i, random_code(t, rng));
  return std::move(*x);
}

/// Both engines' results of one program (the JIT's checked code, so its poison is its own).
struct EngineResults {
  runtime::RunResult interp, jit;
};

EngineResults run_both(const ir::seq::RunProgram& p, const runtime::RunInputs& in) {
  auto want = runtime::interpret(p, in);
  if (!want)
    for (const auto& d : want.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(want.ok());
  // Checked code: the JIT's poisoned set comes from its own shadow (codegen/poison_emit.h).
  auto compiled = testing::jit::compile(p, true);
  auto got = codegen::run_contraction_jit(*compiled, p, in);
  if (!got)
    for (const auto& d : got.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(got.ok());
  return {std::move(*want), std::move(*got)};
}

/// Differences between an engine's output and the oracle's image read back over the output
/// type's held axes (every element, matched by its coordinates: the two may order the axes
/// differently), and between their poisoned-cell counts.
std::uint64_t differences(const char* engine, const runtime::RunResult& r,
                          const testing::StageImage& oracle, const ir::TensorType& out_type,
                          const ir::AxisTable& axes) {
  auto back = testing::from_device_held(oracle.image, out_type, axes);
  if (!back)
    for (const auto& d : back.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(back.ok());
  std::uint64_t bad = 0;
  const auto note = [&](const std::string& s) {
    if (bad++ < 4) UNSCOPED_INFO(engine << ": " << s);
  };
  std::map<std::string, std::uint64_t> sizes;
  for (const auto& a : back->axes) sizes[a.name] = a.size;
  std::map<std::string, std::uint64_t> own;
  for (const auto& a : r.output.axes) own[a.name] = a.size;
  if (sizes != own || back->dtype != r.output.dtype) {
    note("output axes differ");
    return bad;
  }
  for (std::uint64_t i = 0; i < r.output.elements(); ++i) {
    ir::Index ix;
    std::uint64_t rest = i;
    for (std::size_t a = r.output.axes.size(); a-- > 0;) {
      ix[r.output.axes[a].name] = rest % r.output.axes[a].size;
      rest /= r.output.axes[a].size;
    }
    const std::uint32_t want = back->get(back->offset(ix));
    if (want != r.output.get(i))
      note(fmt::format("{}: oracle {:#010x}, engine {:#010x}", r.output.coordinate_text(i), want,
                       r.output.get(i)));
  }
  if (testing::poisoned_cells(oracle) != r.poison.poisoned_outputs)
    note(fmt::format("poisoned outputs: oracle {}, engine {}", testing::poisoned_cells(oracle),
                     r.poison.poisoned_outputs));
  return bad;
}

} // namespace

TEST_CASE("seq partial: every spec kernel read from parameters matches the stage oracle on both "
          "engines",
          "[seq-partial]") {
  std::size_t partial = 0, whole = 0;
  std::uint64_t seed = 3;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& kernel : file->kernels) {
      auto ops = ir::seq::find_run_operands(kernel);
      if (!ops || (ops->shape != ir::seq::RunShape::Partial &&
                   ops->shape != ir::seq::RunShape::Contraction))
        continue;
      // The oracle covers chains fed by parameters (fetched and stored operands have their own
      // oracles, datapath_*_test.cpp).
      if (ops->stream_collect || ops->trf_collect || ops->trf_store) continue;
      INFO(path.filename().string() << " :: " << kernel.name);
      auto tiles = ir::seq::input_tiles(*file, kernel, *ops);
      REQUIRE(tiles.ok());
      std::map<std::string, runtime::LogicalTensor> tensors;
      runtime::RunInputs in;
      for (const ir::KernelParam* p : ops->inputs()) {
        if (p == nullptr) continue;
        tensors.emplace(p->name, random_tensor(p->tensor->dtype, tiles->at(p->name), ++seed));
        in[p->name] = &tensors.at(p->name);
      }
      auto program = ir::seq::lower_run(*file, testing::checked(kernel), *ops, *tiles, false);
      if (!program)
        for (const auto& d : program.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
      REQUIRE(program.ok());
      const EngineResults r = run_both(*program, in);

      auto span = ir::seq::find_contraction_stages(kernel);
      REQUIRE(span.ok());
      auto stream = testing::to_device(tensors.at(ops->stream->name), *ops->stream->tensor);
      REQUIRE(stream.ok());
      std::optional<runtime::DeviceImage> trf;
      if (ops->trf != nullptr) {
        auto t = testing::to_device(tensors.at(ops->trf->name), *ops->trf->tensor);
        REQUIRE(t.ok());
        trf = std::move(*t);
      }
      auto oracle = testing::exec_contraction_stages(kernel, span->first, span->last, *stream,
                                                     trf ? &*trf : nullptr);
      REQUIRE(oracle.ok());
      const ir::TensorType& out_type = ops->output_type(kernel);
      CHECK(differences("interpreter", r.interp, *oracle, out_type, file->axes) == 0);
      CHECK(differences("JIT", r.jit, *oracle, out_type, file->axes) == 0);
      CHECK(r.jit.simulated_macs == r.interp.simulated_macs);
      (ops->shape == ir::seq::RunShape::Partial ? partial : whole) += 1;
    }
  }
  WARN(partial << " partial and " << whole << " whole spec chains compared");
  CHECK(partial >= 5); // the Outer-only and Lane-Folder-only book examples
  CHECK(whole >= 5);
}

TEST_CASE("seq partial: every part of generated chains matches the stage oracle on both engines",
          "[seq-partial]") {
  testing::KernelGenOptions opt;
  opt.allow_padded_reduced_cycles = true;
  testing::KernelGenerator gen(20261201, opt);
  std::size_t parts = 0, ftz = 0, kernels = 0;
  std::map<std::string, std::size_t> by_part;
  for (std::size_t i = 0; kernels < 24 && i < 80; ++i) {
    const testing::AnalyzedKernel a = testing::next_analyzed(gen);
    INFO(a.context());
    const ir::Kernel& k = a.kernel();
    auto span = ir::seq::find_contraction_stages(k);
    REQUIRE(span.ok());
    if (span->path.size() != 4 || !ir::seq::lower_contraction(testing::checked(k))) continue;
    ++kernels;
    for (std::size_t f = 0; f < 4; ++f)
      for (std::size_t l = f; l < 4; ++l) {
        if (f == 0 && l == 3) continue; // the whole chain: stage_oracle_test.cpp
        INFO("part " << f << " … " << l);
        auto part = ir::seq::lower_contraction(testing::checked(k), span->path[f], span->path[l]);
        if (!part)
          for (const auto& d : part.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
        REQUIRE(part.ok());
        part->ftz_results = (i + f + l) % 3 == 0 && part->accumulator == ir::ScalarType::F32;
        ftz += part->ftz_results;
        const testing::ChainRun run = testing::chain_run_of(*part);
        const auto stream = random_tensor(run.stream_type.dtype, run.stream_axes, 31 * i + f);
        std::optional<runtime::LogicalTensor> trf;
        runtime::RunInputs in{{"stream", &stream}};
        if (part->forms_products()) {
          trf = random_tensor(run.trf_type.dtype, run.trf_axes, 37 * i + l);
          in["trf"] = &*trf;
        }
        const EngineResults r = run_both(run.program, in);

        auto si = testing::to_device(stream, k.stages[span->path[f]].input);
        REQUIRE(si.ok());
        std::optional<runtime::DeviceImage> wi;
        if (trf) {
          auto w = testing::to_device(*trf, *k.stages[span->path[f]].trf);
          REQUIRE(w.ok());
          wi = std::move(*w);
        }
        testing::StageOptions so;
        so.ftz_results = part->ftz_results;
        auto oracle = testing::exec_contraction_stages(k, span->path[f], span->path[l], *si,
                                                       wi ? &*wi : nullptr, so);
        REQUIRE(oracle.ok());
        const ir::TensorType& out_type = k.stages[span->path[l]].output;
        CHECK(differences("interpreter", r.interp, *oracle, out_type, a.file.axes) == 0);
        CHECK(differences("JIT", r.jit, *oracle, out_type, a.file.axes) == 0);
        ++parts;
        ++by_part[fmt::format("{}…{}", f, l)];
      }
  }
  WARN(fmt::format("{} parts of {} generated chains compared ({} with ftz_results)", parts, kernels,
                   ftz));
  CHECK(kernels >= 20);
  CHECK(by_part.size() == 9);
}

TEST_CASE("seq partial: the text of a part shows only the stages it runs", "[seq-partial]") {
  const auto text_of = [](const char* spec) {
    auto file = ir::load_spec((std::filesystem::path(TUJIT_SOURCE_DIR) / spec).string());
    REQUIRE(file.ok());
    const ir::Kernel& k = file->kernels.front();
    auto span = ir::seq::find_contraction_stages(k);
    REQUIRE(span.ok());
    auto p = ir::seq::lower_contraction(testing::checked(k), span->first, span->last);
    REQUIRE(p.ok());
    return ir::seq::to_text(*p);
  };
  const auto has = [](const std::string& text, const char* what) {
    return text.find(what) != std::string::npos;
  };
  SECTION("contract_outer alone (docs/contraction.md §11 ex 6): stream, TRF, adapter, cycles") {
    const std::string t = text_of("specs/trf_sequencer_partial_read.rs");
    INFO(t);
    CHECK(has(t, "part         contract_outer … contract_outer"));
    CHECK(has(t, "adapter      PackSize 2"));
    CHECK(has(t, "trf read     ReadSize 16 (narrow read)"));
    CHECK(has(t, "cycles       |OT| 64"));
    CHECK_FALSE(has(t, "tree depth"));
    CHECK_FALSE(has(t, "accumulator"));
    CHECK_FALSE(has(t, "lane fold"));
    CHECK_FALSE(has(t, " reduce"));
  }
  SECTION("the Lane Folder alone (§11 ex 9): its input, the accumulator and the drain") {
    const std::string t = text_of("specs/lane_interleaved.rs");
    INFO(t);
    CHECK(has(t, "part         contract_lane … contract_lane"));
    CHECK(has(t, "input        [Lane 8][T2 4][P2 16] f32"));
    CHECK(has(t, "accumulator  [Lane 8][T2 4][P2 16] f32\n"));
    CHECK(has(t, "lane fold    Interleaved → [T3 64][P3 8], 512 cells drained"));
    CHECK_FALSE(has(t, "stream "));
    CHECK_FALSE(has(t, "trf "));
    CHECK_FALSE(has(t, "adapter"));
    CHECK_FALSE(has(t, "cycles "));
    CHECK_FALSE(has(t, "packet "));
  }
}
