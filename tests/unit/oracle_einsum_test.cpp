// The float64 oracle on small einsums worked out by hand: integers exact (with zero points and
// i32 wrap-around), floats with broadcast output axes, the hardware widening's subnormal flush,
// the tolerance bound of docs/contraction.md §9.5 on a cancelling sum, and the applicability check.
#include "ir/lang/kernel.h"
#include "ir/mapping/syntax.h"
#include "ir/seq/lower_contraction.h"
#include "ir/seq/run_operands.h"
#include "runtime/oracle/oracle.h"
#include "runtime/scalar/float_bits.h"

#include "tests/support/checked.h"
#include "tests/support/tensor_values.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

using namespace tujit;
using namespace tujit::runtime;
using ir::ScalarType;

namespace {
LogicalTensor ints(ScalarType t, std::vector<ir::Axis> axes, std::vector<std::int32_t> v) {
  std::vector<std::uint32_t> c;
  for (auto e : v) c.push_back(static_cast<std::uint32_t>(e));
  return testing::tensor_of(t, std::move(axes), c);
}
LogicalTensor bf16(std::vector<ir::Axis> axes, std::vector<float> v) {
  std::vector<std::uint32_t> c;
  for (float f : v) c.push_back(f32_bits(f) >> 16); // all values below are exact in bf16
  return testing::tensor_of(ScalarType::BF16, std::move(axes), c);
}
LogicalTensor f32s(std::vector<ir::Axis> axes, std::vector<float> v) {
  std::vector<std::uint32_t> c;
  for (float f : v) c.push_back(f32_bits(f));
  return testing::tensor_of(ScalarType::F32, std::move(axes), c);
}
const ir::Axis M{"M", 2}, N{"N", 2}, K{"K", 3};

/// The tolerance model of the kernel's lowered chain (the whole chain, or the part it runs).
Result<ToleranceModel> chain_tolerance(const ir::Kernel& k) {
  auto stages = ir::seq::find_contraction_stages(k);
  if (!stages) return std::move(stages).take_diagnostics();
  auto chain = ir::seq::lower_contraction(testing::checked(k), stages->first, stages->last);
  if (!chain) return std::move(chain).take_diagnostics();
  return tolerance_model(*chain);
}

} // namespace

TEST_CASE("oracle: integer einsum matches exactly", "[oracle]") {
  // a[M][K] = [[1,2,3],[4,5,6]], b[N][K] = [[1,0,-1],[2,2,2]]: out[m][n] = Σ_k a·b
  // = [[1-3, 2+4+6], [4-6, 8+10+12]] = [[-2, 12], [-2, 30]].
  auto a = ints(ScalarType::I8, {M, K}, {1, 2, 3, 4, 5, 6});
  auto b = ints(ScalarType::I8, {N, K}, {1, 0, -1, 2, 2, 2});
  auto ref = einsum_oracle({&a}, {&b}, {M, N});
  REQUIRE(ref.ok());
  CHECK(ref->accumulator == ScalarType::I32);
  CHECK(ref->exact == std::vector<std::int32_t>{-2, 12, -2, 30});
  CHECK(ref->products_per_output == 3);
  REQUIRE(ref->contracted.size() == 1);
  CHECK(ref->contracted[0].name == "K");
  auto out = ints(ScalarType::I32, {M, N}, {-2, 12, -2, 30});
  auto c = compare_with_oracle(*ref, out, {});
  REQUIRE(c.ok());
  CHECK(c->ok);
  CHECK(c->checked == 4);
  out.set(2, 0xFFFFFFFDu); // -3: off by one
  c = compare_with_oracle(*ref, out, {});
  REQUIRE(c.ok());
  CHECK_FALSE(c->ok);
  CHECK(c->mismatches == 1);
  REQUIRE(c->first_mismatches.size() == 1);
  CHECK(c->first_mismatches[0].coordinate == "M=1, N=0");
  CHECK(c->first_mismatches[0].expected == -2);
  CHECK(c->first_mismatches[0].actual == -3);
  // Zero points: (a - 1)·(b - (-1)) for one element: (3 - 1)·(-1 + 1) = 0, (6-1)·(2+1) = 15.
  auto zp = einsum_oracle({&a, 1}, {&b, -1}, {M, N});
  REQUIRE(zp.ok());
  // m=0,n=0: (0)(2) + (1)(1) + (2)(0) = 1; m=0,n=1: (0+1+2)·3 = 9;
  // m=1,n=0: 3·2 + 4·1 + 5·0 = 10; m=1,n=1: (3+4+5)·3 = 36.
  CHECK(zp->exact == std::vector<std::int32_t>{1, 9, 10, 36});
}

