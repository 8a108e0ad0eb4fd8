// The intra-slice reduce (docs/vector-engine.md §3.6): its numerics on values worked by hand (the
// tree op(op(a, b), op(c, d)) per flit, the slot accumulating flits in arrival order, i32 AddSat
// saturating at every step, f32 Max / Min as maxNum / minNum with −0 < +0 and a NaN ignored), the
// oracle's order-independent bounds accepting every order's result and refusing others, and the
// book's furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-reduce.md examples run
// end to end with --verify.
#include "runtime/vector/reduce_oracle.h"
#include "runtime/vector/ve_scalar.h"
#include "tests/support/saved_run.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

using namespace tujit;

namespace {

ir::seq::VectorProgram reduce_program(ir::ReduceOp op, bool f32, std::uint32_t lanes,
                                      std::uint32_t steps, bool inter = false) {
  ir::seq::VectorProgram p;
  const ir::ScalarType t = f32 ? ir::ScalarType::F32 : ir::ScalarType::I32;
  p.in_type = p.out_type = t;
  ir::VectorCall c;
  c.kind = inter ? ir::VectorCallKind::InterSliceReduce : ir::VectorCallKind::IntraSliceReduce;
  c.reduce = ir::VeReduce{op, lanes, steps};
  p.steps.push_back({c, t});
  return p;
}

/// The pass on one output element's terms: the first is the stream element, the others its
/// operand streams (as a run feeds them, ir/seq/run_program.h MoveRun::reduce_axis).
std::uint32_t reduce(const ir::seq::VectorProgram& p, const std::vector<std::uint32_t>& terms) {
  REQUIRE(ir::seq::verify(p).ok());
  return runtime::vector::apply_pass(p, terms.front(),
                                     std::span<const std::uint32_t>(terms).subspan(1));
}

std::uint32_t f(float x) {
  return std::bit_cast<std::uint32_t>(x);
}
std::uint32_t i(std::int32_t x) {
  return static_cast<std::uint32_t>(x);
}
constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();
constexpr float k2p24 = 16777216.0f; // 2^24: adding 1 rounds back to it (tie to even)

/// The oracle's verdict on `actual` for a pass reducing `terms` (no `&vrf` operand).
runtime::vector::OracleCheck oracle(const ir::seq::VectorProgram& p,
                                    const std::vector<std::uint32_t>& terms, std::uint32_t actual) {
  return runtime::vector::oracle_reduce_check(p, terms, {}, actual);
}

} // namespace

TEST_CASE("intra-slice reduce: the packet tree pairs lanes (0, 1) and (2, 3)",
          "[vector][reduce][numerics]") {
  // f32 Add of (2^24, 1, 1, 1): the tree is (2^24 + 1) + (1 + 1) = 2^24 + 2 (2^24 + 1 ties to
  // 2^24, then 2^24 + 2 is exact); a left fold would lose every 1 and give 2^24.
  const auto tree = reduce_program(ir::ReduceOp::Add, true, 4, 1);
  CHECK(reduce(tree, {f(k2p24), f(1), f(1), f(1)}) == f(16777218.0f));
  // The slot accumulates flits one after another: 1 + 2^24 = 2^24, + 1 = 2^24, + 1 = 2^24.
  const auto slot = reduce_program(ir::ReduceOp::Add, true, 1, 4);
  CHECK(reduce(slot, {f(1), f(k2p24), f(1), f(1)}) == f(k2p24));
  // Both: flit 0 (2^24, 1, 1, 1) → 2^24 + 2, flit 1 (1, 1, 0, 0) → 2; 2^24 + 2 + 2 = 2^24 + 4.
  const auto both = reduce_program(ir::ReduceOp::Add, true, 4, 2);
  CHECK(reduce(both, {f(k2p24), f(1), f(1), f(1), f(1), f(1), f(0), f(0)}) == f(16777220.0f));
}

