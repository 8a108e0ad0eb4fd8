// Hand-built layouts with zero / top / bottom padding: cell states and contents at positions
// worked out by hand from docs/mapping.md §2–§3 (map, combine: the most major padding wins), and
// from_device's diagnostics for duplicated, missing and overshooting cells.
#include "ir/mapping/syntax.h"
#include "runtime/layout/layout.h"
#include "tests/support/device_layout.h"

#include <catch2/catch.hpp>

using namespace tujit;
using namespace tujit::runtime;
using ir::Slot;
using tujit::testing::from_device;
using tujit::testing::layout_coverage;
using tujit::testing::to_device;

namespace {

ir::AxisTable axes() {
  return *ir::parse_axes_text("V = 32, N = 8, K = 2");
}

void put(ir::TensorType& t, Slot s, const char* text) {
  auto m = ir::parse_mapping_text(text, axes());
  REQUIRE(m.ok());
  t.set(s, {*m, {}});
}

LogicalTensor counting(const ir::TensorType& t) {
  auto x = make_logical_tensor(t.dtype, tensor_axes(t, axes()));
  REQUIRE(x.ok());
  for (std::uint64_t k = 0; k < x->elements(); ++k) x->set(k, static_cast<std::uint32_t>(k + 1));
  return *x;
}

} // namespace

TEST_CASE("layout: a stream with top slices and zero packet cells", "[layout]") {
  ir::TensorType t;
  t.kind = ir::TensorKind::Collect;
  t.dtype = ir::ScalarType::I16;
  put(t, Slot::Chip, "1");
  put(t, Slot::Cluster, "1");
  put(t, Slot::Slice, "V % 16 # 256");
  put(t, Slot::Time, "V / 16");
  put(t, Slot::Packet, "N #{0} 16");
  LogicalTensor x = counting(t); // axes V, N: element (v, n) holds 8v + n + 1
  auto img = to_device(x, t);
  REQUIRE(img.ok());
  CHECK(img->spatial == 256);
  CHECK(img->outer == 2);
  CHECK(img->inner == 16);
  // Slice 5, Time 1, Packet 3: V = 5 + 16·1 = 21, N = 3.
  CHECK(img->state[img->index(5, 1, 3)] == CellState::Live);
  CHECK(img->bits[img->index(5, 1, 3)] == 8 * 21 + 3 + 1);
  // Slices 16..255 are `#` padding (Top) whatever Time / Packet say, even over zero packet cells.
  for (std::uint64_t s : {16u, 100u, 255u})
    for (std::uint64_t i : {0u, 12u}) {
      CHECK(img->state[img->index(s, 0, i)] == CellState::Top);
      CHECK(img->bits[img->index(s, 0, i)] == poison_bits(ir::ScalarType::I16));
    }
  // Packet cells 8..15 are `#{0}` padding.
  CHECK(img->state[img->index(5, 0, 8)] == CellState::Zero);
  CHECK(img->bits[img->index(5, 0, 15)] == 0);
  std::uint64_t live = 0;
  for (auto s : img->state) live += s == CellState::Live;
  CHECK(live == 32 * 8);
  auto back = from_device(*img, t, axes());
  REQUIRE(back.ok());
  CHECK(back->data == x.data);
}

TEST_CASE("layout: a TRF with bottom lanes, the major padding wins", "[layout]") {
  ir::TensorType t;
  t.kind = ir::TensorKind::Trf;
  t.dtype = ir::ScalarType::BF16;
  put(t, Slot::Lane, "K #{!} 4");
  put(t, Slot::Element, "N # 16");
  LogicalTensor x = counting(t); // axes N, K: (n, k) holds 2n + k + 1
  auto img = to_device(x, t);
  REQUIRE(img.ok());
  CHECK(img->spatial == 1);
  CHECK(img->outer == 4);
  CHECK(img->inner == 16);
  CHECK(img->bits[img->index(0, 1, 6)] == 2 * 6 + 1 + 1); // lane 1 = K 1, element 6 = N 6
  CHECK(img->state[img->index(0, 0, 9)] == CellState::Top);
  CHECK(img->bits[img->index(0, 0, 9)] == 0x7FDEu); // bf16 poison
  CHECK(img->state[img->index(0, 3, 2)] == CellState::Bottom);
  CHECK(img->state[img->index(0, 2, 12)] == CellState::Bottom); // bottom lane over top element
  CHECK(img->bits[img->index(0, 3, 2)] == 0);
}

