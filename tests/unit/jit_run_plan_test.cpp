// The plan compiled contraction code keeps of the program it ran (codegen/contraction_plan.h,
// "[jit-plan]"): it serves only the same program (code compiled from another program is refused
// with E-JIT-002, before and after a plan is kept, also when the kept program's own object is
// changed in place), it holds nothing of the inputs (new inputs on a kept plan, and inputs of the
// wrong type, are the interpreter's results and diagnostics), runs on 1, 2, 3 and 7 threads give
// the interpreter's bits, and an output the live slices do not cover is cleared on every run.
#include "codegen/contraction_plan.h"
#include "ir/seq/field_hash.h"
#include "tests/support/corpus_programs.h"
#include "tests/unit/jit_test_support.h"

using namespace tujit;
using namespace tujit::testing::jit;

namespace {

Result<runtime::RunResult> run(const codegen::CompiledContraction& code,
                               const ir::seq::RunProgram& p, const runtime::RunInputs& in,
                               unsigned threads = 1) {
  codegen::JitRunOptions ro;
  ro.threads = threads;
  return codegen::run_contraction_jit(code, p, in, ro);
}

std::string first_code(const Result<runtime::RunResult>& r) {
  return r.ok() || r.diagnostics().empty() ? "" : r.diagnostics().front().code;
}

/// The book's batched matmul, on seeded operands.
struct Bmatmul {
  ir::seq::ContractionProgram chain = bmatmul();
  testing::interp::ImageInputs in;
  explicit Bmatmul(std::uint64_t seed) {
    const Operands o = operands_for(chain, seed);
    in = testing::interp::image_inputs(chain, o.stream, o.trf);
  }
};

} // namespace

TEST_CASE("jit plan: code compiled from another program is refused, a plan kept or not",
          "[jit-plan]") {
  Bmatmul a(1);
  const auto code = compile(a.in.run.program);
  // Another program (the same chain with --ftz-results) before the code ran anything.
  ir::seq::RunProgram other = a.in.run.program;
  other.contraction().chain.ftz_results = !other.contraction().chain.ftz_results;
  CHECK(first_code(run(*code, other, a.in.inputs())) == "E-JIT-002");

  auto first = run(*code, a.in.run.program, a.in.inputs());
  REQUIRE(first.ok());
  // A plan is kept now: the other program is still refused, on any thread count.
  for (unsigned t : {1u, 2u}) CHECK(first_code(run(*code, other, a.in.inputs(), t)) == "E-JIT-002");

  // The kept program's own object changed in place: one drain entry, then a stream stride.
  ir::seq::RunProgram& p = a.in.run.program;
  REQUIRE(run(*code, p, a.in.inputs()).ok());
  const std::int64_t drained = p.contraction().chain.drain.front();
  p.contraction().chain.drain.front() = drained == 0 ? 1 : 0;
  CHECK(first_code(run(*code, p, a.in.inputs())) == "E-JIT-002");
  p.contraction().chain.drain.front() = drained;
  auto again = run(*code, p, a.in.inputs(), 2);
  REQUIRE(again.ok());
  CHECK(differences(*first, *again) == 0);

  // Only names differ: the same code runs it, to the same bits.
  ir::seq::RunProgram renamed = p;
  renamed.kernel_name += "_renamed";
  auto same = run(*code, renamed, a.in.inputs(), 3);
  REQUIRE(same.ok());
  CHECK(differences(*first, *same) == 0);
}