TEST_CASE("intra-slice reduce: i32 AddSat saturates at every step, in the reduce's order",
          "[vector][reduce][numerics]") {
  const auto slot = reduce_program(ir::ReduceOp::AddSat, false, 1, 3);
  // MAX + 1 saturates to MAX, then − 1: MAX − 1 (the exact sum MAX would need another order).
  CHECK(reduce(slot, {i(kMax), i(1), i(-1)}) == i(kMax - 1));
  CHECK(reduce(slot, {i(kMin), i(-1), i(1)}) == i(kMin + 1));
  CHECK(reduce(slot, {i(kMax), i(kMax), i(kMin)}) == i(-1)); // MAX, then MAX + MIN = −1
  // The tree: (MAX + 1) + (−1 + 0) = MAX − 1; (−1 + MIN) + (1 + 1) = MIN + 2.
  const auto tree = reduce_program(ir::ReduceOp::AddSat, false, 4, 1);
  CHECK(reduce(tree, {i(kMax), i(1), i(-1), i(0)}) == i(kMax - 1));
  CHECK(reduce(tree, {i(-1), i(kMin), i(1), i(1)}) == i(kMin + 2));
  CHECK(reduce(tree, {i(5), i(-7), i(100), i(-98)}) == i(0));
}

TEST_CASE("intra-slice reduce: i32 Max / Min over the extremes", "[vector][reduce][numerics]") {
  const auto mx = reduce_program(ir::ReduceOp::Max, false, 4, 2);
  const auto mn = reduce_program(ir::ReduceOp::Min, false, 4, 2);
  const std::vector<std::uint32_t> t = {i(0), i(kMin), i(-1), i(7), i(kMax), i(-5), i(3), i(1)};
  CHECK(reduce(mx, t) == i(kMax));
  CHECK(reduce(mn, t) == i(kMin));
}

TEST_CASE("intra-slice reduce: f32 Max / Min ignore a NaN and order −0 below +0",
          "[vector][reduce][numerics]") {
  const auto mx = reduce_program(ir::ReduceOp::Max, true, 4, 1);
  const auto mn = reduce_program(ir::ReduceOp::Min, true, 4, 1);
  const std::uint32_t nan = 0x7FC00001u, neg_zero = 0x80000000u, pos_zero = 0u;
  CHECK(reduce(mx, {nan, f(1), neg_zero, pos_zero}) == f(1));
  CHECK(reduce(mn, {nan, f(1), neg_zero, pos_zero}) == neg_zero);
  CHECK(reduce(mx, {neg_zero, pos_zero, neg_zero, neg_zero}) == pos_zero);
  CHECK(reduce(mn, {pos_zero, neg_zero, pos_zero, pos_zero}) == neg_zero);
  // Every term NaN: the canonical quiet NaN (docs/vector-engine.md §3).
  CHECK(reduce(mx, {nan, 0xFFC00000u, 0x7F800001u, nan}) == 0x7FC00000u);
  // Infinities and subnormals are values like the others.
  CHECK(reduce(mx, {0xFF800000u, 0x00000001u, 0x80000001u, nan}) == 0x00000001u);
  CHECK(reduce(mn, {0x7F800000u, 0x00000001u, 0x80000001u, nan}) == 0x80000001u);
}

TEST_CASE("intra-slice reduce: f32 Add gives the canonical NaN for a NaN or +inf + −inf",
          "[vector][reduce][numerics]") {
  const auto add = reduce_program(ir::ReduceOp::Add, true, 1, 3);
  CHECK(reduce(add, {f(1), 0x7FC00123u, f(2)}) == 0x7FC00000u);
  CHECK(reduce(add, {0x7F800000u, f(1), 0xFF800000u}) == 0x7FC00000u);
  // Two subnormals add exactly; −0 + −0 = −0, −0 + +0 = +0.
  CHECK(reduce(add, {0x00000001u, 0x00000002u, 0x80000000u}) == 0x00000003u);
  CHECK(reduce(add, {0x80000000u, 0x80000000u, 0x80000000u}) == 0x80000000u);
  CHECK(reduce(add, {0x80000000u, 0x00000000u, 0x80000000u}) == 0x00000000u);
}

