// Closed forms of the lowering against walks over every cycle: the digit-sum address streams
// stepped without divisions (ir/seq/digit_sum.h DigitWalker) against their direct evaluation, and
// the largest address of a cycle nest (all_cycles_below) against the largest address CycleWalker
// visits, on random terms and nests (wrapping strides included).
#include "ir/seq/contraction_program.h"
#include "ir/seq/digit_sum.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tujit;

TEST_CASE("digit sums: stepping cycle by cycle equals evaluating each cycle", "[seq-closed]") {
  std::mt19937_64 rng(20261202);
  for (int round = 0; round < 300; ++round) {
    ir::seq::DigitSum sum;
    for (int k = 0, n = static_cast<int>(rng() % 5); k < n; ++k)
      sum.terms.push_back({1 + rng() % 12, rng() % 4 == 0 ? 0 : 1 + rng() % 6,
                           rng() % 5 == 0 ? ~std::uint64_t{0} - rng() % 4 : rng() % 100});
    ir::seq::DigitWalker walk(sum);
    for (std::uint64_t t = 0; t < 600; ++t) {
      INFO("round " << round << ", cycle " << t);
      REQUIRE(walk.value() == sum(t));
      walk.advance();
    }
  }
}

TEST_CASE("cycle nests: all_cycles_below equals a walk over every cycle", "[seq-closed]") {
  std::mt19937_64 rng(20261203);
  std::size_t below = 0, not_below = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<ir::seq::CycleLoop> nest;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 4); k < n; ++k) {
      ir::seq::CycleLoop l;
      l.size = 1 + rng() % 6;
      l.slot_stride = rng() % 7 == 0 ? ~std::uint64_t{0} - rng() % 3 : rng() % 20;
      nest.push_back(l);
    }
    std::uint64_t largest = 0;
    bool wraps = false;
    ir::seq::CycleWalker walk(nest);
    do {
      largest = std::max(largest, walk.address().slot);
      // A wrapping stride is seen by the walk as an address past every bound tried here.
      wraps = wraps || walk.address().slot > (std::uint64_t{1} << 40);
    } while (walk.advance());
    const std::uint64_t bound = rng() % 120;
    const bool want = !wraps && largest < bound;
    INFO("round " << round);
    CHECK(ir::seq::all_cycles_below(nest, &ir::seq::CycleLoop::slot_stride, bound) == want);
    (want ? below : not_below)++;
  }
  CHECK(below >= 50);
  CHECK(not_below >= 50);
}