TEST_CASE("oracle: i32 wrap-around of a long integer sum", "[oracle]") {
  // 65536 products of (-128 - 127)·(-128 - 127) = 65025: 65025·65536 = 4261478400, which wraps
  // to 4261478400 - 2^32 = -33488896 in the i32 accumulator (docs/contraction.md §9.1).
  ir::Axis big{"K", 65536};
  LogicalTensor a =
      testing::tensor_of(ScalarType::I8, {big}, std::vector<std::uint32_t>(65536, 0xFFFFFF80u));
  auto ref = einsum_oracle({&a, 127}, {&a, 127}, {});
  REQUIRE(ref.ok());
  REQUIRE(ref->exact.size() == 1);
  CHECK(ref->exact[0] == -33488896);
}

TEST_CASE("oracle: float einsum with a broadcast output axis", "[oracle]") {
  // a[M][K2] = [[1, 2], [3, 4]], b[N3][K2] = [[0.5, 1], [1, 1], [-1, 2]]; P is in the output
  // only. out[m][n][p] = [[2.5, 3, 3], [5.5, 7, 5]] for both p.
  ir::Axis K2{"K", 2}, N3{"N", 3}, P{"P", 2};
  auto a = bf16({M, K2}, {1, 2, 3, 4});
  auto b = bf16({N3, K2}, {0.5f, 1, 1, 1, -1, 2});
  auto ref = einsum_oracle({&a}, {&b}, {M, N3, P});
  REQUIRE(ref.ok());
  CHECK(ref->accumulator == ScalarType::F32);
  CHECK(ref->value == std::vector<double>{2.5, 2.5, 3, 3, 3, 3, 5.5, 5.5, 7, 7, 5, 5});
  // Σ|products| for m=0, n=2: |-1| + |4| = 5.
  CHECK(ref->abs_sum[4] == 5.0);
  auto out = f32s({M, N3, P}, {2.5f, 2.5f, 3, 3, 3, 3, 5.5f, 5.5f, 7, 7, 5, 5});
  auto c = compare_with_oracle(*ref, out, {1, 1});
  REQUIRE(c.ok());
  CHECK(c->ok);
  CHECK(c->max_abs_err == 0);
  out.set(9, f32_bits(7.001f));
  c = compare_with_oracle(*ref, out, {1, 1});
  CHECK_FALSE(c->ok);
  CHECK(c->first_mismatches.at(0).coordinate == "M=1, N=1, P=1");
}

TEST_CASE("oracle: bf16 subnormals are flushed by the widening", "[oracle]") {
  ir::Axis K1{"K", 1};
  LogicalTensor a = testing::tensor_of(ScalarType::BF16, {K1}, {0x0001u}); // subnormal 2^-133
  auto b = bf16({K1}, {1.0f});
  auto ref = einsum_oracle({&a}, {&b}, {});
  REQUIRE(ref.ok());
  CHECK(ref->value[0] == 0.0); // widen_bf16 flushes to zero (docs/contraction.md §2.1)
}