TEST_CASE("inter-slice reducer: the ring order, i32 Add wrapping, f32 Mul",
          "[vector][reduce][numerics]") {
  // One lane, the group's slices in ring order (docs/vector-engine.md §3.7): slice 0's value,
  // then each next slice's added: 1 + 2^24 = 2^24 (tie to even), + 1 = 2^24, + 1 = 2^24.
  const auto ring = reduce_program(ir::ReduceOp::Add, true, 1, 4, true);
  CHECK(reduce(ring, {f(1), f(k2p24), f(1), f(1)}) == f(k2p24));
  // i32 Add wraps: MAX + 1 = MIN, + MIN = 0, + 5 = 5; AddSat saturates: MAX, then MAX + MIN = −1.
  const auto wrap = reduce_program(ir::ReduceOp::Add, false, 1, 4, true);
  CHECK(reduce(wrap, {i(kMax), i(1), i(kMin), i(5)}) == i(5));
  const auto sat = reduce_program(ir::ReduceOp::AddSat, false, 1, 4, true);
  CHECK(reduce(sat, {i(kMax), i(1), i(kMin), i(5)}) == i(4));
  // f32 Mul: 3 · 0.5 · 2^-148 = 1.5 · 2^-148 = 3 · 2^-149 (exact subnormal), · 0.5 = 1.5 · 2^-149,
  // which rounds to even: 2 · 2^-149 = 0x00000002.
  const auto mul = reduce_program(ir::ReduceOp::Mul, true, 1, 4, true);
  CHECK(reduce(mul, {f(3), f(0.5f), 0x00000002u, f(0.5f)}) == 0x00000002u);
  CHECK(reduce(mul, {f(2), 0x7F800000u, f(0), f(1)}) == 0x7FC00000u);  // inf · 0: NaN
  CHECK(reduce(mul, {f(-2), f(3), 0x80000000u, f(1)}) == 0x00000000u); // −6 · −0 = +0
  // Max / Min as the intra-slice reduce's.
  const auto mx = reduce_program(ir::ReduceOp::Max, false, 1, 4, true);
  CHECK(reduce(mx, {i(kMin), i(-1), i(kMax), i(0)}) == i(kMax));
}

