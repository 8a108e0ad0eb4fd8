// Hand-built contraction chains in the reference interpreter ("[interp]"): summation order of the
// Packet Reducer tree and of the Time Reducer (expected f32 results written out by hand), i32
// wrap-around, the Multiplier's widening of special codes, operand pairs, PackSize, lane counts,
// both LaneModes, broadcasts, and poison reporting. Values are checked against the brute-force
// einsum of interp_test_support.h where the result is exact.
#include "tests/unit/interp_test_support.h"

#include "runtime/interp/interpreter.h"
#include "runtime/scalar/bf16.h"
#include "tests/support/alloc_tracker.h"
#include "tests/support/checked.h"

#include <fmt/format.h>

#include <cmath>

using namespace tujit;
using namespace tujit::testing::interp;

namespace {

struct Chain {
  std::string axes;
  std::string stream_t = "bf16", trf_t = "bf16", acc_t = "f32";
  std::string time, packet, lane, element;
  std::string ot, op, p2, t2, t3, p3;
  std::string mode = "Interleaved";
};

std::string spec_text(const Chain& c) {
  return fmt::format(
      "use furiosa_opt_std::prelude::*;\naxes![{}];\n"
      "fn k<'l, const T: Tu>(\n"
      "  input: CollectTensor<'l, T, {}, m![1], m![1 # 2], m![1 # 256], m![{}], m![{}]>,\n"
      "  trf: &TrfTensor<{}, m![1], m![1 # 2], m![1 # 256], m![{}], m![{}]>,\n"
      ") -> ContractTensor<'l, T, {}, m![1], m![1 # 2], m![1 # 256], m![{}], m![{}]> {{\n"
      "  input.contract_outer::<m![{}], m![{}], _, _, _>(&trf)\n"
      "    .contract_packet::<m![{}]>()\n"
      "    .contract_time::<m![{}]>()\n"
      "    .contract_lane::<m![{}], m![{}]>(LaneMode::{})\n}}\n",
      c.axes, c.stream_t, c.time, c.packet, c.trf_t, c.lane, c.element, c.acc_t, c.t3, c.p3, c.ot,
      c.op, c.p2, c.t2, c.t3, c.p3, c.mode);
}

ir::seq::ContractionProgram plan_of(const Chain& c) {
  const ir::SpecFile file = parse_spec(spec_text(c));
  REQUIRE(file.kernels.size() == 1);
  auto plan = ir::seq::lower_contraction(testing::checked(file.kernels[0]));
  if (!plan)
    for (const auto& d : plan.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(plan.ok());
  return *plan;
}

// The only live slice of Chip [1], Cluster [1 # 2], Slice [1 # 256] is position 0.
std::vector<bool> one_slice() {
  std::vector<bool> live(512, false);
  live[0] = true;
  return live;
}

// Runs the chain on seeded random images and compares every cell with the brute force.
ImageRun check_random(const Chain& c, std::uint64_t seed) {
  const auto plan = plan_of(c);
  const auto& m = plan.m;
  const auto spatial = spatial_liveness(m.chip, m.cluster, m.slice);
  const DeviceImage stream = fill_image(plan.stream_type, spatial, m.time, m.packet, seed);
  const DeviceImage trf = fill_image(plan.trf_type, spatial, m.lane, m.element, seed + 1);
  auto expected = brute_force(m, stream, trf);
  REQUIRE(expected.has_value());
  auto r = run_images(plan, stream, trf);
  REQUIRE(r.ok());
  std::uint64_t bad = 0, live = 0;
  for (std::size_t i = 0; i < r->output.cells(); ++i) {
    const std::uint32_t want =
        expected->live[i] ? expected_bits(plan.accumulator, *expected, i) : 0;
    live += expected->live[i] ? 1 : 0;
    if (r->output.bits[i] != want ||
        (r->output.state[i] == CellState::Live) != static_cast<bool>(expected->live[i]))
      ++bad;
  }
  CHECK(live > 0);
  CHECK(bad == 0);
  return std::move(r).value();
}

// One slice, every cell from the mapping's kind, live values given by `value(outer, inner)`.
template <class F>
DeviceImage image(ir::ScalarType t, const ir::Mapping& outer, const ir::Mapping& inner, F value) {
  DeviceImage img = fill_image(t, one_slice(), outer, inner, 0);
  for (std::uint64_t o = 0; o < img.outer; ++o)
    for (std::uint64_t i = 0; i < img.inner; ++i)
      if (img.state[img.index(0, o, i)] == CellState::Live)
        img.bits[img.index(0, o, i)] = value(o, i);
  return img;
}

std::uint32_t out_bits(const ImageRun& r, std::uint64_t t3, std::uint64_t j) {
  return r.output.bits[r.output.index(0, t3, j)];
}

constexpr std::uint32_t kBf16One = 0x3F80;
constexpr std::uint32_t kBf16Big = 0x4C80;    // 2^26
constexpr std::uint32_t kBf16NegBig = 0xCC80; // -2^26
constexpr std::uint32_t kBf16Three = 0x4040;

} // namespace

TEST_CASE("interp: the Packet Reducer tree adds adjacent pairs, level by level", "[interp]") {
  // d = 2 (G = 4): column c sums OP cells 4c..4c+3. Column 0 holds 2^26, 3, -2^26, 3 (× 1.0):
  //   adjacent pairs (2^26 + 3) + (-2^26 + 3) = 2^26 + (-67108860) = 4      (hardware, §9.2)
  //   sequential     ((2^26 + 3) + -2^26) + 3 = 0 + 3 = 3                 (the reference's fold)
  //   by halves      (2^26 + -2^26) + (3 + 3) = 6
  // (2^26 + 3 rounds to 2^26: the f32 spacing there is 8; -2^26 + 3 = -67108861 rounds to
  // -67108860: the spacing below 2^26 is 4.)
  Chain c;
  c.axes = "K = 32, N = 8";
  c.time = "K / 16";
  c.packet = "K % 16";
  c.lane = "N";
  c.element = "K";
  c.ot = "1";
  c.op = "K";
  c.p2 = "K / 4";
  c.t2 = "1";
  c.t3 = "K / 4";
  c.p3 = "N";
  const auto plan = plan_of(c);
  REQUIRE(plan.depth == 2);
  const std::uint32_t col0[4] = {kBf16Big, kBf16Three, kBf16NegBig, kBf16Three};
  const DeviceImage stream = image(ir::ScalarType::BF16, plan.m.time, plan.m.packet,
                                   [&](std::uint64_t f, std::uint64_t e) {
                                     const std::uint64_t k = f * 16 + e;
                                     return k < 4 ? col0[k] : kBf16One;
                                   });
  const DeviceImage trf = image(ir::ScalarType::BF16, plan.m.lane, plan.m.element,
                                [](std::uint64_t, std::uint64_t) { return kBf16One; });
  auto r = run_images(plan, stream, trf);
  REQUIRE(r.ok());
  const float adjacent = 4.0f, sequential = 3.0f, halves = 6.0f;
  for (std::uint64_t lane = 0; lane < 8; ++lane) {
    CHECK(out_bits(*r, 0, lane) == runtime::f32_bits(adjacent));
    CHECK(out_bits(*r, 0, lane) != runtime::f32_bits(sequential));
    CHECK(out_bits(*r, 0, lane) != runtime::f32_bits(halves));
    for (std::uint64_t col = 1; col < 8; ++col)
      CHECK(out_bits(*r, col, lane) == runtime::f32_bits(4.0f));
  }
  CHECK(r->poison.poisoned_outputs == 0);
  CHECK(r->simulated_macs == 32 * 8);
}

TEST_CASE("interp: the Time Reducer adds tree results in OT order starting from +0", "[interp]") {
  // K in Time (§11 ex 1 shape), d = 0: one product per flit; the slot sums flits t = 0..3 in
  // order: ((((+0 + 2^26) + 3) + -2^26) + 3) = 3; pairwise it would be 4, reversed 6... The
  // in-order result is 3, and a slot with only -0 products stays +0.
  Chain c;
  c.axes = "K = 4, N = 8, V = 2";
  c.time = "V, K";
  c.packet = "1 # 16";
  c.lane = "N";
  c.element = "K";
  c.ot = "V, K";
  c.op = "1 # 16";
  c.p2 = "1";
  c.t2 = "V";
  c.t3 = "V";
  c.p3 = "N";
  const auto plan = plan_of(c);
  const std::uint32_t vals[4] = {kBf16Big, kBf16Three, kBf16NegBig, kBf16Three};
  const DeviceImage stream = image(ir::ScalarType::BF16, plan.m.time, plan.m.packet,
                                   [&](std::uint64_t f, std::uint64_t) -> std::uint32_t {
                                     return f < 4 ? vals[f] : 0x8000u; // V = 1: -0 products
                                   });
  const DeviceImage trf = image(ir::ScalarType::BF16, plan.m.lane, plan.m.element,
                                [](std::uint64_t, std::uint64_t) { return kBf16One; });
  auto r = run_images(plan, stream, trf);
  REQUIRE(r.ok());
  for (std::uint64_t lane = 0; lane < 8; ++lane) {
    CHECK(out_bits(*r, 0, lane) == runtime::f32_bits(3.0f));
    CHECK(out_bits(*r, 1, lane) == 0u); // +0, never -0 (§9.2 step 2)
  }
  CHECK(r->poison.poisoned_outputs == 0); // the [1 # 16] Top padding never reaches a live column
}

TEST_CASE("interp: i32 accumulation wraps around", "[interp]") {
  // i9 × i9: (-256)·(-256) = 2^16 per product, 32 products per packet, 1024 packets: 2^31,
  // which wraps to -2^31; one more product of 1 · 1 in a second column gives 1.
  Chain c;
  c.axes = "T = 1024, K = 32";
  c.stream_t = "i9";
  c.trf_t = "i9";
  c.acc_t = "i32";
  c.time = "T";
  c.packet = "K";
  c.lane = "1";
  c.element = "T, K";
  c.ot = "T";
  c.op = "K";
  c.p2 = "1";
  c.t2 = "1";
  c.t3 = "1";
  c.p3 = "1 # 8";
  const auto plan = plan_of(c);
  const auto minus256 = static_cast<std::uint32_t>(-256);
  const DeviceImage stream = image(ir::ScalarType::I9, plan.m.time, plan.m.packet,
                                   [&](std::uint64_t, std::uint64_t) { return minus256; });
  const DeviceImage trf = image(ir::ScalarType::I9, plan.m.lane, plan.m.element,
                                [&](std::uint64_t, std::uint64_t) { return minus256; });
  auto r = run_images(plan, stream, trf);
  REQUIRE(r.ok());
  CHECK(out_bits(*r, 0, 0) == 0x80000000u);
  for (std::uint64_t j = 1; j < 8; ++j) CHECK(out_bits(*r, 0, j) == 0u); // Lane padding
}

TEST_CASE("interp: the Multiplier widens bf16 and f8 codes (NaN, Inf, subnormals)", "[interp]") {
  // d = 0, one product per output cell: OP cell k of flit a lands in T3 position a·16 + k.
  struct Case {
    const char* type;
    ir::ScalarType t;
    std::uint32_t one;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> code_to_f32;
  };
  const std::vector<Case> cases = {
      {"bf16",
       ir::ScalarType::BF16,
       0x3F80,
       {{0x3F81, 0x3F810000},
        {0x0001, 0},
        {0x8001, 0},
        {0x7FC1, 0x7FC00000},
        {0xFF81, 0x7FC00000},
        {0x7F80, 0x7F800000},
        {0xC040, 0xC0400000}}},
      {"f8e4m3",
       ir::ScalarType::F8E4M3,
       0x38,
       {{0x01, 0x3B000000},
        {0x7F, 0x7FC00000},
        {0xFF, 0x7FC00000},
        {0x7E, 0x43E00000},
        {0xB8, 0xBF800000}}},
      {"f8e5m2",
       ir::ScalarType::F8E5M2,
       0x3C,
       {{0x01, 0x37800000},
        {0x7C, 0x7F800000},
        {0xFC, 0xFF800000},
        {0x7D, 0x7FC00000},
        {0xFE, 0x7FC00000},
        {0x3D, 0x3FA00000}}},
  };
  for (const auto& k : cases) {
    INFO(k.type);
    const bool bf16 = k.t == ir::ScalarType::BF16;
    Chain c;
    c.axes = bf16 ? "A = 2, P = 16, N = 8" : "A = 2, P = 32, N = 8";
    c.stream_t = c.trf_t = k.type;
    c.time = "A";
    c.packet = "P";
    c.lane = "N";
    c.element = "P";
    c.ot = "A";
    c.op = "P";
    c.p2 = bf16 ? "P" : "P / 2"; // |P2| <= 32: f8 uses d = 1 with a 0 partner
    c.t2 = "A";
    c.t3 = bf16 ? "A, P" : "A, P / 2";
    c.p3 = "N";
    const auto plan = plan_of(c);
    const std::uint64_t g = plan.group;
    const DeviceImage stream = image(k.t, plan.m.time, plan.m.packet,
                                     [&](std::uint64_t a, std::uint64_t p) -> std::uint32_t {
                                       if (a != 0 || p % g != 0 || p / g >= k.code_to_f32.size())
                                         return 0;
                                       return k.code_to_f32[p / g].first;
                                     });
    const DeviceImage trf = image(k.t, plan.m.lane, plan.m.element,
                                  [&](std::uint64_t, std::uint64_t) { return k.one; });
    auto r = run_images(plan, stream, trf);
    REQUIRE(r.ok());
    for (std::size_t i = 0; i < k.code_to_f32.size(); ++i) {
      INFO("code " << k.code_to_f32[i].first);
      // x·1 (+ 0·1 for f8) then +0 + …: the widened value, -0 becomes +0, NaN canonical.
      CHECK(out_bits(*r, i, 3) == k.code_to_f32[i].second);
    }
  }
  // Inf × 0 is NaN, canonicalised; bf16 -0 × 1 summed from +0 is +0.
  Chain c;
  c.axes = "A = 2, P = 16, N = 8";
  c.time = "A";
  c.packet = "P";
  c.lane = "N";
  c.element = "P";
  c.ot = "A";
  c.op = "P";
  c.p2 = "P";
  c.t2 = "A";
  c.t3 = "A, P";
  c.p3 = "N";
  const auto plan = plan_of(c);
  const DeviceImage stream = image(
      ir::ScalarType::BF16, plan.m.time, plan.m.packet,
      [](std::uint64_t, std::uint64_t p) -> std::uint32_t { return p == 0 ? 0x7F80u : 0x8000u; });
  const DeviceImage trf =
      image(ir::ScalarType::BF16, plan.m.lane, plan.m.element,
            [](std::uint64_t, std::uint64_t p) -> std::uint32_t { return p == 0 ? 0u : kBf16One; });
  auto r = run_images(plan, stream, trf);
  REQUIRE(r.ok());
  CHECK(out_bits(*r, 0, 0) == 0x7FC00000u);
  CHECK(out_bits(*r, 1, 0) == 0u);
}

TEST_CASE("interp: operand pairs, PackSize, lanes, LaneModes and broadcasts match the einsum",
          "[interp]") {
  std::uint64_t seed = 100;
  SECTION("i4 x i5 and i5 x i4, PackSize 1, d = 6") {
    for (auto [s, w] : {std::pair{"i4", "i5"}, std::pair{"i5", "i4"}, std::pair{"i4", "i4"}}) {
      Chain c{
          "A = 4, K = 64, N = 8", s, w, "i32", "A", "K", "N", "K", "A", "K", "1", "A", "A", "N"};
      check_random(c, seed++);
    }
  }
  SECTION("i8 x i9 and i9 x i8, PackSize 2, d = 6") {
    for (auto [s, w] : {std::pair{"i8", "i9"}, std::pair{"i9", "i8"}, std::pair{"i9", "i9"}}) {
      Chain c{"A = 4, K = 64, N = 8",
              s,
              w,
              "i32",
              "A, K / 32",
              "K % 32",
              "N",
              "K",
              "A",
              "K",
              "1",
              "A",
              "A",
              "N"};
      check_random(c, seed++);
    }
  }
  SECTION("f8 and bf16, PackSize 1 and 2") {
    check_random({"A = 4, K = 32, N = 8", "f8e4m3", "f8e4m3", "f32", "A", "K", "N", "K", "A", "K",
                  "1", "A", "A", "N"},
                 seed++);
    check_random({"A = 4, K = 64, N = 8", "f8e5m2", "f8e5m2", "f32", "A, K / 32", "K % 32", "N",
                  "K", "A", "K", "1", "A", "A", "N"},
                 seed++);
    check_random({"A = 4, K = 32, N = 8", "bf16", "bf16", "f32", "A, K / 16", "K % 16", "N", "K",
                  "A", "K", "1", "A", "A", "N"},
                 seed++);
  }
  SECTION("Lane 1, 2, 4, 8 in both LaneModes") {
    for (const char* lane : {"1", "N % 2", "N % 4", "N"}) {
      const std::string l = lane;
      const std::string p3 = l == "N" ? "N" : l + " # 8";
      INFO(lane);
      // Interleaved: T3 = [T2, P2], P3 = [Lane # 8].
      check_random({"A = 4, K = 32, N = 8, P = 4", "i8", "i8", "i32", "A", "K", "N" == l ? "N" : l,
                    "K", "A", "K", "K / 8", "A", "A, K / 8", p3},
                   seed++);
      // Sequential: T3 = [T2, Lane, pad8(P2) / 8], P3 = pad8(P2) % 8 (|P2| = 4 → [K / 8 # 8]).
      Chain sq{"A = 4, K = 32, N = 8",
               "i8",
               "i8",
               "i32",
               "A",
               "K",
               l,
               "K",
               "A",
               "K",
               "K / 8",
               "A",
               "A, " + l,
               "K / 8 # 8",
               "Sequential"};
      check_random(sq, seed++);
    }
  }
  SECTION("Sequential with 16 columns: two output flits per lane") {
    check_random({"A = 2, P = 16, N = 8", "bf16", "bf16", "f32", "A", "P", "N", "P", "A", "P", "P",
                  "A", "A, N, P / 8", "P % 8", "Sequential"},
                 seed++);
  }
  SECTION("time broadcast (TRF axis and pure output axis), TRF read in OT order") {
    check_random({"A = 8, E = 32, T = 5, V = 2, R = 8", "i8", "i8", "i32", "A", "E", "R", "T, V, E",
                  "A, V, T", "E", "1", "A, V, T", "A, V, T", "R"},
                 seed++);
    check_random({"A = 8, E = 32, T = 5, R = 8", "i8", "i8", "i32", "A", "E", "R", "E", "A, T", "E",
                  "1", "A, T", "A, T", "R"},
                 seed++);
  }
  SECTION("TRF partial read with packet broadcast (docs/contraction.md §11 ex 6)") {
    Chain c{"M = 4, K = 16, L = 2, O = 2, N = 8",
            "bf16",
            "bf16",
            "f32",
            "O, M, L",
            "K",
            "N",
            "O, K",
            "O, M",
            "L, K",
            "L",
            "O, M",
            "O, M, L",
            "N"};
    const auto plan = plan_of(c);
    CHECK(plan.read_size == 16);
    check_random(c, seed++);
  }
  SECTION("outermost reduction: slots shared by flits t and t + 8 (§11 ex 8 shape)") {
    check_random({"A = 8, B = 32", "bf16", "bf16", "f32", "B / 16, A", "B % 16", "1", "B",
                  "B / 16, A", "B % 16", "1", "A", "A", "1 # 8", "Sequential"},
                 seed++);
  }
}

TEST_CASE("interp: Top padding inside a reduced packet group poisons, Zero padding does not",
          "[interp]") {
  SECTION("Top padding summed into a live column") {
    Chain c{"A = 4, K = 24, N = 8",
            "i8",
            "i8",
            "i32",
            "A",
            "K # 32",
            "N",
            "K # 32",
            "A",
            "K # 32",
            "1",
            "A",
            "A",
            "N"};
    auto r = check_random(c, 7); // values still follow the ABSENT rule
    CHECK(r.poison.poisoned_outputs == 4 * 8);
    REQUIRE(r.poison.first_poisoned.size() == runtime::kMaxPoisonReported);
    CHECK(r.poison.first_poisoned[0] == runtime::PoisonedCell{0, 0, 0});
    CHECK(r.poison.first_poisoned[7] == runtime::PoisonedCell{0, 0, 7});
  }
  SECTION("Zero padding in the same place") {
    Chain c{"A = 4, K = 24, N = 8",
            "i8",
            "i8",
            "i32",
            "A",
            "K #{0} 32",
            "N",
            "K #{0} 32",
            "A",
            "K #{0} 32",
            "1",
            "A",
            "A",
            "N"};
    auto r = check_random(c, 8);
    CHECK(r.poison.poisoned_outputs == 0);
  }
  SECTION("Top padding in columns that are trimmed away") {
    Chain c{"A = 4, N = 8", "bf16", "bf16", "f32", "A", "1 # 16", "N", "1", "A",
            "1 # 16",       "1",    "A",    "A",   "N"};
    auto r = check_random(c, 9);
    CHECK(r.poison.poisoned_outputs == 0);
  }
}

TEST_CASE("interp: inputs of the wrong type or shape, and broken programs, are refused",
          "[interp]") {
  Chain c{
      "A = 4, K = 32, N = 8", "i8", "i8", "i32", "A", "K", "N", "K", "A", "K", "1", "A", "A", "N"};
  const auto plan = plan_of(c);
  const auto spatial = one_slice();
  const DeviceImage stream = fill_image(ir::ScalarType::I8, spatial, plan.m.time, plan.m.packet, 1);
  const DeviceImage trf = fill_image(ir::ScalarType::I8, spatial, plan.m.lane, plan.m.element, 2);
  const ImageInputs in = image_inputs(plan, stream, trf);
  const ir::seq::RunProgram& p = in.run.program;
  CHECK(runtime::interpret(p, in.inputs()).ok());
  const auto code = [](const Result<runtime::RunResult>& r) {
    REQUIRE_FALSE(r.ok());
    return r.diagnostics()[0].code;
  };
  // A stream of another dtype, a TRF of another shape, a missing input: E-RUN-004.
  runtime::LogicalTensor i4 = in.stream;
  i4.dtype = ir::ScalarType::I4;
  CHECK(code(runtime::interpret(p, testing::chain_inputs(i4, in.trf))) == "E-RUN-004");
  CHECK(code(runtime::interpret(p, testing::chain_inputs(in.stream, in.stream))) == "E-RUN-004");
  CHECK(code(runtime::interpret(p, {{"stream", &in.stream}})) == "E-RUN-004");
  // A program whose cycle nest leaves the TRF: E-RUN-102 (ir::seq::verify), nothing is read.
  ir::seq::RunProgram broken = p;
  broken.contraction().chain.cycle_nest.front().trf_stride += broken.contraction().chain.element;
  CHECK(code(runtime::interpret(broken, in.inputs())) == "E-RUN-102");
}

TEST_CASE("interp: ftz_results flushes subnormal products and sums to signed zero", "[interp]") {
  // docs/contraction.md §9.3. d = 0 (K in Time), one product per flit: 2^-70 × ±2^-70 = ±2^-140 is
  // a binary32 subnormal (below 2^-126). Off: kept, and the slot sum of two is 2^-139. On: each
  // product flushes to the zero of its sign, so the slot holds +0 + (+0) + (-0) = +0 and the
  // negative-only slot +0 + (-0) + (-0) = +0 as well (the +0 start, §9.2 step 2).
  Chain c;
  c.axes = "K = 2, N = 8, V = 2";
  c.time = "V, K";
  c.packet = "1 # 16";
  c.lane = "N";
  c.element = "K";
  c.ot = "V, K";
  c.op = "1 # 16";
  c.p2 = "1";
  c.t2 = "V";
  c.t3 = "V";
  c.p3 = "N";
  auto plan = plan_of(c);
  constexpr std::uint32_t kBf16Tiny = 0x1C80;    // 2^-70: exponent 127 - 70 = 57 = 0x39
  constexpr std::uint32_t kBf16NegTiny = 0x9C80; // -2^-70
  const DeviceImage stream = image(ir::ScalarType::BF16, plan.m.time, plan.m.packet,
                                   [&](std::uint64_t f, std::uint64_t) -> std::uint32_t {
                                     return f < 2 ? kBf16Tiny : kBf16NegTiny;
                                   });
  const DeviceImage trf = image(ir::ScalarType::BF16, plan.m.lane, plan.m.element,
                                [](std::uint64_t, std::uint64_t) { return kBf16Tiny; });
  REQUIRE(runtime::f32_from_bits(runtime::widen_bf16(kBf16Tiny)) == std::ldexp(1.0f, -70));
  const float tiny2 = std::ldexp(1.0f, -139); // 2 × 2^-140, exactly representable (subnormal)
  auto off = run_images(plan, stream, trf);
  REQUIRE(off.ok());
  plan.ftz_results = true;
  auto on = run_images(plan, stream, trf);
  REQUIRE(on.ok());
  for (std::uint64_t lane = 0; lane < 8; ++lane) {
    CHECK(out_bits(*off, 0, lane) == runtime::f32_bits(tiny2));
    CHECK(out_bits(*off, 1, lane) == runtime::f32_bits(-tiny2));
    CHECK(out_bits(*on, 0, lane) == 0u);
    CHECK(out_bits(*on, 1, lane) == 0u);
  }
}

TEST_CASE("interp: memory stays proportional to operands and outputs under a large broadcast",
          "[interp]") {
  // No outer-product materialisation (docs/design.md). B (256) lives only in the TRF and is
  // broadcast in time (§5.1): 2·256·8·16 = 65,536 products from a 32-cell stream and a
  // 32,768-cell TRF. Holding the products (4 B each) would take 256 KiB beyond the logical output
  // and the accumulator (4 B per cell); the interpreter may use only a packet's worth on top.
  Chain c;
  c.axes = "M = 2, K = 16, N = 8, B = 256";
  c.time = "M";
  c.packet = "K";
  c.lane = "N";
  c.element = "B, K";
  c.ot = "M, B";
  c.op = "K";
  c.p2 = "1";
  c.t2 = "M, B";
  c.t3 = "M, B";
  c.p3 = "N";
  const auto plan = plan_of(c);
  REQUIRE(plan.time_broadcast == 256);
  const DeviceImage stream = image(ir::ScalarType::BF16, plan.m.time, plan.m.packet,
                                   [](std::uint64_t, std::uint64_t) { return kBf16One; });
  const DeviceImage trf = image(ir::ScalarType::BF16, plan.m.lane, plan.m.element,
                                [](std::uint64_t, std::uint64_t) { return kBf16One; });
  const ImageInputs in = image_inputs(plan, stream, trf);
  const runtime::RunInputs inputs = in.inputs();
  testing::reset_heap_peak();
  const std::size_t before = testing::live_heap_bytes();
  auto r = runtime::interpret(in.run.program, inputs);
  const std::size_t peak = testing::heap_peak_bytes() - before;
  REQUIRE(r.ok());
  CHECK(r->simulated_macs == 2u * 256u * 8u * 16u);
  const std::size_t outputs = r->output.data.size();
  const std::size_t accumulator = plan.accumulator_cells() * sizeof(std::uint32_t);
  const std::size_t products = r->simulated_macs * sizeof(float);
  INFO("peak " << peak << " B, outputs " << outputs << " B, accumulator " << accumulator << " B");
  REQUIRE(peak >= outputs + accumulator);
  CHECK(peak - outputs - accumulator <= 16 * 1024);
  CHECK(peak - outputs - accumulator < products / 16);
  const ImageRun run{testing::output_image(in.run.program, *r), r->poison, r->simulated_macs};
  for (std::uint64_t o = 0; o < 16; ++o) CHECK(out_bits(run, o, 0) == runtime::f32_bits(16.0f));
}