TEST_CASE("oracle: the tolerance on a cancelling float sum", "[oracle]") {
  // Products 2^24, 1, -2^24, 1: exact sum 2, Σ|p| = 2^25 + 2. A depth-2 tree over one flit:
  // tol = (2 + 1)·2^-24·(2^25 + 2)·(1 + 2^-16) + 4·2^-149 + 4·2^-52·(2^25 + 2)
  //     = 6.00000036·1.0000152588 + ~3e-8 ≈ 6.0000920.
  ir::Axis K4{"K", 4};
  auto a = bf16({K4}, {16777216.0f, 1, -16777216.0f, 1});
  auto b = bf16({K4}, {1, 1, 1, 1});
  auto ref = einsum_oracle({&a}, {&b}, {});
  REQUIRE(ref.ok());
  CHECK(ref->value[0] == 2.0);
  CHECK(ref->abs_sum[0] == 33554434.0);
  const ToleranceModel model{2, 1};
  const double tol = oracle_tolerance(model, ref->abs_sum[0], 4);
  CHECK(tol == Approx(6.0000920).epsilon(1e-7));
  // The adjacent-pair tree in f32: (2^24 + 1) rounds to 2^24, (-2^24 + 1) to -2^24 + 1 (exact),
  // sum = 1. Error 1 ≤ tol: accepted. A result of 0 (error 2) is accepted too; 9 (error 7) not.
  for (float got : {1.0f, 0.0f, 2.0f, 8.0f})
    CHECK(compare_with_oracle(*ref, f32s({}, {got}), model)->ok);
  CHECK_FALSE(compare_with_oracle(*ref, f32s({}, {9.0f}), model)->ok);
  CHECK(compare_with_oracle(*ref, f32s({}, {9.0f}), model)->max_err_over_tolerance > 1.0);
  // NaN is never within tolerance of a finite value.
  CHECK_FALSE(compare_with_oracle(*ref, f32s({}, {NAN}), model)->ok);
}

TEST_CASE("oracle: refusals and applicability", "[oracle]") {
  auto a = ints(ScalarType::I8, {M, K}, {1, 2, 3, 4, 5, 6});
  auto b = bf16({N, K}, {1, 1, 1, 1, 1, 1});
  auto bad = einsum_oracle({&a}, {&b}, {M, N});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.diagnostics().front().code == "E-ORACLE-001");
  auto wrong = compare_with_oracle(*einsum_oracle({&a}, {&a}, {M}), f32s({M}, {0, 0}), {});
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.diagnostics().front().code == "E-ORACLE-003");

  auto axes = *ir::parse_axes_text("V = 32, N = 8, K = 2");
  auto mk = [&](ir::TensorKind kind, const char* slice, const char* time, const char* packet) {
    ir::TensorType t;
    t.kind = kind;
    t.dtype = ScalarType::BF16;
    t.set(ir::Slot::Slice, {*ir::parse_mapping_text(slice, axes), {}});
    t.set(kind == ir::TensorKind::Trf ? ir::Slot::Lane : ir::Slot::Time,
          {*ir::parse_mapping_text(time, axes), {}});
    t.set(kind == ir::TensorKind::Trf ? ir::Slot::Element : ir::Slot::Packet,
          {*ir::parse_mapping_text(packet, axes), {}});
    return t;
  };
  auto out_full = mk(ir::TensorKind::Contract, "V % 16", "V / 16", "N");
  auto out_part = mk(ir::TensorKind::Contract, "1", "V / 16", "N");
  auto trf_low = mk(ir::TensorKind::Trf, "V % 16", "N", "K");  // replicated over V / 16
  auto trf_high = mk(ir::TensorKind::Trf, "V / 16", "N", "K"); // only V = 0 and 16
  CHECK_FALSE(oracle_not_applicable(out_full, {&trf_low}, axes).has_value());
  // The output holds V = 0 and 16: one sum per block of 16 V (the einsum over V / 16 × V % 16).
  CHECK_FALSE(oracle_not_applicable(out_part, {&trf_low}, axes).has_value());
  auto blocks = held_reductions(out_part, {&trf_low}, axes);
  REQUIRE(blocks.ok());
  REQUIRE(blocks->size() == 1);
  CHECK(blocks->front().axis == "V");
  CHECK(blocks->front().stride == 16);
  CHECK(blocks->front().count == 16);
  CHECK(blocks->front().block == "V / 16");
  // V = 0 and 16 only: every V reads the weights of 16·(V / 16).
  CHECK_FALSE(oracle_not_applicable(out_full, {&trf_high}, axes).has_value());
  // An output and a TRF that both hold V = 0 and 16 only (docs/mapping.md §3.1): each output cell
  // is the einsum at its V, nothing of its block is summed (step 16, one coordinate).
  auto alone = held_reductions(out_part, {&trf_high}, axes);
  REQUIRE(alone.ok());
  REQUIRE(alone->size() == 1);
  CHECK(alone->front().axis == "V");
  CHECK(alone->front().stride == 16);
  CHECK(alone->front().count == 1);
  CHECK(alone->front().step == 16);
  CHECK(alone->front().block == "V / 16");
  // An output holding every second V against that TRF: its blocks of 2 hold no coordinate of the
  // TRF past the first block, so no einsum describes the kernel.
  auto out_every2 = mk(ir::TensorKind::Contract, "1", "V / 2", "N");
  auto uneven = held_reductions(out_every2, {&trf_high}, axes);
  REQUIRE_FALSE(uneven.ok());
  CHECK(uneven.diagnostics().front().code == "E-ORACLE-004");
  auto trf_uneven = mk(ir::TensorKind::Trf, "V / 4 % 2, V % 2", "N", "K"); // V ∈ {0, 1, 4, 5}
  CHECK(oracle_not_applicable(out_full, {&trf_uneven}, axes).has_value());
}

