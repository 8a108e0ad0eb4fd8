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

namespace {

const cycles::CommandCycles* command_with_switch(const cycles::KernelCycles& kc, std::size_t nth) {
  for (const cycles::CommandCycles& c : kc.commands)
    if (c.path && c.path->fetch && c.path->fetch->switch_engine && nth-- == 0) return &c;
  return nullptr;
}

std::uint64_t busy(const cycles::DataPathCycles& d, cycles::Stage s) {
  return d.stages[static_cast<std::size_t>(s)].busy;
}

} // namespace

// A switch between the Fetch Adapter and Collect is a stage of its data-path command
// (docs/cycle-model.md §13): L + max(flits, reads, ring) analytically, and a walk in which the
// ring hands on its output flits as it works.
TEST_CASE("switch cycles: a switch inside a fetch → collect command is a stage of its data path",
          "[cycles][switch]") {
  SECTION("CustomBroadcast ring 4 of specs/kernels/switch_moved_axis.rs") {
    auto file =
        ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/kernels/switch_moved_axis.rs");
    REQUIRE(file);
    auto kc = cycles::kernel_cycles(testing::checked(file->kernels[0]));
    REQUIRE(kc);
    REQUIRE(kc->commands.size() == 3); // to_dm, the switched fetch, to_hbm
    const cycles::CommandCycles* c = command_with_switch(*kc, 0);
    REQUIRE(c != nullptr);
    // Ring 4 · |InTime| = |B| = 8 · one 32 B flit per 16-element bf16 packet = 32 ring cycles;
    // Collect takes |B|·|Q| = 32 flits; the fetch makes one 32 B read per packet: 8 reads.
    CHECK(c->path->flits == 32);
    for (const cycles::DataPathCycles* d : {&*c->path_analytic, &*c->path_trace}) {
      CHECK(busy(*d, cycles::Stage::Switch) == 32);
      CHECK(busy(*d, cycles::Stage::Fetch) == 8);
      CHECK(d->total == 32);
      CHECK(d->bottleneck == cycles::Stage::Switch);
    }
    // Set-up: fetch, switch, collect, Commit Adapter, commit (M15), one cycle each.
    CHECK(c->setup == 5);
  }
  SECTION("MNIST's three relayouts (tests/data/mnist/mod.rs)") {
    auto file = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/tests/data/mnist/mod.rs");
    REQUIRE(file);
    const ir::Kernel* forward = nullptr;
    for (const ir::Kernel& k : file->kernels)
      if (k.name == "forward") forward = &k;
    REQUIRE(forward != nullptr);
    auto kc = cycles::kernel_cycles(testing::checked(*forward));
    REQUIRE(kc);
    REQUIRE(command_with_switch(*kc, 3) == nullptr);
    // fc1 bias: InterTranspose slice1 8, slice0 1 → ring 8; |InTime| = |H % 8| = 8; 2 B bf16
    // packet → 1 flit: 64 ring cycles. fc2 input: Broadcast1 slice1 256 → ring 256; |InTime| 1:
    // 256 cycles, and 256 flits reach Collect one per ring cycle (not all after the ring). fc2
    // bias: InterTranspose 16 × 16 → ring 256; |InTime| = |C| = 16: 4096.
    const std::uint64_t ring[] = {64, 256, 4096};
    for (std::size_t i = 0; i < 3; ++i) {
      INFO("switched command " << i);
      const cycles::CommandCycles* c = command_with_switch(*kc, i);
      REQUIRE(c != nullptr);
      CHECK(busy(*c->path_analytic, cycles::Stage::Switch) == ring[i]);
      CHECK(busy(*c->path_trace, cycles::Stage::Switch) == ring[i]);
      CHECK(c->path_analytic->total == ring[i]);
      CHECK(c->path_trace->total >= ring[i]);
      CHECK(c->path_trace->total <= ring[i] + 2);
    }
  }
}
