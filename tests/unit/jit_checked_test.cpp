// Checked mode of the JIT ("[jit]"): the generated function guards every load and store and
// returns kRunBoundsViolation before touching memory when an address leaves its buffer. A
// verified program never does (jit_corpus_test.cpp runs every spec kernel checked); here the
// guards are driven directly with programs whose strides were corrupted (same shapes, addresses
// past the TRF or the stream), on correctly staged slices. run_contraction_jit itself refuses
// such a program before running it (ir::seq::verify, E-RUN-102). Over generated kernels
// (tests/support/kernel_gen.h), checked code never stops a run and computes the unchecked code's
// bits: evidence that the unchecked address streams stay inside their buffers for random kernels;
// its poisoned set, computed by its own shadow (codegen/poison_emit.h), equals the one the
// unchecked run takes from runtime::analyze_poison, on kernels with poisoned outputs too.
#include "tests/unit/jit_test_support.h"

#include "codegen/contraction_emit.h"
#include "codegen/host_target.h"
#include "codegen/stream_widen.h"
#include "runtime/engine/result_diff.h"
#include "runtime/exec/operand_staging.h"
#include "tests/support/chain_run.h"
#include "tests/support/checked.h"
#include "tests/support/reliability_generated.h"

#include <chrono>
#include <filesystem>

namespace fs = std::filesystem;
using namespace tujit;
using namespace tujit::testing::jit;

namespace {

// Runs `compiled` on the first live slice of the chain `staged_for` run on images `o`: its
// staged TRF, tables and the logical inputs, without run_contraction_jit's checks.
std::int32_t call(const codegen::CompiledContraction& compiled,
                  const ir::seq::ContractionProgram& staged_for, const Operands& o) {
  const testing::interp::ImageInputs in =
      testing::interp::image_inputs(staged_for, o.stream, o.trf);
  const ir::seq::RunProgram& rp = in.run.program;
  const auto sh = runtime::exec::staged_shape(rp, codegen::byte_dot(codegen::native_host_dot()));
  const auto tables = runtime::exec::program_tables(rp, codegen::kNoOutput);
  const std::uint64_t s = rp.live_slices().front();
  runtime::exec::StagedTrf trf;
  runtime::exec::stage_trf(rp, sh, in.trf, s, trf);
  std::vector<std::uint32_t> scratch(sh.acc_cells);
  auto out = runtime::make_logical_tensor(rp.output.dtype, rp.output.axes);
  REQUIRE(out.ok());
  REQUIRE(codegen::stream_widen(rp.contraction().stream) != codegen::StreamWiden::Prewidened);
  const std::uint64_t sb = rp.contraction().stream.streams.spatial.offset(s);
  const std::uint64_t ob = rp.output.spatial.offset(s);
  codegen::ContractionArgs args{};
  args.stream = in.stream.data.data() + sb * codegen::stream_load_bytes(rp.contraction().stream);
  args.stream_limit = in.stream.elements() - sb;
  args.trf = trf.values.data();
  args.trf_present = sh.trf_masks ? trf.present.data() : nullptr;
  args.out = out->data.data() + ob * 4;
  args.out_limit = out->elements() - ob;
  args.scratch = scratch.data();
  args.flit_offset = tables.flit_offset.data();
  args.flit_live = tables.flit_live.empty() ? nullptr : tables.flit_live.data();
  args.out_offset = tables.out_offset.data();
  return compiled.function<codegen::ContractionFn>()(&args);
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

  // The run itself refuses such a program before running it (ir::seq::verify).
  const testing::interp::ImageInputs in = testing::interp::image_inputs(past_trf, o.stream, o.trf);
  auto refused =
      codegen::run_contraction_jit(*compile(past_trf, true), in.run.program, in.inputs());
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.diagnostics()[0].code == "E-RUN-102");
}

TEST_CASE("jit checked: 100 generated kernels stay inside their operands, same bits as unchecked",
          "[jit]") {
  // Every shape the generator makes: both operand sources (the chain lowers the same either
  // way), Top-padded reduced cycles and the spec-valid shapes of its known findings. A kernel
  // lower_contraction refuses has no program to run; those are counted, and another is drawn.
  testing::KernelGenOptions options;
  options.form = testing::KernelForm::Mixed;
  options.allow_padded_reduced_cycles = true;
  options.allow_known_findings = true;
  testing::KernelGenerator gen(20260310, options);
  constexpr std::size_t kKernels = 100;
  std::size_t run = 0, not_lowered = 0, dm = 0, poisoned = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; run < kKernels && i < 3 * kKernels; ++i) {
    const testing::AnalyzedKernel a = testing::next_analyzed(gen);
    INFO(a.context());
    auto p = ir::seq::lower_contraction(testing::checked(a.kernel()));
    if (!p) {
      // kernel_gen.h findings 1 and 2: the lowering's internal "packet-cycle boundaries do not
      // nest" and the layout's "overshoots axis K".
      for (const auto& d : p.diagnostics()) {
        INFO(d.message);
        CHECK((d.code == "E-RUN-101" || d.code == "E-RUN-002"));
      }
      ++not_lowered;
      continue;
    }
    // kernel_gen.h finding 2: a padded K cut into a Time and a Packet digit overshoots the axis
    // when the streams are made (the same E-RUN-002).
    if (auto streams = testing::chain_run(*p); !streams) {
      for (const auto& d : streams.diagnostics()) {
        INFO(d.message);
        CHECK(d.code == "E-RUN-002");
      }
      ++not_lowered;
      continue;
    }
    const Operands o = operands_for(*p, 17 * i + 3);
    const testing::interp::ImageInputs in = testing::interp::image_inputs(*p, o.stream, o.trf);
    auto plain =
        codegen::run_contraction_jit(*compile(in.run.program), in.run.program, in.inputs());
    auto checked =
        codegen::run_contraction_jit(*compile(in.run.program, true), in.run.program, in.inputs());
    if (!checked)
      for (const auto& d : checked.diagnostics()) {
        UNSCOPED_INFO(render(d, nullptr));
        CHECK(d.code != "E-JIT-003");
      }
    REQUIRE(plain.ok());
    REQUIRE(checked.ok());
    const auto diff = runtime::first_difference(*plain, *checked);
    INFO(diff.value_or(""));
    CHECK_FALSE(diff.has_value());
    ++run;
    dm += a.generated.features.form == "dm";
    poisoned += checked->poison.poisoned_outputs > 0;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN(fmt::format("{} generated kernels run checked ({} DM-fed, {} with poisoned outputs), {} not "
                   "lowered, {:.1f} s",
                   run, dm, poisoned, not_lowered, s));
  CHECK(run == kKernels);
  CHECK(poisoned > 0); // the checked shadow's poisoned sets were compared with analyze_poison's
}
