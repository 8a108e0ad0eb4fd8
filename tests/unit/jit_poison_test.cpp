// The JIT's poison shadow ("[jit][poison]", codegen/poison_emit.h): checked JIT code computes the
// poisoned outputs of a run with its own generated loops, and `tujit run --verify` compares that
// set with the reference interpreter's (runtime::analyze_poison), cell for cell:
//   - kernels whose live outputs sum Top padding (a whole chain, a part of one from a
//     ContractOuter tensor) poison exactly the cells counted here from the mappings, on both
//     engines; Zero padding, and Top cells no tree column keeps, poison nothing
//     (docs/contraction.md §6, §9.4);
//   - the comparison can fail: a shadow run on corrupted cell states, and reports that differ only
//     past their listed cells, are told apart;
//   - `tujit run --verify` reports the JIT's set next to the interpreter's.
// The generated-kernel families compare the shadow with the interpreter too (jit_checked_test.cpp)
// and with the stage oracle (seq_partial_test.cpp).
#include "tests/unit/jit_test_support.h"

#include "codegen/poison_run.h"
#include "harness/run/run_pipeline.h"
#include "ir/seq/run_operands.h"
#include "runtime/engine/result_diff.h"
#include "tests/support/checked.h"

#include <fmt/format.h>

#include <map>
#include <random>

using namespace tujit;

