// Every Sequencer IR program kind states its invariants in verify() (ir/seq/*_program.h): a
// program lowered from a spec verifies, and each mutation below, one broken invariant at a time,
// is refused with E-RUN-102 instead of reaching an engine.
#include "tests/support/cli_capture.h"
#include "tests/support/text_file.h"

#include "ir/lang/kernel.h"
#include "ir/seq/commit_program.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/run_program.h"
#include "ir/seq/vector_program.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>

#include <functional>
#include <optional>
#include <string>

using namespace tujit;

namespace {

ir::seq::RunProgram lower_spec(const std::string& rel) {
  const std::string text = testing::read_text_file(testing::source_path(rel));
  const ir::SpecAnalysis a = ir::analyze(SourceBuffer(rel, text));
  REQUIRE(a.file.kernels.size() == 1);
  const ir::Kernel& k = a.file.kernels.front();
  auto ops = ir::seq::find_run_operands(k);
  REQUIRE(ops.ok());
  auto tiles = ir::seq::input_tiles(a.file, k, *ops);
  REQUIRE(tiles.ok());
  auto p = ir::seq::lower_run(a.file, testing::checked(k), *ops, *tiles, false);
  INFO(rel << ": " << (p.ok() ? "" : p.diagnostics().front().message));
  REQUIRE(p.ok());
  return std::move(*p);
}

/// `valid` verifies; each named mutation of it does not, with E-RUN-102.
template <class Program>
void check_mutations(const Program& valid,
                     const std::vector<std::pair<std::string, std::function<void(Program&)>>>& m) {
  REQUIRE(ir::seq::verify(valid).ok());
  for (const auto& [what, mutate] : m) {
    INFO(what);
    Program p = valid;
    mutate(p);
    const auto r = ir::seq::verify(p);
    REQUIRE_FALSE(r.ok());
    CHECK(r.diagnostics().front().code == "E-RUN-102");
  }
}

} // namespace

TEST_CASE("seq verify: a Vector Engine pass refuses each broken invariant", "[seq][verify]") {
  const ir::seq::RunProgram run = lower_spec("specs/store_pass.rs");
  REQUIRE(run.vector);
  REQUIRE(run.vector->steps.size() == 1); // FpUnary Sqrt on an f32 stream
  using P = ir::seq::VectorProgram;
  check_mutations<P>(
      *run.vector,
      {{"a bf16 result", [](P& p) { p.out_type = ir::ScalarType::BF16; }},
       {"a step on another scalar than the stream's",
        [](P& p) { p.steps[0].dtype = ir::ScalarType::I32; }},
       {"an op of another kind", [](P& p) { p.steps[0].call.op = ir::FxpBinaryOp::AddFxp; }},
       {"a layout call among the value calls",
        [](P& p) { p.steps[0].call.kind = ir::VectorCallKind::NarrowSplit; }},
       {"a unary call reading the VRF",
        [](P& p) { p.steps[0].call.source = ir::VeOperandSource::Vrf; }},
       {"int_width 40", [](P& p) {
          p.steps[0].call.kind = ir::VectorCallKind::FpToFxp;
          p.steps[0].call.op = std::monostate{};
          p.steps[0].call.int_width = 40;
          p.out_type = ir::ScalarType::I32;
        }}});
}

TEST_CASE("seq verify: a fetch program refuses each broken invariant", "[seq][verify]") {
  const ir::seq::RunProgram run = lower_spec("specs/store_pass.rs");
  REQUIRE(run.fetches.size() == 1);
  using P = ir::seq::FetchProgram;
  check_mutations<P>(
      run.fetches[0],
      {{"an empty buffer", [](P& p) { p.buffer = 0; }},
       {"a sequencer walking other packets", [](P& p) { p.sequencer.packet_size += 1; }},
       {"a read too many per packet", [](P& p) { p.reads_per_packet += 1; }},
       {"cycles that are not one read each", [](P& p) { p.fetch_cycles += 1; }},
       {"a whole empty flit per packet", [](P& p) { p.flits_per_packet += 1; }},
       {"a stream of another scalar than the adapter's",
        [](P& p) { p.stream_type = ir::ScalarType::I8; }},
       {"a short command for a stream", [](P& p) {
          p.consumer = ir::seq::FetchConsumer::Stream;
          p.short_command = "StoVRF";
        }}});
}