TEST_CASE("intra-slice reduce oracle: order-independent bounds accept every order only",
          "[vector][reduce][oracle]") {
  const auto add = reduce_program(ir::ReduceOp::Add, true, 4, 1);
  const std::vector<std::uint32_t> t = {f(k2p24), f(1), f(1), f(1)};
  // The exact sum is 2^24 + 3; n = 4 terms: γ(3)·Σ|x| ≈ 3 · 2^-24 · (2^24 + 3) ≈ 3.000001, so
  // [2^24 − 0.000001, 2^24 + 6.000001] holds 2^24 … 2^24 + 6 and not 2^24 + 8 or 2^24 − 2.
  for (float ok : {k2p24, 16777218.0f, 16777220.0f, 16777222.0f}) CHECK(oracle(add, t, f(ok)).ok);
  CHECK_FALSE(oracle(add, t, f(16777224.0f)).ok);
  CHECK_FALSE(oracle(add, t, f(16777214.0f)).ok);
  // AddSat: no partial sum of any order saturates, so the sum is exact.
  const auto sat = reduce_program(ir::ReduceOp::AddSat, false, 1, 3);
  CHECK(oracle(sat, {i(1), i(2), i(3)}, i(6)).ok);
  CHECK_FALSE(oracle(sat, {i(1), i(2), i(3)}, i(5)).ok);
  // MAX, 1, −1: some order saturates; every order lies in [sat(−1), sat(MAX + 1)] = [−1, MAX].
  CHECK(oracle(sat, {i(kMax), i(1), i(-1)}, i(kMax - 1)).ok);
  CHECK(oracle(sat, {i(kMax), i(1), i(-1)}, i(kMax)).ok);
  CHECK_FALSE(oracle(sat, {i(kMax), i(1), i(-1)}, i(-2)).ok);
  // Max / Min: exact, ±0 and NaN included.
  const auto mx = reduce_program(ir::ReduceOp::Max, true, 4, 1);
  CHECK(oracle(mx, {0x7FC00001u, f(1), 0x80000000u, 0u}, f(1)).ok);
  CHECK_FALSE(oracle(mx, {0x7FC00001u, f(1), 0x80000000u, 0u}, f(0)).ok);
  CHECK(oracle(mx, {0x80000000u, 0u, 0x80000000u, 0x80000000u}, 0u).ok);
  CHECK_FALSE(oracle(mx, {0x80000000u, 0u, 0x80000000u, 0x80000000u}, 0x80000000u).ok);
  CHECK(oracle(mx, {0x7FC00001u, 0x7FC00001u, 0xFFC00000u, 0x7FC00000u}, 0x7FC00000u).ok);
  // The engines' own order is always inside the bound.
  CHECK(oracle(add, t, reduce(add, t)).ok);
  // i32 Add (the inter-slice reducer's) wraps: exact whatever the order.
  const auto wrap = reduce_program(ir::ReduceOp::Add, false, 1, 3, true);
  CHECK(oracle(wrap, {i(kMax), i(1), i(1)}, i(kMin + 1)).ok);
  CHECK_FALSE(oracle(wrap, {i(kMax), i(1), i(1)}, i(kMax)).ok);
  // f32 Mul: within γ(n − 1) of the exact product.
  const auto mul = reduce_program(ir::ReduceOp::Mul, true, 1, 3, true);
  CHECK(oracle(mul, {f(3), f(5), f(7)}, f(105)).ok);
  CHECK_FALSE(oracle(mul, {f(3), f(5), f(7)}, f(104)).ok);
}