TEST_CASE("jit plan: it holds nothing of the inputs", "[jit-plan]") {
  Bmatmul a(2);
  const auto code = compile(a.in.run.program);
  REQUIRE(run(*code, a.in.run.program, a.in.inputs()).ok());
  // New operands on the kept plan, each thread count: the interpreter's bits, poison and MACs.
  std::uint64_t seed = 20;
  for (unsigned t : {1u, 2u, 3u, 7u}) {
    INFO("threads " << t);
    const Bmatmul b(++seed);
    CHECK(jit_vs_interp(*code, b.in.run.program, b.in.inputs(), t) == 0);
  }
  // An input of another type than the program reads is refused on a kept plan too.
  runtime::LogicalTensor wrong = a.in.trf;
  wrong.dtype = wrong.dtype == ir::ScalarType::BF16 ? ir::ScalarType::F32 : ir::ScalarType::BF16;
  const runtime::RunInputs bad = testing::chain_inputs(a.in.stream, wrong);
  CHECK(first_code(run(*code, a.in.run.program, bad)) == "E-RUN-004");
  CHECK(first_code(runtime::interpret(a.in.run.program, bad)) == "E-RUN-004");
}

TEST_CASE("jit plan: every corpus kernel on 1, 2, 3 and 7 threads is the interpreter's",
          "[jit-plan]") {
  std::uint64_t seed = 3000;
  for (const auto& chain : testing::corpus_programs()) {
    INFO(chain.kernel_name);
    const auto code = compile(chain);
    for (unsigned t : {1u, 2u, 3u, 7u}) {
      INFO("threads " << t);
      const Operands o = operands_for(chain, ++seed);
      CHECK(jit_vs_interp(*code, chain, o, t) == 0);
    }
    if (!chain.whole()) continue;
    const Operands o = operands_for(chain, seed);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(chain, o.stream, o.trf);
    auto planned = codegen::planned_contraction_run(*code, in.run.program, in.inputs());
    REQUIRE(planned.ok());
    CHECK(planned->plan->writes_whole_output);
  }
}

TEST_CASE("jit plan: output elements no live slice writes are zero on every run", "[jit-plan]") {
  // The book's batched matmul with its first slice dead: its output elements are written by no
  // slice, so each run clears the output first (the interpreter's output starts at zero).
  ir::seq::ContractionProgram chain = bmatmul();
  REQUIRE(chain.spatial_live.size() >= 2);
  chain.spatial_live.front() = 0;
  const auto code = compile(chain);
  std::uint64_t seed = 40;
  for (unsigned t : {1u, 2u, 1u, 3u}) {
    INFO("threads " << t);
    const Operands o = operands_for(chain, ++seed);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(chain, o.stream, o.trf);
    auto want = runtime::interpret(in.run.program, in.inputs());
    REQUIRE(want.ok());
    std::uint64_t zeros = 0;
    for (std::uint64_t i = 0; i < want->output.elements(); ++i) zeros += want->output.get(i) == 0;
    CHECK(zeros >= chain.output_cells()); // the dead slice's
    auto planned = codegen::planned_contraction_run(*code, in.run.program, in.inputs());
    REQUIRE(planned.ok());
    CHECK_FALSE(planned->plan->writes_whole_output);
    CHECK(jit_vs_interp(*code, in.run.program, in.inputs(), t) == 0);
  }
}

TEST_CASE("jit plan: made before the inputs hold their values, as tujit run does", "[jit-plan]") {
  // plan_contraction_run reads the inputs' types and shapes only: planned on operands whose
  // contents are still zero, then run once they are filled, the result is the interpreter's on
  // the filled operands; a program refused there is refused by the run too.
  Bmatmul a(50);
  const auto code = compile(a.in.run.program);
  runtime::LogicalTensor stream = a.in.stream, trf = a.in.trf;
  std::fill(stream.data.begin(), stream.data.end(), std::uint8_t{0});
  std::fill(trf.data.begin(), trf.data.end(), std::uint8_t{0});
  const runtime::RunInputs empty = testing::chain_inputs(stream, trf);
  REQUIRE(codegen::plan_contraction_run(*code, a.in.run.program, empty).ok());
  stream = a.in.stream; // filled in place: the same objects the plan saw
  trf = a.in.trf;
  CHECK(jit_vs_interp(*code, a.in.run.program, empty, 2) == 0);
  auto got = run(*code, a.in.run.program, empty);
  auto want = runtime::interpret(a.in.run.program, a.in.inputs());
  REQUIRE((got.ok() && want.ok()));
  CHECK(differences(*got, *want) == 0);

  ir::seq::RunProgram other = a.in.run.program;
  other.contraction().chain.ftz_results = !other.contraction().chain.ftz_results;
  CHECK_FALSE(codegen::plan_contraction_run(*code, other, empty).ok());
  CHECK(first_code(run(*code, other, empty)) == "E-JIT-002");
}

