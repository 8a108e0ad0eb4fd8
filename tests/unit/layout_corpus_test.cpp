// Layouts on every tensor parameter (and declared return type) of every kernel in specs/ and
// specs/derived/: to_device then from_device gives the seeded tensor back, and sampled cells
// agree with an independent evaluation through the mapping library's own combine / finalize
// (docs/mapping.md §2–§3).
#include "ir/lang/kernel.h"
#include "runtime/layout/layout.h"
#include "runtime/tensor/logical_tensor.h"
#include "runtime/tensor/random_fill.h"
#include "tests/support/device_layout.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

using namespace tujit;
using namespace tujit::runtime;
using tujit::testing::from_device;
using tujit::testing::layout_coverage;
using tujit::testing::to_device;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> corpus() {
  return tujit::testing::spec_corpus();
}

// The cell at image position (s, o, i) computed with ir::combine / ir::finalize on the slot
// mappings, independently of runtime/layout's dense evaluation.
ir::Finalized reference_cell(const LayoutPlan& plan, std::uint64_t s, std::uint64_t o,
                             std::uint64_t i, const ir::AxisTable& table) {
  ir::Cell cell = ir::Cell::live({});
  auto add = [&](const LayoutDim& d, std::uint64_t pos) {
    std::uint64_t minor = d.size;
    for (const auto& m : d.mappings) {
      minor /= m.size();
      cell = ir::combine(cell, m.map((pos / minor) % m.size()));
    }
  };
  add(plan.spatial, s);
  add(plan.outer, o);
  add(plan.inner, i);
  return ir::finalize(cell, ir::PaddingKind::Top, table);
}

CellState expected_state(const ir::Finalized& f) {
  if (f.kind == ir::Finalized::Kind::Live) return CellState::Live;
  switch (f.padding) {
  case ir::PaddingKind::Zero:
    return CellState::Zero;
  case ir::PaddingKind::Top:
    return CellState::Top;
  default:
    return CellState::Bottom;
  }
}

void check_round_trip(const ir::TensorType& type, const ir::AxisTable& table, std::uint64_t seed,
                      std::size_t& checked, std::size_t& partial) {
  INFO(ir::to_string(type));
  auto made = make_logical_tensor(type.dtype, tensor_axes(type, table));
  REQUIRE(made.ok());
  LogicalTensor t = std::move(made).value();
  fill_random(t, seed);
  auto img = to_device(t, type);
  REQUIRE(img.ok());
  auto cov = layout_coverage(type, t.axes);
  REQUIRE(cov.ok());
  auto back = from_device(*img, type, table);
  if (cov->unreached == 0) {
    if (!back.ok()) FAIL(render(back.diagnostics().front(), nullptr));
    CHECK(back->axes == t.axes);
    CHECK(back->data == t.data);
  } else {
    // The type holds only some digits of an axis (e.g. a TRF replicated over V / 16): reading
    // it back as an output must name an element no cell holds.
    ++partial;
    REQUIRE_FALSE(back.ok());
    CHECK(back.diagnostics().front().code == "E-RUN-005");
    CHECK(back.diagnostics().front().message.find(cov->first_unreached) != std::string::npos);
    // Low-digit coverage: the device view replicates the held elements.
    // (Skipped for the two largest lm_head operands, 33M cells, to keep the tag fast.)
    auto view =
        t.elements() <= (1u << 22) ? device_view(t, type) : Result<LogicalTensor>(Diagnostic{});
    if (view.ok()) {
      auto img2 = to_device(*view, type);
      REQUIRE(img2.ok());
      CHECK(img2->bits == img->bits);
    }
  }

  auto plan = layout_plan(type);
  REQUIRE(plan.ok());
  SplitMix64 g(seed);
  const std::uint32_t poison = poison_bits(type.dtype);
  for (int k = 0; k < 64; ++k) {
    std::uint64_t s = g.below(img->spatial), o = g.below(img->outer), i = g.below(img->inner);
    ir::Finalized f = reference_cell(*plan, s, o, i, table);
    REQUIRE(f.kind != ir::Finalized::Kind::Overshoot);
    const std::uint64_t idx = img->index(s, o, i);
    REQUIRE(img->state[idx] == expected_state(f));
    if (f.kind == ir::Finalized::Kind::Live)
      CHECK(img->bits[idx] == t.get(t.offset(f.index)));
    else if (img->state[idx] == CellState::Top)
      CHECK(img->bits[idx] == poison);
    else
      CHECK(img->bits[idx] == 0);
  }
  ++checked;
}

} // namespace

TEST_CASE("layout corpus: every tensor parameter round-trips through its device image",
          "[layout]") {
  std::size_t checked = 0, files = 0, partial = 0;
  std::uint64_t seed = 1;
  for (const auto& path : corpus()) {
    auto spec = ir::load_spec(path.string());
    INFO(path.string());
    REQUIRE(spec.ok());
    ++files;
    for (const auto& k : spec->kernels) {
      INFO(k.name);
      for (const auto& p : k.params)
        if (p.tensor) check_round_trip(*p.tensor, spec->axes, seed++, checked, partial);
      if (k.returned) check_round_trip(*k.returned, spec->axes, seed++, checked, partial);
    }
  }
  WARN("round-tripped " << checked << " tensor types; " << partial << " hold only some digits");
  CHECK(files >= 20);
  CHECK(checked >= 2 * files);
}