TEST_CASE("reduce: the book's intra- and inter-slice examples run verified", "[vector][reduce]") {
  testing::TempDir dir("ve_reduce_book");
  // furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-reduce.md "Reduction in
  // Packet": R = 4 in Packet, a 4-way tree per flit.
  const std::string packet = dir.file("packet.rs", R"(use furiosa_opt_std::prelude::*;
axes![A = 512, R = 4];
fn reduce_packet<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![1 # 2], m![A / 2], m![A % 2], m![R # 8]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![1 # 2], m![A / 2], m![A % 2], m![1 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![R]>()
        .vector_intra_slice_reduce::<R, m![A % 2], m![1 # 4]>(IntraSliceReduceOpF32::Add)
        .vector_widen_pad::<m![1 # 8]>()
        .vector_final()
}
)");
  // "Reduction in Both": R % 4 in Packet, R / 4 in Time; here after an Exp and before a
  // conversion, so the terms and the result go through calls of their own.
  const std::string both = dir.file("both.rs", R"(use furiosa_opt_std::prelude::*;
axes![A = 256, R = 16];
fn reduce_time_packet<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![1 # 2], m![A], m![R / 4], m![R % 4 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A], m![1], m![1 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![R % 4]>()
        .vector_fp_unary(FpUnaryOp::Exp)
        .vector_intra_slice_reduce::<R, m![1], m![1 # 4]>(IntraSliceReduceOpF32::Max)
        .vector_widen_pad::<m![1 # 8]>()
        .vector_fp_to_fxp(20)
        .vector_final()
}
)");
  // furiosa-opt docs/src/computing-tensors/vector-engine/inter-slice-reducer.md "Broadcast Into a
  // New Slice Dimension" and "Promotion from Time into OutSlice" (this one with Mul), and the
  // reducer entered from the intra-slice chain.
  const std::string broadcast = dir.file("broadcast.rs", R"(use furiosa_opt_std::prelude::*;
axes![B = 2, P = 8, R = 4, W = 64, X = 4];
fn broadcast_into_x<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![B], m![W, R], m![1], m![P]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![B], m![W, X], m![1], m![P]> {
    input
        .vector_init()
        .vector_inter_slice_reduce::<m![W, X], m![1]>(InterSliceReduceOpF32::Add)
        .vector_final()
}
)");
  const std::string promotion = dir.file("promotion.rs", R"(use furiosa_opt_std::prelude::*;
axes![B = 2, P = 8, R = 4, S = 2, U = 2, V = 4, W = 64];
fn axis_promotion<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![B], m![W, R], m![S, V, U], m![P]>,
) -> VectorFinalTensor<'l, T, f32, m![1], m![B], m![W, V], m![S, U], m![P]> {
    input
        .vector_init()
        .vector_inter_slice_reduce::<m![W, V], m![S, U]>(InterSliceReduceOpF32::Mul)
        .vector_final()
}
)");
  const std::string chain_first = dir.file("chain_first.rs", R"(use furiosa_opt_std::prelude::*;
axes![A = 512, B = 2, R = 4];
fn inter<'l, const T: Tu>(
    input: CollectTensor<'l, T, f32, m![1], m![B], m![A / 8, R], m![1], m![A % 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![B], m![A / 8, 1 # 4], m![1], m![A % 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_split::<m![A / 4 % 2], m![A % 4]>()
        .vector_fp_unary(FpUnaryOp::Exp)
        .vector_widen_concat::<m![1], m![A % 8]>()
        .vector_fp_to_fxp(20)
        .vector_inter_slice_reduce::<m![A / 8, 1 # 4], m![1]>(InterSliceReduceOpI32::Add)
        .vector_final()
}
)");
  // furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-reduce.md "Per-Slice
  // Reduction", unpadded: R / 4 stays in Slice, R % 4 in Time is reduced; the output holds R at
  // every 4th coordinate, each the minimum of its own 4.
  const std::string per_slice = dir.file("per_slice.rs", R"(use furiosa_opt_std::prelude::*;
axes![A = 64, R = 16, Q = 2];
fn per_slice<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A, R / 4], m![R % 4], m![Q # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A, R / 4], m![1], m![Q # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![Q # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![Q # 4]>(IntraSliceReduceOpI32::Min)
        .vector_widen_pad::<m![Q # 8]>()
        .vector_final()
}
)");
  for (const std::string& spec : {packet, both, per_slice, broadcast, promotion, chain_first}) {
    const testing::CliRun r = testing::run_tujit({"run", spec, "--verify", "--json"});
    INFO(r.out << r.err);
    REQUIRE(r.status == 0);
    const auto j = r.json();
    CHECK(j["verify"]["engines_bit_exact"] == true);
    CHECK(j["verify"]["oracle_ok"] == true);
  }
}

TEST_CASE("reduce: an op of the other scalar is refused by the typer", "[vector][reduce]") {
  // IntraSliceReduceOpF32 on an i32 stream (E-VE-006, docs/vector-engine.md §3.6).
  testing::TempDir dir("ve_reduce_op_scalar");
  const std::string spec = dir.file("op_scalar.rs", R"(use furiosa_opt_std::prelude::*;
axes![A = 512, R = 4];
fn reduce<'l, const T: Tu>(
    input: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![R], m![A % 2 # 8]>,
) -> VectorFinalTensor<'l, T, i32, m![1], m![1 # 2], m![A / 2], m![1], m![A % 2 # 8]> {
    input
        .vector_init()
        .vector_intra_slice_tag(TagMode::Zero)
        .vector_narrow_trim::<m![A % 2 # 4]>()
        .vector_intra_slice_reduce::<R, m![1], m![A % 2 # 4]>(IntraSliceReduceOpF32::Add)
        .vector_widen_pad::<m![A % 2 # 8]>()
        .vector_final()
}
)");
  const testing::CliRun r = testing::run_tujit({"check", spec});
  INFO(r.out << r.err);
  CHECK(r.status != 0);
  CHECK(r.err.find("E-VE-006") != std::string::npos);
}