TEST_CASE("jit plan: prepared without the code, as tujit run --threads 2 does", "[jit-plan]") {
  // prepare_contraction_plan makes the plan from the program and the inputs' types alone, while
  // another thread loads the code; plan_contraction_run then keeps that very plan for code with
  // no poison shadow, and every run on it is the interpreter's, poison and MACs included.
  std::uint64_t seed = 5000;
  std::size_t prepared_kernels = 0;
  for (const auto& chain : testing::corpus_programs()) {
    INFO(chain.kernel_name);
    const Operands o = operands_for(chain, ++seed);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(chain, o.stream, o.trf);
    const ir::seq::RunProgram& p = in.run.program;
    const codegen::PreparedPlan prepared = codegen::prepare_contraction_plan(p, in.inputs());
    if (!chain.whole()) {
      CHECK(prepared == nullptr); // a part of a chain is planned by its run
      continue;
    }
    REQUIRE(prepared != nullptr);
    ++prepared_kernels;
    const auto code = compile(p);
    REQUIRE(codegen::plan_contraction_run(*code, p, in.inputs(), prepared).ok());
    auto planned = codegen::planned_contraction_run(*code, p, in.inputs());
    REQUIRE(planned.ok());
    CHECK(planned->plan == prepared);
    // The plan the code would have made itself holds the same poisoned set and MACs.
    const auto fresh = compile(p, /*checked=*/true);
    auto own = codegen::planned_contraction_run(*fresh, p, in.inputs());
    REQUIRE(own.ok());
    CHECK(own->plan != prepared);
    CHECK(own->plan->poison == prepared->poison);
    CHECK(own->plan->simulated_macs == prepared->simulated_macs);
    CHECK(own->plan->tables.flit_offset == prepared->tables.flit_offset);
    for (unsigned t : {1u, 2u}) CHECK(jit_vs_interp(*code, p, in.inputs(), t) == 0);
  }
  CHECK(prepared_kernels >= 5);
}

TEST_CASE("jit plan: a prepared plan serves only its program and code without a shadow",
          "[jit-plan]") {
  Bmatmul a(60);
  const ir::seq::RunProgram& p = a.in.run.program;
  // Code compiled with a poison shadow takes its poisoned set from the shadow: a new plan.
  const codegen::PreparedPlan prepared = codegen::prepare_contraction_plan(p, a.in.inputs());
  REQUIRE(prepared != nullptr);
  const auto shadowed = compile(p, /*checked=*/true);
  REQUIRE(codegen::plan_contraction_run(*shadowed, p, a.in.inputs(), prepared).ok());
  auto planned = codegen::planned_contraction_run(*shadowed, p, a.in.inputs());
  REQUIRE(planned.ok());
  CHECK(planned->plan != prepared);
  // A plan prepared from another program is not kept for this one.
  ir::seq::RunProgram other = p;
  other.contraction().chain.ftz_results = !other.contraction().chain.ftz_results;
  const codegen::PreparedPlan foreign = codegen::prepare_contraction_plan(other, a.in.inputs());
  REQUIRE(foreign != nullptr);
  const auto code = compile(p);
  REQUIRE(codegen::plan_contraction_run(*code, p, a.in.inputs(), foreign).ok());
  auto kept = codegen::planned_contraction_run(*code, p, a.in.inputs());
  REQUIRE(kept.ok());
  CHECK(kept->plan != foreign);
  CHECK(ir::seq::FieldEqual{}(kept->plan->program, p));
  CHECK(jit_vs_interp(*code, p, a.in.inputs(), 2) == 0);
}
