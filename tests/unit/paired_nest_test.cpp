// codegen/paired_level.h: which cycle loop the JIT runs two steps of at once. Each expectation is
// worked out by hand from the slots the nest's cycles address.
#include "codegen/paired_level.h"

#include <catch2/catch.hpp>

using tujit::codegen::paired_level;
using tujit::ir::seq::CycleLoop;

namespace {

CycleLoop loop(std::uint64_t size, std::uint64_t trf, std::uint64_t slot) {
  CycleLoop l;
  l.size = size;
  l.flit_stride = 1;
  l.trf_stride = trf;
  l.slot_stride = slot;
  return l;
}

} // namespace

TEST_CASE("paired nest: M in Time pairs two rows that share the TRF and own their slots",
          "[paired]") {
  // [M : trf 0, slot 1] [K / 64 : trf 64, reduced]: rows m and m + 1 read the same TRF and
  // accumulate into slots m and m + 1.
  CHECK(paired_level({loop(1024, 0, 1), loop(4, 64, 0)}) == 0);
  CHECK(paired_level({loop(2, 0, 1)}) == 0); // the innermost loop itself
}

TEST_CASE("paired nest: no pair when the steps share a slot, the TRF or an odd count", "[paired]") {
  CHECK(paired_level({loop(4, 0, 0)}) == 1);                // a reduced digit: one slot
  CHECK(paired_level({loop(5, 0, 1)}) == 1);                // odd
  CHECK(paired_level({loop(4, 8, 1)}) == 1);                // different TRF elements
  CHECK(paired_level({loop(4, 0, 1), loop(2, 5, 1)}) == 2); // step s + 1's first slot is s's second
  CHECK(paired_level({loop(4, 0, 2), loop(2, 5, 1)}) == 0); // slots {2s, 2s + 1}: disjoint
}

TEST_CASE("paired nest: the innermost qualifying loop is chosen", "[paired]") {
  // Inner [2 : trf 0, slot 1] qualifies on its own (offsets {0}); the outer one would too.
  CHECK(paired_level({loop(4, 0, 2), loop(2, 0, 1)}) == 1);
  // Inner loop not pairable (TRF stride), outer one is: slots {0, 3, 6} + 9·s.
  CHECK(paired_level({loop(6, 0, 9), loop(3, 7, 3)}) == 0);
}
