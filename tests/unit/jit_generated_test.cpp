// The JIT against the reference interpreter on ≥ 1,000 generated valid kernels
// (tests/support/kernel_gen.h: every operand pair, 1/2/4/8 lanes, PackSize 1/2, both LaneModes,
// padding, broadcasts, partial packets, spatial axes), adversarial operand values, bit for bit
// ("[jit]"). Each kernel is compiled once; sizes are the generator's (small).
#include "tests/unit/jit_test_support.h"

#include "tests/support/checked.h"
#include "tests/support/kernel_gen.h"
#include "tests/support/reliability_generated.h"

#include <chrono>

using namespace tujit;
using namespace tujit::testing::jit;

TEST_CASE("jit generated: 1,000 random kernels match the interpreter bit for bit", "[jit]") {
  constexpr std::size_t kKernels = 1000;
  testing::KernelGenerator gen(20261129);
  std::size_t run = 0;
  std::uint64_t macs = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < kKernels; ++i) {
    const testing::AnalyzedKernel a = testing::next_analyzed(gen);
    INFO(a.context());
    // Every generated kernel is a valid complete chain: the lowering refuses none.
    auto p = ir::seq::lower_contraction(testing::checked(a.kernel()));
    if (!p) FAIL("lower_contraction refused it: " << p.diagnostics().front().message);
    const Operands o = operands_for(*p, 31 * i + 5);
    REQUIRE(jit_vs_interp(*p, o) == 0);
    macs += runtime::present_products(testing::chain_run_of(*p).program);
    ++run;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN(fmt::format("{} generated kernels run, {} products, {:.1f} s", run, macs, s));
  CHECK(run == kKernels);
}