TEST_CASE("layout: zero padding major to top padding stays zero", "[layout]") {
  ir::TensorType t;
  t.kind = ir::TensorKind::Vrf;
  t.dtype = ir::ScalarType::F32;
  put(t, Slot::Slice, "K #{0} 4");
  put(t, Slot::Element, "N # 16");
  LogicalTensor x = counting(t);
  auto img = to_device(x, t);
  REQUIRE(img.ok());
  CHECK(img->state[img->index(3, 0, 12)] == CellState::Zero);
  CHECK(img->state[img->index(1, 0, 12)] == CellState::Top);
  CHECK(img->bits[img->index(1, 0, 12)] == 0x7FA0DEADu);
  CHECK(img->bits[img->index(1, 0, 7)] == 2 * 7 + 1 + 1);
}

TEST_CASE("layout: from_device diagnostics", "[layout]") {
  ir::TensorType t;
  t.kind = ir::TensorKind::Contract;
  t.dtype = ir::ScalarType::I32;
  put(t, Slot::Slice, "2"); // two slices hold the same elements
  put(t, Slot::Time, "V");
  put(t, Slot::Packet, "N");
  LogicalTensor x = counting(t);
  auto img = to_device(x, t);
  REQUIRE(img.ok());
  REQUIRE(from_device(*img, t, axes()).ok());
  img->bits[img->index(1, 7, 2)] ^= 1; // slice 1 disagrees about V=7, N=2
  auto dup = from_device(*img, t, axes());
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.diagnostics().front().code == "E-RUN-005");
  CHECK(dup.diagnostics().front().message.find("V=7, N=2") != std::string::npos);
  CHECK(dup.diagnostics().front().message.find("Slice 1, Time 7, Packet 2") != std::string::npos);

  ir::TensorType part = t; // only V / 16 of V: V = 1 is never produced
  put(part, Slot::Slice, "1");
  put(part, Slot::Time, "V / 16");
  auto pimg = to_device(counting(part), part);
  REQUIRE(pimg.ok());
  auto missing = from_device(*pimg, part, axes());
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.diagnostics().front().message.find("V=1, N=0") != std::string::npos);
  auto cov = layout_coverage(part, tensor_axes(part, axes()));
  REQUIRE(cov.ok());
  CHECK(cov->unreached == 30 * 8);
  // High digits only (V = 0 and 16): the device view reads V = 16·(V / 16) for every V.
  const LogicalTensor full = counting(part);
  auto view = device_view(full, part);
  REQUIRE(view.ok());
  for (std::uint64_t v = 0; v < 32; ++v)
    for (std::uint64_t n = 0; n < 8; ++n)
      CHECK(view->get(v * 8 + n) == full.get((v / 16 * 16) * 8 + n));
  // Coordinates {0, 1, 4, 5} of V are not evenly spaced from 0: no device view.
  ir::TensorType uneven = t;
  put(uneven, Slot::Slice, "1");
  put(uneven, Slot::Time, "V / 4 % 2, V % 2");
  CHECK_FALSE(device_view(counting(uneven), uneven).ok());

  ir::TensorType wrong = t;
  wrong.dtype = ir::ScalarType::F32;
  CHECK(from_device(*img, wrong, axes()).diagnostics().front().code == "E-RUN-004");
  CHECK(to_device(x, wrong).diagnostics().front().code == "E-RUN-004");

  ir::TensorType over = t; // [V / 16, V % 32]: position (1, 31) is V = 16 + 31 = 47 ≥ 32
  put(over, Slot::Time, "V / 16, V % 32");
  auto o = to_device(counting(over), over);
  REQUIRE_FALSE(o.ok());
  CHECK(o.diagnostics().front().code == "E-RUN-002");
  CHECK(o.diagnostics().front().message.find("overshoots axis V") != std::string::npos);
}

TEST_CASE("layout: device_view replicates low digits", "[layout]") {
  ir::TensorType t;
  t.kind = ir::TensorKind::Trf;
  t.dtype = ir::ScalarType::I8;
  put(t, Slot::Slice, "V % 16");
  put(t, Slot::Element, "K");
  LogicalTensor x = counting(t); // axes V, K: (v, k) holds 2v + k + 1
  auto v = device_view(x, t);
  REQUIRE(v.ok());
  CHECK(v->get(x.offset({{"V", 21}, {"K", 1}})) == 2 * 5 + 1 + 1); // V 21 reads V 5
  CHECK(v->get(x.offset({{"V", 3}, {"K", 0}})) == 2 * 3 + 1);
}