TEST_CASE("oracle: tolerance model of a corpus kernel", "[oracle]") {
  auto spec = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/bmatmul_k_in_time.rs");
  REQUIRE(spec.ok());
  auto m = chain_tolerance(spec->kernels.at(0));
  REQUIRE(m.ok());
  // contract_packet::<m![1]> on OP = m![1 # 16]: depth 0 (docs/contraction.md §11 ex 1);
  // contract_time: OT = [V / 16, K] (2·32 = 64 flits) → T2 = V / 16 (2): 32 flits per cell.
  CHECK(m->tree_depth == 0);
  CHECK(m->flits == 32);
}

TEST_CASE("oracle: one partial sum per block of an axis", "[oracle]") {
  // a[T] = [1, 2, 3, 4], b[T] = [1, 10, 100, 2] (T = 4): an output over "T / 2" holds T = 0
  // and 2, each cell summing its block of 2: [1·1 + 2·10, 3·100 + 4·2] = [21, 308].
  const ir::Axis T{"T", 4}, Tb{"T / 2", 2};
  auto a = ints(ScalarType::I8, {T}, {1, 2, 3, 4});
  auto b = ints(ScalarType::I8, {T}, {1, 10, 100, 2});
  auto ref = einsum_oracle({&a}, {&b}, {Tb}, kDefaultMaxElements, {{"T", 2, 2, "T / 2"}});
  REQUIRE(ref.ok());
  CHECK(ref->exact == std::vector<std::int32_t>{21, 308});
  CHECK(ref->products_per_output == 2);
  // Without the block the einsum would sum all of T (329) into each cell: the block matters.
  auto all = einsum_oracle({&a}, {&b}, {}, kDefaultMaxElements);
  REQUIRE(all.ok());
  CHECK(all->exact == std::vector<std::int32_t>{329});
}

