// The factored view streams (ir/seq/view_streams.h) against the general walk over every position
// (view_coordinates, then tensor_streams): wherever the factored form answers, its streams equal
// the general walk's field for field — the same affine loops or the same explicit cells — on every
// tensor type of specs/ and on random types whose slots hold random mappings of every node kind
// (pairs, strides and moduli of pairs, paddings of every kind, broadcasts, overshooting sums).
#include "ir/lang/kernel.h"
#include "ir/seq/operand_streams.h"
#include "ir/seq/view_streams.h"
#include "tests/support/mapping_gen.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>

using namespace tujit;

namespace {

/// The general walk's streams, or nullopt when it refuses the view.
std::optional<ir::seq::TensorStreams> general_streams(const ir::TensorType& type,
                                                      const std::vector<ir::Axis>& axes,
                                                      const std::vector<ir::Axis>& tensor_axes) {
  auto coords = ir::seq::view_coordinates(type, axes, ir::seq::kMaxStreamPositions);
  if (!coords) return std::nullopt;
  auto t = ir::seq::tensor_streams("t", type.dtype, *coords, tensor_axes);
  if (!t) return std::nullopt;
  return std::move(*t);
}

/// Whether the factored form answers, after checking that its answer is the general walk's.
bool factored_equals_general(const ir::TensorType& type, const std::vector<ir::Axis>& axes,
                             const std::vector<ir::Axis>& tensor_axes) {
  const auto factored =
      ir::seq::factored_streams("t", type, axes, tensor_axes, ir::seq::kMaxStreamPositions);
  if (!factored) return false;
  const auto general = general_streams(type, axes, tensor_axes);
  REQUIRE(general.has_value());
  CHECK(factored->spatial == general->spatial);
  CHECK(factored->cells == general->cells);
  CHECK(*factored == *general);
  return true;
}

} // namespace

TEST_CASE("view streams: the factored form equals the general walk on every specs/ type",
          "[view-streams]") {
  std::size_t types = 0, factored = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& k : file->kernels) {
      std::vector<ir::TensorType> all;
      for (const auto& p : k.params)
        if (p.tensor) all.push_back(*p.tensor);
      for (const auto& st : k.stages) all.push_back(st.output);
      for (const ir::TensorType& type : all) {
        INFO(path.filename().string() << " :: " << k.name << " :: " << ir::to_string(type));
        const auto axes = ir::seq::type_axes(type, file->axes);
        ++types;
        if (factored_equals_general(type, axes, axes)) ++factored;
      }
    }
  }
  INFO(types << " types, " << factored << " factored");
  CHECK(types >= 300);
  CHECK(factored * 10 >= types * 9);
}

TEST_CASE("view streams: the book's batched matmul's operands are factored, the stream affine",
          "[view-streams]") {
  auto file = ir::load_spec(std::string(TUJIT_SOURCE_DIR) + "/specs/bmatmul_m_in_time.rs");
  REQUIRE(file.ok());
  std::size_t params = 0;
  for (const auto& k : file->kernels)
    for (const auto& p : k.params) {
      if (!p.tensor) continue;
      const auto axes = ir::seq::type_axes(*p.tensor, file->axes);
      REQUIRE(factored_equals_general(*p.tensor, axes, axes));
      ++params;
    }
  CHECK(params >= 2);
}

TEST_CASE("view streams: the factored form equals the general walk on random types",
          "[view-streams]") {
  testing::MappingGenOptions opts;
  opts.max_size = 24;
  opts.max_depth = 3;
  opts.max_axes = 3;
  opts.max_axis_size = 12;
  opts.allow_repeat_axis = true; // sums of one axis's digits: overshoot and whole-axis padding
  testing::MappingGenerator gen(20261202, opts);
  const ir::TensorKind kinds[] = {ir::TensorKind::Collect, ir::TensorKind::Trf,
                                  ir::TensorKind::ContractOuter, ir::TensorKind::Vrf};
  std::size_t factored = 0, explicit_tables = 0, cases = 0, general = 0;
  for (int n = 0; n < 600; ++n) {
    const testing::GeneratedMapping first = gen.next();
    ir::TensorType type;
    type.kind = kinds[n % 4];
    type.dtype = ir::ScalarType::BF16;
    for (const auto& arg : ir::tensor_args(type.kind))
      if (arg.kind == ir::TensorArg::Kind::Mapping)
        type.set(arg.slot, ir::SpannedMapping{gen.next_over(first.axes), {}});
    std::vector<ir::Axis> axes = first.axes.axes();
    // Every other case, axes larger than the mappings' (the slots' sums of one axis then fit
    // more often); tensors as large as the axes, larger, and (every third case) missing the last
    // axis.
    if (n % 2 == 0)
      for (auto& a : axes) a.size *= 6;
    std::vector<ir::Axis> tensor_axes = axes;
    if (n % 5 == 1)
      for (auto& a : tensor_axes) a.size += 3;
    if (n % 3 == 2 && axes.size() > 1) {
      axes.pop_back();
      tensor_axes.pop_back();
    }
    INFO(ir::to_string(type));
    ++cases;
    if (general_streams(type, axes, tensor_axes)) ++general;
    if (!factored_equals_general(type, axes, tensor_axes)) continue;
    ++factored;
    const auto t =
        ir::seq::factored_streams("t", type, axes, tensor_axes, ir::seq::kMaxStreamPositions);
    if (!t->spatial.is_affine() || !t->cells.outer.is_affine() || !t->cells.inner.is_affine())
      ++explicit_tables;
  }
  INFO(cases << " cases, " << general << " streamed, " << factored << " factored, "
             << explicit_tables << " with a table");
  // Both forms of table are exercised, and the factored form answers for most views the general
  // walk streams.
  CHECK(factored * 2 >= general);
  CHECK(explicit_tables * 5 >= factored);
  CHECK(explicit_tables < factored);
}