namespace {

/// A kernel with A = 4 time rows, N = 8 lanes and K = 24 reduced in a 32-cell packet whose 8
/// padding cells are `stream_pad` in the stream and `trf_pad` in the TRF (`#` Top, `#{0}` Zero).
std::string padded_chain(const char* stream_pad, const char* trf_pad) {
  return fmt::format(
      "use furiosa_opt_std::prelude::*;\naxes![A = 4, K = 24, N = 8];\n"
      "fn padded<'l, const T: Tu>(\n"
      "  input: CollectTensor<'l, T, i8, m![1], m![1 # 2], m![1 # 256], m![A], m![K {0} 32]>,\n"
      "  trf: &TrfTensor<i8, m![1], m![1 # 2], m![1 # 256], m![N], m![K {1} 32]>,\n"
      ") -> ContractTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![A], m![N]> {{\n"
      "  input.contract_outer::<m![A], m![K {0} 32], _, _, _>(&trf)\n"
      "    .contract_packet::<m![1]>()\n"
      "    .contract_time::<m![A]>()\n"
      "    .contract_lane::<m![A], m![N]>(LaneMode::Interleaved)\n}}\n",
      stream_pad, trf_pad);
}

/// A part of a chain: the Packet Reducer alone on a ContractOuter tensor whose 32-cell packet holds
/// K = 24 and 8 cells of Top padding.
const char* kPaddedPart =
    "use furiosa_opt_std::prelude::*;\naxes![A = 4, K = 24, N = 8];\n"
    "fn part<'l, const T: Tu>(\n"
    "  input: ContractOuterTensor<'l, T, i32, i8, m![1], m![1 # 2], m![1 # 256], "
    "m![N], m![A], m![K # 32]>,\n"
    ") -> ContractPacketTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![N], "
    "m![A], m![1]> {\n"
    "  input.contract_packet::<m![1]>()\n}\n";

/// A whole chain whose 16-cell packet holds one live cell and 15 Top cells, reduced to one
/// column of that live cell.
const char* kTrimmedTop = "use furiosa_opt_std::prelude::*;\naxes![A = 4, N = 8];\n"
                          "fn trimmed<'l, const T: Tu>(\n"
                          "  input: CollectTensor<'l, T, bf16, m![1], m![1 # 2], m![1 # 256], "
                          "m![A], m![1 # 16]>,\n"
                          "  trf: &TrfTensor<bf16, m![1], m![1 # 2], m![1 # 256], m![N], m![1]>,\n"
                          ") -> ContractTensor<'l, T, f32, m![1], m![1 # 2], m![1 # 256], m![A], "
                          "m![N]> {\n"
                          "  input.contract_outer::<m![A], m![1 # 16], _, _, _>(&trf)\n"
                          "    .contract_packet::<m![1]>()\n"
                          "    .contract_time::<m![A]>()\n"
                          "    .contract_lane::<m![A], m![N]>(LaneMode::Interleaved)\n}\n";

/// A spec's kernel lowered to its run program, with seeded inputs over their tiles.
struct SpecRun {
  ir::SpecFile file;
  ir::seq::RunProgram program;
  std::map<std::string, runtime::LogicalTensor> tensors;
  runtime::RunInputs inputs;
};

SpecRun spec_run(const std::string& text, std::uint64_t seed) {
  SpecRun r{testing::interp::parse_spec(text), {}, {}, {}};
  REQUIRE(r.file.kernels.size() == 1);
  const ir::Kernel& kernel = r.file.kernels[0];
  auto ops = ir::seq::find_run_operands(kernel);
  REQUIRE(ops.ok());
  auto tiles = ir::seq::input_tiles(r.file, kernel, *ops);
  REQUIRE(tiles.ok());
  std::mt19937_64 rng(seed);
  for (const ir::KernelParam* p : ops->inputs()) {
    if (p == nullptr) continue;
    auto t = runtime::make_logical_tensor(p->tensor->dtype, tiles->at(p->name));
    REQUIRE(t.ok());
    for (std::uint64_t i = 0; i < t->elements(); ++i)
      t->set(i, testing::jit::adversarial_code(p->tensor->dtype, rng));
    r.tensors.emplace(p->name, std::move(*t));
  }
  for (const auto& [name, t] : r.tensors) r.inputs[name] = &t;
  auto program = ir::seq::lower_run(r.file, testing::checked(kernel), *ops, *tiles, false);
  if (!program)
    for (const auto& d : program.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(program.ok());
  r.program = std::move(*program);
  return r;
}

/// The interpreter's poison report and the checked JIT's (its shadow), REQUIREd to run.
std::pair<runtime::PoisonReport, runtime::PoisonReport> both_reports(const SpecRun& r) {
  auto want = runtime::interpret(r.program, r.inputs);
  REQUIRE(want.ok());
  auto got =
      codegen::run_contraction_jit(*testing::jit::compile(r.program, true), r.program, r.inputs);
  if (!got)
    for (const auto& d : got.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(got.ok());
  return {want->poison, got->poison};
}

} // namespace

TEST_CASE("jit poison: Top padding summed into live cells poisons the same set on both engines",
          "[jit][poison]") {
  // Every output (a, n) sums one column of the 32 packet cells, 8 of them padding: Top × Top
  // reads arbitrary content, so all 4 · 8 live outputs are poisoned; Zero padding is a real 0
  // (§9.4) and poisons nothing.
  for (const auto& [stream_pad, trf_pad, poisoned] :
       {std::tuple{"#", "#", 32u}, std::tuple{"#{0}", "#{0}", 0u}}) {
    INFO("stream K " << stream_pad << " 32, TRF K " << trf_pad << " 32");
    const SpecRun r = spec_run(padded_chain(stream_pad, trf_pad), 5);
    const auto [interp, jit] = both_reports(r);
    CHECK(jit.poisoned_outputs == poisoned);
    CHECK(interp.poisoned_outputs == poisoned);
    const auto diff = runtime::first_poison_difference(interp, jit);
    INFO(diff.value_or(""));
    CHECK_FALSE(diff.has_value());
    if (poisoned == 0) continue;
    // In output order: slice 0, (A 0, N 0) … (A 0, N 7) first.
    REQUIRE(jit.first_poisoned.size() == runtime::kMaxPoisonReported);
    for (std::uint64_t n = 0; n < runtime::kMaxPoisonReported; ++n)
      CHECK(jit.first_poisoned[n] == runtime::PoisonedCell{0, 0, n});
  }
  SECTION("Top padding in packet cells no column keeps") {
    // OP = 1 # 16 reduced to one column of one cell: the 15 Top cells drain nowhere (§6).
    const SpecRun r = spec_run(kTrimmedTop, 9);
    REQUIRE(r.program.contraction().stream.streams.cells.any(ir::CellState::Top));
    REQUIRE(r.program.contraction().chain.columns * r.program.contraction().chain.group == 1);
    const auto [interp, jit] = both_reports(r);
    CHECK(jit.poisoned_outputs == 0);
    CHECK_FALSE(runtime::first_poison_difference(interp, jit).has_value());
  }
  SECTION("a part of a chain: the Packet Reducer alone on a Top-padded ContractOuter tensor") {
    const SpecRun r = spec_run(kPaddedPart, 6);
    REQUIRE(r.program.contraction().chain.first == ir::seq::ChainStage::Packet);
    const auto [interp, jit] = both_reports(r);
    CHECK(jit.poisoned_outputs == 8 * 4); // every (N, A) row sums its 8 Top cells
    const auto diff = runtime::first_poison_difference(interp, jit);
    INFO(diff.value_or(""));
    CHECK_FALSE(diff.has_value());
  }
}

TEST_CASE("jit poison: a corrupted shadow is told apart from the interpreter's set",
          "[jit][poison]") {
  const SpecRun r = spec_run(padded_chain("#", "#"), 7);
  const auto compiled = testing::jit::compile(r.program, true);
  const codegen::PoisonFn fn = compiled->poison_function<codegen::PoisonFn>();
  REQUIRE(fn != nullptr);
  const runtime::PoisonReport want = runtime::analyze_poison(r.program);
  const codegen::PoisonTables tables = codegen::poison_tables(r.program);
  auto same = codegen::run_poison_shadow(fn, r.program, tables);
  REQUIRE(same.ok());
  CHECK_FALSE(runtime::first_poison_difference(want, *same).has_value());

  // Lane 7's Top weights made Zero: its products read Top stream cells times a real 0, so the
  // shadow clears N = 7 of every row (A 0 … 3): 28 poisoned instead of 32.
  codegen::PoisonTables corrupted = tables;
  const std::uint64_t element = r.program.contraction().trf.streams.cells.inner_size;
  std::uint64_t changed = 0;
  for (std::uint64_t x = 0; x < element; ++x)
    if (corrupted.trf[7 * element + x] == static_cast<std::uint8_t>(ir::CellState::Top)) {
      corrupted.trf[7 * element + x] = static_cast<std::uint8_t>(ir::CellState::Zero);
      ++changed;
    }
  CHECK(changed == 8);
  auto wrong = codegen::run_poison_shadow(fn, r.program, corrupted);
  REQUIRE(wrong.ok());
  CHECK(wrong->poisoned_outputs == 28);
  const auto diff = runtime::first_poison_difference(want, *wrong);
  REQUIRE(diff.has_value());
  CHECK(diff->find("poisoned cell 8") != std::string::npos); // (A 0, N 7) is missing

  // A result holding the corrupted set differs from the interpreter's as a whole run too.
  runtime::RunResult a, b;
  a.poison = want;
  b.poison = *wrong;
  CHECK(runtime::first_difference(a, b).has_value());
}

TEST_CASE("jit poison: sets that differ only past their listed cells are told apart",
          "[jit][poison]") {
  // The same number of cells and the same first kMaxPoisonReported; the last one differs.
  runtime::PoisonReport a, b;
  for (std::uint64_t i = 0; i < 20; ++i) {
    runtime::add_poisoned(a, {0, i, 0});
    runtime::add_poisoned(b, {0, i, i == 19 ? 1u : 0u});
  }
  CHECK(a.poisoned_outputs == b.poisoned_outputs);
  CHECK(a.first_poisoned == b.first_poisoned);
  const auto diff = runtime::first_poison_difference(a, b);
  REQUIRE(diff.has_value());
  CHECK(diff->find("past their first 8 cells") != std::string::npos);
  // Order matters too: the same cells added in another order are another report.
  runtime::PoisonReport c;
  for (std::uint64_t i = 20; i-- > 0;) runtime::add_poisoned(c, {0, i, 0});
  CHECK(runtime::first_poison_difference(a, c).has_value());
  CHECK_FALSE(runtime::first_poison_difference(a, a).has_value());
}

TEST_CASE("jit poison: tujit run --verify compares the JIT's shadow with the interpreter",
          "[jit][poison]") {
  SpecRun r = spec_run(padded_chain("#", "#"), 8);
  const ir::Kernel& kernel = r.file.kernels[0];
  auto ops = ir::seq::find_run_operands(kernel);
  REQUIRE(ops.ok());
  run::RunRequest req;
  req.jit.use_cache = false;
  req.verify = true;
  req.threads = 2;
  for (auto& [name, t] : r.tensors) req.given.emplace(name, t);
  auto out = run::run_kernel(r.file, testing::checked(kernel), *ops, req);
  if (!out)
    for (const auto& d : out.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(out.ok());
  REQUIRE(out->verify.has_value());
  CHECK(out->poisoned_outputs == 32);
  INFO(out->verify->engine_difference);
  CHECK(out->verify->engines_bit_exact);
}
