// The Switch Engine in the cycle models (docs/cycle-model.md §13): a kernel that is one switch on
// a FetchTensor parameter is one command whose pipeline cycles are the book's estimate
// `ring_size · |InTime| · flits_per_packet` (furiosa-opt
// docs/src/computing-tensors/switch-engine.md "Performance"), worked here by hand from each
// example's printed figures, behind one cycle of set-up.
#include "harness/cycles/kernel_cycles.h"
#include "ir/lang/kernel.h"
#include "tests/support/checked.h"

#include <catch2/catch.hpp>

#include <string>

using namespace tujit;

TEST_CASE("switch cycles: the book's examples as commands", "[cycles][switch]") {
  struct Case {
    const char* spec;
    std::uint64_t cycles;
  };
  const Case cases[] = {
      {"switch/broadcast01.rs", 4 * 64 * (4 * 64 / 32)},  // 2048
      {"switch/broadcast1.rs", 32 * 64 * (1 * 64 / 32)},  // 4096
      {"switch/transpose.rs", 64 * 64 * (1 * 64 / 32)},   // 8192
      {"switch/inter_transpose.rs", 32 * 8 * 1},          // 256
      {"switch/transposed_broadcast1.rs", 64 * 16 * 1},   // 1024
      {"switch/custom_permutation.rs", 256 * 8 * 8},      // 16384
      {"switch/custom_multi_broadcast.rs", 32 * 8 * 8},   // 2048
      {"switch/custom_partial_extraction.rs", 4 * 8 * 1}, // |InTime| 8 (the book counts 24)
  };
  for (const Case& c : cases) {
    INFO(c.spec);
    auto file = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/" + c.spec);
    REQUIRE(file);
    REQUIRE(file->kernels.size() == 1);
    auto kc = cycles::kernel_cycles(testing::checked(file->kernels[0]));
    REQUIRE(kc);
    REQUIRE(kc->commands.size() == 1);
    const cycles::CommandCycles& cmd = kc->commands[0];
    CHECK(cmd.kind == cycles::CommandKind::Switch);
    CHECK(cmd.analytic == c.cycles);
    CHECK(cmd.trace == c.cycles);
    CHECK(cmd.setup == 1);
    CHECK(kc->analytic_total == c.cycles + 1);
  }
}
