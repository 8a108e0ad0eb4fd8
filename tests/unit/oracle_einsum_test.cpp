// The float64 oracle on small einsums worked out by hand: integers exact (with zero points and
// i32 wrap-around), floats with broadcast output axes, the hardware widening's subnormal flush,
// the tolerance bound of docs/contraction.md §9.5 on a cancelling sum, and the applicability check.
#include "ir/lang/kernel.h"
#include "ir/mapping/syntax.h"
#include "runtime/oracle/oracle.h"
#include "runtime/scalar/float_bits.h"

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
  auto r1 = oracle_not_applicable(out_part, {&trf_low}, axes);
  REQUIRE(r1.has_value());
  CHECK(r1->find("oracle not applicable") != std::string::npos);
  CHECK(r1->find("every 16-th coordinate of V") != std::string::npos);
  // V = 0 and 16 only: every V reads the weights of 16·(V / 16).
  CHECK_FALSE(oracle_not_applicable(out_full, {&trf_high}, axes).has_value());
  auto trf_uneven = mk(ir::TensorKind::Trf, "V / 4 % 2, V % 2", "N", "K"); // V ∈ {0, 1, 4, 5}
  CHECK(oracle_not_applicable(out_full, {&trf_uneven}, axes).has_value());
}

TEST_CASE("oracle: tolerance model of a corpus kernel", "[oracle]") {
  auto spec = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/bmatmul_k_in_time.rs");
  REQUIRE(spec.ok());
  auto m = tolerance_model_for_kernel(spec->kernels.at(0));
  REQUIRE(m.ok());
  // contract_packet::<m![1]> on OP = m![1 # 16]: depth 0 (docs/contraction.md §11 ex 1);
  // contract_time: OT = [V / 16, K] (2·32 = 64 flits) → T2 = V / 16 (2): 32 flits per cell.
  CHECK(m->tree_depth == 0);
  CHECK(m->flits == 32);
}