TEST_CASE("seq verify: a contraction program refuses each broken invariant", "[seq][verify]") {
  const ir::seq::RunProgram run = lower_spec("specs/bmatmul_m_in_time.rs");
  REQUIRE_FALSE(run.is_move());
  using P = ir::seq::ContractionProgram;
  check_mutations<P>(run.contraction().chain,
                     {{"a cycle nest short of |OT|", [](P& p) { p.cycles += 1; }},
                      {"lane liveness of another size", [](P& p) { p.lane_live.push_back(true); }},
                      {"a drain past the accumulator", [](P& p) {
                         p.drain.back() = static_cast<std::int64_t>(p.accumulator_cells());
                       }}});
}

TEST_CASE("seq verify: a run program refuses each broken invariant", "[seq][verify]") {
  using P = ir::seq::RunProgram;
  check_mutations<P>(lower_spec("specs/bmatmul_m_in_time.rs"),
                     {{"a stream of another shape",
                       [](P& p) { p.contraction().stream.streams.cells.outer_size += 1; }},
                      {"a VRF operand on a contraction",
                       [](P& p) { p.vrf_operands.push_back(p.contraction().stream); }},
                      {"a broken chain", [](P& p) { p.contraction().chain.cycles += 1; }}});
  check_mutations<P>(
      lower_spec("specs/vrf_add.rs"),
      {{"a VRF read without its operand", [](P& p) { p.vrf_operands.clear(); }},
       {"a VRF operand of another shape",
        [](P& p) { p.vrf_operands[0].streams.cells.inner_size += 1; }},
       {"a broken pass", [](P& p) { p.vector->steps[0].dtype = ir::ScalarType::F32; }}});
  check_mutations<P>(lower_spec("specs/store_pass.rs"),
                     {{"a broken fetch", [](P& p) { p.fetches[0].fetch_cycles += 1; }},
                      {"a move's source of another shape",
                       [](P& p) { p.move().source.streams.cells.inner_size += 1; }},
                      {"pair mode with no operand holding group 1",
                       [](P& p) { p.move().pair_group_axis = "I"; }}});
  // A pair-mode pass keeps its grouping axis in the program (the oracle reads it there) and
  // refuses to lose the operand that holds group 1 (docs/vector-engine.md §3.5).
  const P pair = lower_spec("specs/ve_pair_add.rs");
  CHECK(pair.move().pair_group_axis == "I");
  CHECK(ir::seq::to_text(pair).find("pairs along I") != std::string::npos);
  check_mutations<P>(pair, {{"pair mode without its pass", [](P& p) {
                               p.vrf_operands.clear();
                               p.vector.reset();
                             }}});
}

TEST_CASE("seq verify: a write program refuses each broken invariant", "[seq][verify]") {
  const std::string rel = "specs/kernels/fetch_commit_simple.rs";
  const std::string text = testing::read_text_file(testing::source_path(rel));
  const ir::SpecAnalysis a = ir::analyze(SourceBuffer(rel, text));
  REQUIRE(a.file.kernels.size() == 1);
  const ir::Kernel& k = a.file.kernels.front();
  std::optional<std::size_t> commit;
  for (std::size_t i = 0; i < k.stages.size(); ++i)
    if (k.stages[i].unit() == ir::StageUnit::CommitEngine) commit = i;
  REQUIRE(commit);
  auto w = ir::seq::lower_commit(testing::checked(k), *commit);
  REQUIRE(w.ok());
  CHECK(w->stage == *commit);
  using P = ir::seq::CommitProgram;
  check_mutations<P>(
      *w, {{"an empty packet", [](P& p) { p.packet = 0; }},
           {"a sequencer walking other packets", [](P& p) { p.sequencer.packet_size += 1; }},
           {"more live packets than packets", [](P& p) { p.live_packets = p.time + 1; }},
           {"more live positions than a packet has", [](P& p) { p.valid = p.packet + 1; }},
           {"no element per write", [](P& p) { p.write_size = 0; }},
           {"writes wider than a packet", [](P& p) { p.write_size = p.packet + 1; }}});
  // Not a write: the lowering refuses it.
  CHECK_FALSE(ir::seq::lower_commit(testing::checked(k), 0).ok());
}
