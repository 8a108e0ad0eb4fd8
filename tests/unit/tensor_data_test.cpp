// Logical tensors: SHA-256 against the FIPS 180-4 / NIST example vectors, splitmix64 against its
// published definition, the seeded fill, host rounding of doubles to the device float formats
// (against the independent scalar encoders of runtime/scalar and hand-worked ties), and the
// logical byte image.
#include "ir/mapping/syntax.h"
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/tensor/float_round.h"
#include "runtime/tensor/logical_tensor.h"
#include "runtime/tensor/random_fill.h"
#include "runtime/tensor/sha256.h"

#include "tests/support/tensor_values.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace tujit;
using namespace tujit::runtime;
using ir::ScalarType;

namespace {
std::string sha_of(const std::string& s) {
  return sha256_hex({reinterpret_cast<const std::uint8_t*>(s.data()), s.size()});
}
} // namespace

TEST_CASE("sha256: FIPS 180-4 example vectors", "[tensor]") {
  CHECK(sha_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
               "klmnopqrlmnopqrsmnopqrstnopqrstu") ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  // One million 'a', fed in uneven pieces to exercise the block buffering.
  Sha256 h;
  std::string chunk(997, 'a');
  std::size_t left = 1000000;
  while (left > 0) {
    std::size_t n = std::min(left, chunk.size());
    h.update({reinterpret_cast<const std::uint8_t*>(chunk.data()), n});
    left -= n;
  }
  std::string hex;
  for (auto b : h.finish()) hex += "0123456789abcdef"[b >> 4], hex += "0123456789abcdef"[b & 15];
  CHECK(hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("splitmix64: the published sequence for seed 0", "[tensor]") {
  SplitMix64 g(0);
  CHECK(g.next() == 0xE220A8397B1DCDAFull);
  CHECK(g.next() == 0x6E789E6AA1B965F4ull);
  CHECK(g.next() == 0x06C45D188009454Full);
  SplitMix64 b(7);
  for (int k = 0; k < 1000; ++k) CHECK(b.below(10) < 10);
  CHECK(parameter_seed(0, "a") != parameter_seed(0, "b"));
  CHECK(parameter_seed(0, "a") == parameter_seed(0, "a"));
  CHECK(parameter_seed(0, "a") != parameter_seed(1, "a"));
}

TEST_CASE("fill_random: deterministic, in range, both signs, every dtype", "[tensor]") {
  ir::Axis A{"A", 4096};
  for (ScalarType t : ir::kAllScalarTypes) {
    INFO(ir::name(t));
    auto x = make_logical_tensor(t, {A});
    REQUIRE(x.ok());
    LogicalTensor a = *x, b = *x, c = *x;
    fill_random(a, 42);
    fill_random(b, 42);
    fill_random(c, 43);
    CHECK(a == b);
    CHECK(a.data != c.data);
    double lo = INFINITY, hi = -INFINITY;
    for (std::uint64_t i = 0; i < a.elements(); ++i) {
      double v = element_value(t, a.get(i));
      REQUIRE(std::isfinite(v));
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (auto r = ir::integer_range(t); r && t != ScalarType::I32) {
      CHECK(lo >= static_cast<double>(r->first));
      CHECK(hi <= static_cast<double>(r->second));
      if (ir::wire_bits(t) <= 8) { // 4096 draws reach both ends of a ≤ 9-bit range
        CHECK(lo == static_cast<double>(r->first));
        CHECK(hi == static_cast<double>(r->second));
      }
    } else if (t == ScalarType::I32) {
      CHECK(lo >= -1048576.0);
      CHECK(hi <= 1048576.0);
      CHECK(lo < 0);
    } else if (t != ScalarType::F4E2M1) {
      CHECK(lo >= -1.0);
      CHECK(hi <= 1.0);
      CHECK(lo < -0.5);
      CHECK(hi > 0.5);
    }
  }
}

TEST_CASE("round_double_to: RNE against the independent encoders", "[tensor]") {
  SplitMix64 g(5);
  for (int k = 0; k < 200000; ++k) {
    // Random finite f32 bit patterns of every magnitude (NaN / inf excluded).
    auto x = static_cast<std::uint32_t>(g.next());
    if ((x & 0x7F800000u) == 0x7F800000u) continue;
    const double d = static_cast<double>(f32_from_bits(x));
    INFO(std::hex << x);
    auto bf = round_double_to(ScalarType::BF16, d);
    if (bf.status == FloatRounding::Status::Ok)
      REQUIRE(bf.bits == bf16_literal_from_f32(x)); // docs/scalars.md §4.1 literal form = plain RNE
    else
      REQUIRE((bf16_literal_from_f32(x) & 0x7FFFu) == 0x7F80u); // RNE overflows to inf
    if (std::fabs(d) <= 448.0) // enc_e4m3 is RNE below its saturation (docs/scalars.md §4.2)
      REQUIRE(round_double_to(ScalarType::F8E4M3, d).bits == enc_e4m3(x));
    REQUIRE(round_double_to(ScalarType::F32, d).bits == x);
  }
}

TEST_CASE("round_double_to: hand-worked ties, double rounding, overflow", "[tensor]") {
  // 1 + 2^-8 + 2^-30: rounding to f32 first gives the tie 1 + 2^-8, then even → 1.0 (0x3F80);
  // rounding once goes up to 0x3F81.
  CHECK(round_double_to(ScalarType::BF16, 1.0 + 0x1p-8 + 0x1p-30).bits == 0x3F81u);
  CHECK(round_double_to(ScalarType::BF16, 1.0 + 0x1p-8).bits == 0x3F80u);
  // f8e5m2 by RNE (not the Cast Engine's half-up of docs/scalars.md §4.3): 1.125 is the tie between
  // 1.0 (0x3C) and 1.25 (0x3D) → even 0x3C; 1.375 between 1.25 and 1.5 → even 0x3E.
  CHECK(round_double_to(ScalarType::F8E5M2, 1.125).bits == 0x3Cu);
  CHECK(round_double_to(ScalarType::F8E5M2, 1.375).bits == 0x3Eu);
  CHECK(round_double_to(ScalarType::F8E5M2, -3.0).bits == 0xC2u);
  // 3.5·2^-16 lies between the subnormal 3·2^-16 (0x03) and the normal 2^-14 (0x04): a tie,
  // even → 0x04 (the Cast Engine clamps to 0x03).
  CHECK(round_double_to(ScalarType::F8E5M2, 3.5 * 0x1p-16).bits == 0x04u);
  CHECK(round_double_to(ScalarType::F8E5M2, 0x1p-17).bits == 0x00u); // tie 0 / 2^-16 → 0
  CHECK(round_double_to(ScalarType::F8E5M2, 57344.0).bits == 0x7Bu);
  CHECK(round_double_to(ScalarType::F8E5M2, 60000.0).bits == 0x7Bu); // below the 61440 tie
  CHECK(round_double_to(ScalarType::F8E5M2, 61440.0).status == FloatRounding::Status::Overflow);
  CHECK(round_double_to(ScalarType::F8E5M2, -INFINITY).bits == 0xFCu);
  CHECK(round_double_to(ScalarType::F8E5M2, NAN).bits == 0x7Eu);
  CHECK(round_double_to(ScalarType::F8E4M3, 448.0).bits == 0x7Eu);
  // 464 is the tie between 448 (0x7E, even fraction 110) and 480 (fraction 111, the NaN code):
  // even → 448. Anything above rounds to 480, beyond the largest finite e4m3.
  CHECK(round_double_to(ScalarType::F8E4M3, 464.0).bits == 0x7Eu);
  CHECK(round_double_to(ScalarType::F8E4M3, 465.0).status == FloatRounding::Status::Overflow);
  CHECK(round_double_to(ScalarType::F8E4M3, INFINITY).status ==
        FloatRounding::Status::NotRepresentable);
  CHECK(round_double_to(ScalarType::F8E4M3, -0.0).bits == 0x80u);
  CHECK(round_double_to(ScalarType::BF16, 1e39).status == FloatRounding::Status::Overflow);
  CHECK(round_double_to(ScalarType::F32, 1e39).status == FloatRounding::Status::Overflow);
  CHECK(round_double_to(ScalarType::F32, 0x1p-149).bits == 1u);       // smallest subnormal
  CHECK(round_double_to(ScalarType::F32, 0x1p-150).bits == 0u);       // tie → even 0
  CHECK(round_double_to(ScalarType::BF16, 0x1p-133).bits == 0x0001u); // bf16 subnormal kept
}

TEST_CASE("logical tensors: axes, offsets, limits and the byte image", "[tensor]") {
  auto axes = ir::parse_axes_text("V = 32, M = 4, N = 8, K = 2");
  REQUIRE(axes.ok());
  auto m = ir::parse_mapping_text("N, K", *axes);
  auto s = ir::parse_mapping_text("V % 16 # 256", *axes);
  REQUIRE(m.ok());
  REQUIRE(s.ok());
  ir::TensorType t;
  t.kind = ir::TensorKind::Trf;
  t.set(ir::Slot::Slice, {*s, {}});
  t.set(ir::Slot::Element, {*m, {}});
  auto ax = tensor_axes(t, *axes);
  REQUIRE(ax.size() == 3); // V, N, K in declaration order; M unused
  CHECK(ax[0].name == "V");
  CHECK(ax[1].name == "N");
  CHECK(ax[2].name == "K");
  auto x = make_logical_tensor(ScalarType::I16, ax);
  REQUIRE(x.ok());
  CHECK(x->shape() == std::vector<std::uint64_t>{32, 8, 2});
  CHECK(x->offset({{"V", 1}, {"K", 1}}) == 17);
  CHECK(x->coordinate_text(17) == "V=1, N=0, K=1");
  auto big = make_logical_tensor(ScalarType::I8, {{"A", 1u << 20}, {"B", 1u << 20}}, 1u << 20);
  REQUIRE_FALSE(big.ok());
  CHECK(big.diagnostics().front().code == "E-RUN-001");
  LogicalTensor b = testing::tensor_of(ScalarType::I16, {{"A", 2}}, {0xFFFFFFFEu, 0x1234u});
  CHECK(tensor_bytes(b) == std::vector<std::uint8_t>{0xFE, 0xFF, 0x34, 0x12});
  LogicalTensor f = testing::tensor_of(ScalarType::F32, {{"A", 1}}, {0x3F800000u});
  CHECK(tensor_bytes(f) == std::vector<std::uint8_t>{0x00, 0x00, 0x80, 0x3F});
  CHECK(element_value(ScalarType::BF16, 0x0001u) == 0x1p-133); // literal decode keeps subnormals
  CHECK(element_value(ScalarType::I4, 0xFFFFFFF8u) == -8.0);
  CHECK(element_value(ScalarType::U8, 0xFFu) == 255.0);
}

TEST_CASE("leading_block keeps the elements below the block on every axis", "[tensor]") {
  // t[a][b][c] = 100·a + 10·b + c over [A=3, B=4, C=5]; the block [A=2, B=4, C=3] holds the
  // elements with a < 2 and c < 3, row-major.
  auto t = make_logical_tensor(ScalarType::I32, {{"A", 3}, {"B", 4}, {"C", 5}});
  REQUIRE(t.ok());
  for (std::uint32_t a = 0; a < 3; ++a)
    for (std::uint32_t b = 0; b < 4; ++b)
      for (std::uint32_t c = 0; c < 5; ++c) t->set((a * 4 + b) * 5 + c, 100 * a + 10 * b + c);
  const LogicalTensor blk = leading_block(*t, {{"A", 2}, {"B", 4}, {"C", 3}});
  CHECK(blk.dtype == ScalarType::I32);
  CHECK(axes_text(blk.axes) == "[A=2, B=4, C=3]");
  REQUIRE(blk.elements() == 24);
  std::size_t k = 0;
  for (std::uint32_t a = 0; a < 2; ++a)
    for (std::uint32_t b = 0; b < 4; ++b)
      for (std::uint32_t c = 0; c < 3; ++c) CHECK(blk.get(k++) == 100 * a + 10 * b + c);
  // The whole tensor is its own block; a scalar's block is itself.
  CHECK(leading_block(*t, t->axes) == *t);
  auto s = make_logical_tensor(ScalarType::I32, {});
  REQUIRE(s.ok());
  s->set(0, 7);
  CHECK(testing::containers(leading_block(*s, {})) == std::vector<std::uint32_t>{7});
}

TEST_CASE("logical tensors store each element at its width, get sign- or zero-extends",
          "[tensor]") {
  // i4 / i5 / i8 in one byte and i9 / i16 in two, sign-extended; u8, bf16 and f8 codes
  // zero-extended; f32 / i32 four bytes.
  struct Case {
    ScalarType t;
    std::uint32_t set, get;
    std::uint32_t bytes;
  };
  for (const Case c :
       {Case{ScalarType::I4, 0xFFFFFFF8u, 0xFFFFFFF8u, 1},
        Case{ScalarType::I5, 0x0000000Fu, 0x0000000Fu, 1},
        Case{ScalarType::I8, 0xFFFFFF80u, 0xFFFFFF80u, 1},
        Case{ScalarType::I9, 0xFFFFFF00u, 0xFFFFFF00u, 2},
        Case{ScalarType::I16, 0xFFFF8000u, 0xFFFF8000u, 2}, Case{ScalarType::U8, 0xFFu, 0xFFu, 1},
        Case{ScalarType::BF16, 0xFF80u, 0xFF80u, 2}, Case{ScalarType::F8E4M3, 0xFFu, 0xFFu, 1},
        Case{ScalarType::F32, 0x7FC00001u, 0x7FC00001u, 4}}) {
    INFO(ir::name(c.t));
    auto x = make_logical_tensor(c.t, {{"A", 3}});
    REQUIRE(x.ok());
    CHECK(element_bytes(c.t) == c.bytes);
    CHECK(x->data.size() == 3 * c.bytes);
    x->set(1, c.set);
    CHECK(x->get(0) == 0u);
    CHECK(x->get(1) == c.get);
    CHECK(x->get(2) == 0u);
  }
}

TEST_CASE("seeded inputs: counter-based, tile-consistent, the same on any thread count",
          "[tensor]") {
  // Element k of a whole tensor is the (k+1)-th output of SplitMix64(seed): the generator is
  // indexed, not sequential.
  const ir::Axis A{"A", 64}, B{"B", 4096};
  auto whole = make_logical_tensor(ScalarType::I8, {A, B});
  REQUIRE(whole.ok());
  fill_random(*whole, 99);
  SplitMix64 g(99);
  for (std::uint64_t k = 0; k < 1000; ++k) {
    const auto want = static_cast<std::int32_t>(-128 + static_cast<std::int64_t>(g.below(256)));
    REQUIRE(static_cast<std::int32_t>(whole->get(k)) == want);
  }
  // The vectorised loops of the common types give random_element's values, element for element.
  for (ScalarType t : {ScalarType::BF16, ScalarType::I8}) {
    INFO(ir::name(t));
    auto w = make_logical_tensor(t, {A, B});
    REQUIRE(w.ok());
    fill_random(*w, 7, tile_index({A, B}, {A, B}), 2);
    for (std::uint64_t k = 0; k < w->elements(); k += 37)
      REQUIRE(w->get(k) == random_element(t, 7, k));
  }
  // A tile [A=40, B=1000] holds the whole tensor's elements at the same coordinates.
  const std::vector<ir::Axis> tile{{"A", 40}, {"B", 1000}};
  for (ScalarType t : {ScalarType::I8, ScalarType::BF16, ScalarType::F8E4M3, ScalarType::I4}) {
    INFO(ir::name(t));
    auto w = make_logical_tensor(t, {A, B});
    auto x = make_logical_tensor(t, tile);
    REQUIRE((w.ok() && x.ok()));
    fill_random(*w, 5);
    fill_random(*x, 5, tile_index(tile, {A, B}), 1);
    CHECK(*x == leading_block(*w, tile));
    // Two and three threads write the same bytes.
    for (unsigned threads : {2u, 3u}) {
      auto y = make_logical_tensor(t, {A, B});
      REQUIRE(y.ok());
      fill_random(*y, 5, tile_index({A, B}, {A, B}), threads);
      CHECK(*y == *w);
    }
  }
}

TEST_CASE("seeded inputs: any range of a tile, generated where it is read", "[tensor]") {
  // generate_elements(begin, end) of a tile is element for element random_element at the
  // coordinate in the whole tensor: ranges start and end inside rows and span several rows.
  const std::vector<ir::Axis> whole{{"A", 7}, {"B", 50}, {"C", 33}};
  const std::vector<ir::Axis> tile{{"A", 5}, {"B", 50}, {"C", 20}};
  const TileIndex ix = tile_index(tile, whole);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges{
      {0, 1}, {0, 20}, {3, 17}, {19, 61}, {1000, 3333}, {4999, 5000}, {0, 5000}};
  for (ScalarType t : {ScalarType::BF16, ScalarType::I8, ScalarType::F8E4M3, ScalarType::I4,
                       ScalarType::F32, ScalarType::I32}) {
    INFO(ir::name(t));
    const std::uint64_t w = element_bytes(t);
    for (auto [b, e] : ranges) {
      INFO("elements [" << b << ", " << e << ")");
      std::vector<std::uint8_t> got((e - b) * w + 1, 0xA5);
      generate_elements(t, {41, ix}, b, e, got.data());
      CHECK(got.back() == 0xA5); // nothing past the range
      for (std::uint64_t k = b; k < e; ++k) {
        // Tile element k = (a, b, c) sits at a·50·33 + b·33 + c in the whole tensor.
        const std::uint64_t a = k / (50 * 20), bb = k / 20 % 50, c = k % 20;
        const std::uint32_t want = random_element(t, 41, a * 50 * 33 + bb * 33 + c);
        REQUIRE(load_element(t, got.data() + (k - b) * w) == want);
      }
    }
  }
}

TEST_CASE("seeded inputs: one fill job over several tensors, shared by any number of threads",
          "[tensor]") {
  // A job holds several tensors' fills; threads take its chunks in turn, and threads other than
  // run()'s may call work() at any time (as the run's lowering thread does when it is done).
  // Every element is the one fill_random gives the tensor alone, on one thread.
  const ir::Axis A{"A", 96}, B{"B", 8192}, C{"C", 3}, D{"D", 5};
  const std::vector<std::pair<ScalarType, std::vector<ir::Axis>>> shapes{
      {ScalarType::BF16, {A, B}}, {ScalarType::I8, {B, A}}, {ScalarType::F8E4M3, {C, D}}};
  for (unsigned joiners : {0u, 1u, 3u}) {
    INFO(joiners << " more threads");
    std::vector<LogicalTensor> got, want;
    for (const auto& [t, axes] : shapes) {
      auto g = make_logical_tensor(t, axes), w = make_logical_tensor(t, axes);
      REQUIRE((g.ok() && w.ok()));
      got.push_back(std::move(*g));
      want.push_back(std::move(*w));
    }
    FillJob job;
    for (std::size_t k = 0; k < got.size(); ++k) {
      job.add(got[k], {11 + k, tile_index(got[k].axes, got[k].axes)});
      fill_random(want[k], 11 + k);
    }
    std::vector<std::thread> late;
    for (unsigned j = 0; j < joiners; ++j) late.emplace_back([&job] { job.work(); });
    job.run(2);
    for (auto& th : late) th.join();
    for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k] == want[k]);
  }
}
