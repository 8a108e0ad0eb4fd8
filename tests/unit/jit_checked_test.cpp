// Checked mode of the JIT ("[jit]"): the generated function guards every load and store and
// returns kRunBoundsViolation before touching memory when an address leaves its buffer. A
// verified program never does (jit_corpus_test.cpp runs every spec kernel checked); here the
// guards are driven directly with programs whose strides were corrupted (same shapes, addresses
// past the TRF or the stream), on correctly staged slices. run_contraction_jit itself refuses
// such a program before running it (E-RUN-102).
#include "tests/unit/jit_test_support.h"

#include "codegen/jit_compiled.h"
#include "runtime/exec/operand_staging.h"

#include <filesystem>

namespace fs = std::filesystem;
using namespace tujit;
using namespace tujit::testing::jit;

namespace {

ir::seq::ContractionProgram bmatmul() {
  auto spec =
      ir::load_spec((fs::path(TUJIT_SOURCE_DIR) / "specs" / "bmatmul_m_in_time.rs").string());
  REQUIRE(spec.ok());
  auto p = ir::seq::lower_contraction(spec->kernels[0]);
  REQUIRE(p.ok());
  return *p;
}

// Runs `compiled` on the first live slice of images staged for `staged_for`.
std::int32_t call(const codegen::CompiledContraction& compiled,
                  const ir::seq::ContractionProgram& staged_for, const Operands& o) {
  const auto sh = runtime::exec::staged_shape(staged_for);
  std::uint64_t s = 0;
  while (!staged_for.spatial_live[s]) ++s;
  runtime::exec::StagedSlice st;
  REQUIRE(runtime::exec::stage_slice(staged_for, sh, o.stream, o.trf, s, st));
  std::vector<std::uint32_t> out(sh.out_cells), scratch(sh.acc_cells);
  const auto& jc = dynamic_cast<const codegen::JitCompiledContraction&>(compiled);
  return jc.function()(st.stream, st.stream_present, st.trf, st.trf_present, out.data(),
                       scratch.data());
}

} // namespace

TEST_CASE("jit checked: addresses outside an operand are stopped", "[jit]") {
  const auto p = bmatmul();
  const Operands o = operands_for(p, 9);
  REQUIRE(p.cycle_nest.front().size >= 2);
  CHECK(call(*compile(p, true), p, o) == codegen::kRunOk);

  ir::seq::ContractionProgram past_trf = p;
  past_trf.cycle_nest.front().trf_stride += p.element; // same shapes, reads past |Element|
  CHECK(call(*compile(past_trf, true), p, o) == codegen::kRunBoundsViolation);

  ir::seq::ContractionProgram past_stream = p;
  past_stream.cycle_nest.front().flit_stride += p.time; // reads past |Time|
  CHECK(call(*compile(past_stream, true), p, o) == codegen::kRunBoundsViolation);

  auto refused = codegen::run_contraction_jit(*compile(past_trf, true), past_trf, o.stream, o.trf);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.diagnostics()[0].code == "E-RUN-102");
}
