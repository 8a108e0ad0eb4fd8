// to_trf / to_vrf stores of the reference interpreter ("[interp]", docs/contraction.md §4.2, §4.3).
#include "tests/unit/interp_test_support.h"

#include "runtime/scalar/integer.h"
#include "tests/support/register_store.h"

#include "ir/mapping/syntax.h"

using namespace tujit;
using namespace tujit::testing::interp;

namespace {

ir::SpecFile store_spec(const std::string& axes, const std::string& dtype, const std::string& time,
                        const std::string& packet, const std::string& target) {
  return parse_spec("use furiosa_opt_std::prelude::*;\naxes![" + axes +
                    "];\nfn k<'l, const T: Tu>(input: CollectTensor<'l, T, " + dtype +
                    ", m![1], m![1 # 2], m![1 # 256], m![" + time + "], m![" + packet + "]>) -> " +
                    target + " {\n  input." +
                    (target.rfind("Trf", 0) == 0 ? "to_trf()" : "to_vrf()") + "\n}\n");
}

} // namespace

TEST_CASE("interp: to_trf deals flit f to lane f / FPL at offset (f mod FPL)·|Packet|",
          "[interp]") {
  // i4: 64 elements per flit; Time [L, X] = 8 flits over 2 lanes → FPL 4, Element [X, K].
  // The TRF holds the i4 values unchanged (the i4 → i5 promotion preserves values, §4.1).
  const auto file = store_spec("L = 2, X = 4, K = 64", "i4", "L, X", "K",
                               "TrfTensor<i4, m![1], m![1 # 2], m![1 # 256], m![L], m![X, K]>");
  const ir::Stage& st = file.kernels.at(0).stages.back();
  REQUIRE(st.op == ir::StageOp::ToTrf);
  DeviceImage stream(ir::ScalarType::I4, 512, 8, 64);
  for (std::uint64_t f = 0; f < 8; ++f)
    for (std::uint64_t e = 0; e < 64; ++e) {
      const auto k = stream.index(0, f, e);
      stream.state[k] = CellState::Live;
      stream.bits[k] = static_cast<std::uint32_t>(
          runtime::wrap(static_cast<std::int32_t>(f * 13 + e), 4)); // sign-extended i4
    }
  auto trf = testing::run_store(st, stream);
  REQUIRE(trf.ok());
  CHECK(trf->dtype == ir::ScalarType::I4);
  REQUIRE(trf->outer == 2);
  REQUIRE(trf->inner == 256);
  std::uint64_t bad = 0;
  for (std::uint64_t f = 0; f < 8; ++f)
    for (std::uint64_t e = 0; e < 64; ++e) {
      const auto k = trf->index(0, f / 4, (f % 4) * 64 + e);
      if (trf->state[k] != CellState::Live ||
          static_cast<std::int32_t>(trf->bits[k]) !=
              runtime::wrap(static_cast<std::int32_t>(f * 13 + e), 4))
        ++bad;
    }
  CHECK(bad == 0);
  CHECK(static_cast<std::int32_t>(trf->bits[trf->index(0, 0, 8)]) == -8); // f 0, e 8: wrap(8) = -8
  // Through the kernel-level entry point as well.
  auto again = testing::run_to_trf(file.kernels.at(0), stream);
  REQUIRE(again.ok());
  CHECK(again->bits == trf->bits);
  CHECK_FALSE(testing::run_to_vrf(file.kernels.at(0), stream).ok());
}

TEST_CASE("interp: to_vrf relayouts by coordinates and zero-fills unwritten cells", "[interp]") {
  // Time [A] (4 flits of 8 i32) → Element [B, A # 8]: destination b·8 + a ← source (a, b);
  // the 32 padding cells are zero-filled.
  const auto file = store_spec("A = 4, B = 8", "i32", "A", "B",
                               "VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![B, A # 8]>");
  const ir::Stage& st = file.kernels.at(0).stages.back();
  REQUIRE(st.op == ir::StageOp::ToVrf);
  DeviceImage stream(ir::ScalarType::I32, 512, 4, 8);
  for (std::uint64_t a = 0; a < 4; ++a)
    for (std::uint64_t b = 0; b < 8; ++b) {
      stream.state[stream.index(0, a, b)] = CellState::Live;
      stream.bits[stream.index(0, a, b)] = static_cast<std::uint32_t>(1000 + 10 * a + b);
    }
  auto vrf = testing::run_store(st, stream);
  REQUIRE(vrf.ok());
  REQUIRE(vrf->outer == 1);
  REQUIRE(vrf->inner == 64);
  std::uint64_t bad = 0;
  for (std::uint64_t b = 0; b < 8; ++b)
    for (std::uint64_t a = 0; a < 8; ++a) {
      const auto k = vrf->index(0, 0, b * 8 + a);
      if (a < 4) {
        if (vrf->state[k] != CellState::Live || vrf->bits[k] != 1000 + 10 * a + b) ++bad;
      } else if (vrf->state[k] != CellState::Zero || vrf->bits[k] != 0) {
        ++bad;
      }
    }
  CHECK(bad == 0);
}

TEST_CASE("interp: a store refuses a stream image of the wrong shape", "[interp]") {
  const auto file = store_spec("A = 4, B = 8", "i32", "A", "B",
                               "VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![B, A]>");
  DeviceImage stream(ir::ScalarType::I32, 512, 2, 8);
  auto r = testing::run_store(file.kernels.at(0).stages.back(), stream);
  REQUIRE_FALSE(r.ok());
  CHECK(r.diagnostics()[0].code == "E-RUN-102");
}