TEST_CASE("oracle: one operand summed or moved (a part of a chain)", "[oracle]") {
  // in[M][K] = [[1, 2, 3], [4, 5, 6]] (f32): over [M] the rows sum to [6, 15]; over [K, M] every
  // value moves (nothing summed) and must come back exactly.
  auto in = f32s({M, K}, {1, 2, 3, 4, 5, 6});
  auto sums = reduction_oracle(in, {M});
  REQUIRE(sums.ok());
  CHECK(sums->value == std::vector<double>{6, 15});
  CHECK(sums->products_per_output == 3);
  auto moved = reduction_oracle(in, {K, M});
  REQUIRE(moved.ok());
  CHECK(moved->value == std::vector<double>{1, 4, 2, 5, 3, 6});
  auto out = f32s({K, M}, {1, 4, 2, 5, 3, 6});
  ToleranceModel exact; // a relocation rounds nothing: d = 0, no flits
  exact.flits = 0;
  auto c = compare_with_oracle(*moved, out, exact);
  REQUIRE(c.ok());
  CHECK(c->ok);
  out.set(3, f32_bits(std::nextafter(5.0f, 6.0f))); // one ulp off
  c = compare_with_oracle(*moved, out, exact);
  REQUIRE(c.ok());
  CHECK_FALSE(c->ok);
  CHECK(c->first_mismatches.at(0).coordinate == "K=1, M=1");
}

TEST_CASE("oracle: a data move compares the cells the output holds", "[oracle]") {
  // in[M][K] = [[1, 2, 3], [4, 5, 6]] (i8).
  auto in = ints(ScalarType::I8, {M, K}, {1, 2, 3, 4, 5, 6});
  // The same axes in another order.
  auto permuted = compare_moved(in, ints(ScalarType::I8, {K, M}, {1, 4, 2, 5, 3, 6}));
  REQUIRE(permuted.ok());
  CHECK(permuted->ok);
  CHECK(permuted->checked == 6);
  // A prefix tile of K (the first 2) and every other K ("K / 2": K = 0 and 2).
  auto tile = compare_moved(in, ints(ScalarType::I8, {M, ir::Axis{"K", 2}}, {1, 2, 4, 5}));
  REQUIRE(tile.ok());
  CHECK(tile->ok);
  auto block = compare_moved(in, ints(ScalarType::I8, {M, ir::Axis{"K / 2", 2}}, {1, 3, 4, 6}));
  REQUIRE(block.ok());
  CHECK(block->ok);
  // A wrong cell is found at its coordinates.
  auto wrong = compare_moved(in, ints(ScalarType::I8, {K, M}, {1, 4, 2, 5, 6, 3}));
  REQUIRE(wrong.ok());
  CHECK_FALSE(wrong->ok);
  CHECK(wrong->mismatches == 2);
  CHECK(wrong->worst == "K=2, M=0");
  // An output that drops an input axis, or names one the input lacks, is no move of it.
  auto dropped = compare_moved(in, ints(ScalarType::I8, {K}, {1, 2, 3}));
  REQUIRE_FALSE(dropped.ok());
  CHECK(dropped.diagnostics().front().code == "E-ORACLE-003");
  auto foreign = compare_moved(in, ints(ScalarType::I8, {M, N}, {1, 2, 3, 4}));
  REQUIRE_FALSE(foreign.ok());
  // An axis only the output names is a broadcast: out[N][M][K] = in[M][K] for each N.
  auto copied =
      compare_moved(in, ints(ScalarType::I8, {N, M, K}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6}));
  REQUIRE(copied.ok());
  CHECK(copied->ok);
  CHECK(copied->checked == 12);
  auto miscopied =
      compare_moved(in, ints(ScalarType::I8, {M, N, K}, {1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 7}));
  REQUIRE(miscopied.ok());
  CHECK_FALSE(miscopied->ok);
  CHECK(miscopied->mismatches == 1);
  CHECK(miscopied->worst == "M=1, N=1, K=2");
}

TEST_CASE("oracle: the tolerance of a part of a chain counts only the stages it runs", "[oracle]") {
  // specs/lane_interleaved.rs runs the Lane Folder alone: nothing is rounded (d = 0, no flits).
  auto spec = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/lane_interleaved.rs");
  REQUIRE(spec.ok());
  auto m = chain_tolerance(spec->kernels.at(0));
  REQUIRE(m.ok());
  CHECK(m->tree_depth == 0);
  CHECK(m->flits == 0);
}
