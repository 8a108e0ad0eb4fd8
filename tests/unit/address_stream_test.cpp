// Address streams (ir/seq/address_stream.h, held_axes.h) against the device-image layout of
// runtime/layout/ — an independent evaluation of the same mappings cell by cell over the whole
// padded image: for every tensor type of specs/ (parameters and stage outputs), every cell's state
// and logical offset agree, overshoot is refused alike, and the held coordinates of every output
// are the same. Then the tables' own rules: exact affine compression, separability.
#include "ir/lang/kernel.h"
#include "ir/seq/address_stream.h"
#include "ir/seq/held_axes.h"
#include "ir/seq/operand_streams.h"
#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"
#include "tests/support/spec_corpus.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

using namespace tujit;
using ir::CellState;
using ir::seq::AddressLoop;
using ir::seq::AddressTable;
using ir::seq::CellAddress;
using ir::seq::CellStreams;

namespace {

/// Images up to this many cells are compared cell by cell (the corpus's largest are lm_head's
/// DM operands: their streams are compared on a sample of cells).
constexpr std::uint64_t kWholeImageCells = std::uint64_t{1} << 22;

/// Every distinct tensor type of a kernel: parameters and the output of every stage.
std::vector<ir::TensorType> types_of(const ir::Kernel& k) {
  std::vector<ir::TensorType> v;
  for (const auto& p : k.params)
    if (p.tensor) v.push_back(*p.tensor);
  for (const auto& st : k.stages) v.push_back(st.output);
  return v;
}

} // namespace

TEST_CASE("address streams: every cell of every specs/ tensor type equals its layout",
          "[address-stream]") {
  std::size_t types = 0, sampled = 0, overshoots = 0, cells_checked = 0;
  std::uint64_t rng = 12345;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& k : file->kernels)
      for (const ir::TensorType& type : types_of(k)) {
        INFO(path.filename().string() << " :: " << k.name << " :: " << ir::to_string(type));
        const auto axes = ir::seq::type_axes(type, file->axes);
        auto plan = runtime::layout_plan(type);
        REQUIRE(plan.ok());
        const std::uint64_t S = plan->spatial.size, O = plan->outer.size, I = plan->inner.size;
        auto coords = ir::seq::view_coordinates(type, axes, ir::seq::kMaxStreamPositions);
        REQUIRE(coords.ok());
        auto streams = ir::seq::tensor_streams("t", type.dtype, *coords, axes);
        const bool whole = S * O * I <= kWholeImageCells;
        if (!whole) {
          // A sample of cells against Mapping::map of each slot (the layout's own rule).
          REQUIRE(streams.ok());
          for (int n = 0; n < 2000; ++n) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            const std::uint64_t s = (rng >> 11) % S, o = (rng >> 23) % O, i = (rng >> 37) % I;
            ir::Cell c = ir::Cell::live({});
            const ir::seq::ViewDims d = ir::seq::view_dims(type.kind);
            std::uint64_t pos[3] = {s, o, i};
            const std::vector<ir::Slot>* dims[3] = {&d.spatial, &d.outer, &d.inner};
            for (int dim = 0; dim < 3; ++dim) {
              std::uint64_t minor = 1;
              for (ir::Slot sl : *dims[dim]) minor *= type.mapping(sl).size();
              for (ir::Slot sl : *dims[dim]) {
                minor /= type.mapping(sl).size();
                c = ir::combine(c,
                                type.mapping(sl).map((pos[dim] / minor) % type.mapping(sl).size()));
              }
            }
            const CellAddress a = streams->at(s, o, i);
            if (c.is_live()) {
              REQUIRE(a.state == CellState::Live);
              std::uint64_t off = 0;
              for (const auto& ax : axes) {
                auto it = c.index.find(ax.name);
                off = off * ax.size + (it == c.index.end() ? 0 : it->second);
              }
              CHECK(a.offset == off);
            } else {
              CHECK(a.state != CellState::Live);
            }
          }
          ++sampled;
          ++types;
          continue;
        }
        auto cells = runtime::layout_cells(type, axes);
        if (!cells) {
          // The layout refuses a cell that overshoots an axis; so must the streams.
          REQUIRE(cells.diagnostics().front().code == "E-RUN-002");
          REQUIRE_FALSE(streams.ok());
          CHECK(streams.diagnostics().front().code == "E-RUN-002");
          ++overshoots;
          continue;
        }
        REQUIRE(streams.ok());
        std::uint64_t bad = 0;
        for (std::uint64_t s = 0; s < S; ++s)
          for (std::uint64_t o = 0; o < O; ++o)
            for (std::uint64_t i = 0; i < I; ++i) {
              const std::uint64_t idx = (s * O + o) * I + i;
              const CellAddress a = streams->at(s, o, i);
              const bool ok = a.state == cells->state[idx] &&
                              (a.state != CellState::Live || a.offset == cells->offset[idx]);
              if (!ok && bad++ < 4)
                UNSCOPED_INFO(fmt::format("cell ({}, {}, {}): streams {} @{}, layout {} @{}", s, o,
                                          i, static_cast<int>(a.state), a.offset,
                                          static_cast<int>(cells->state[idx]), cells->offset[idx]));
            }
        CHECK(bad == 0);
        cells_checked += S * O * I;
        ++types;
      }
  }
  INFO(types << " types, " << sampled << " sampled, " << overshoots << " overshoots, "
             << cells_checked << " cells");
  CHECK(types >= 300);
  CHECK(cells_checked > 1000000);
}

TEST_CASE("address streams: the held axes of every specs/ type equal the layout's",
          "[address-stream]") {
  std::size_t outputs = 0, partial = 0;
  for (const auto& path : testing::spec_corpus()) {
    auto file = ir::load_spec(path.string());
    REQUIRE(file.ok());
    for (const auto& k : file->kernels)
      for (const ir::TensorType& type : types_of(k)) {
        const auto axes = ir::seq::type_axes(type, file->axes);
        auto plan = runtime::layout_plan(type);
        REQUIRE(plan.ok());
        if (plan->spatial.size * plan->outer.size * plan->inner.size > kWholeImageCells) continue;
        INFO(path.filename().string() << " :: " << ir::to_string(type));
        auto want = runtime::held_axes(type, axes);
        auto coords = ir::seq::view_coordinates(type, axes, ir::seq::kMaxStreamPositions);
        REQUIRE(coords.ok());
        auto got = ir::seq::held_axes(*coords, ir::to_string(type));
        // The same from the type's slots, each mapping evaluated alone.
        auto by_slot = ir::seq::held_axes(type, axes, ir::seq::kMaxStreamPositions);
        REQUIRE(want.ok() == got.ok());
        REQUIRE(want.ok() == by_slot.ok());
        if (!want) continue;
        REQUIRE(want->size() == got->size());
        REQUIRE(want->size() == by_slot->size());
        for (std::size_t a = 0; a < want->size(); ++a) {
          CHECK((*want)[a].axis == (*got)[a].axis);
          CHECK((*want)[a].stride == (*got)[a].stride);
          CHECK((*want)[a].axis == (*by_slot)[a].axis);
          CHECK((*want)[a].stride == (*by_slot)[a].stride);
          partial += !(*got)[a].whole();
        }
        ++outputs;
      }
  }
  CHECK(outputs >= 300);
  CHECK(partial >= 2); // weighted_sum's T / 16, lm_head's tiles
}

TEST_CASE("address tables: affine when exactly affine, explicit otherwise", "[address-stream]") {
  const auto cells = [](std::vector<std::uint64_t> offsets) {
    std::vector<CellAddress> v;
    for (auto o : offsets) v.push_back({o, CellState::Live});
    return v;
  };
  // [2 : 16, 4 : 1] + 3: offsets 3 4 5 6 19 20 21 22.
  AddressTable a = AddressTable::explicit_cells(cells({3, 4, 5, 6, 19, 20, 21, 22}));
  REQUIRE(a.is_affine());
  CHECK(a.base() == 3);
  CHECK(a.loops() == std::vector<AddressLoop>{{4, 1}, {2, 16}});
  CHECK(a.max_offset() == 22);
  for (std::uint64_t p = 0; p < 8; ++p) CHECK(a.offset(p) == (p < 4 ? 3 + p : 15 + p));
  // A reversed order: stride -1; a broadcast: stride 0.
  AddressTable r = AddressTable::explicit_cells(cells({7, 6, 5, 4}));
  REQUIRE(r.is_affine());
  CHECK(r.loops() == std::vector<AddressLoop>{{4, -1}});
  CHECK(r.max_offset() == 7);
  AddressTable b = AddressTable::explicit_cells(cells({0, 1, 0, 1, 0, 1}));
  REQUIRE(b.is_affine());
  CHECK(b.loops() == std::vector<AddressLoop>{{2, 1}, {3, 0}});
  // Not affine: a permutation, and any padding cell.
  AddressTable p = AddressTable::explicit_cells(cells({0, 2, 1, 3, 5}));
  CHECK_FALSE(p.is_affine());
  CHECK(p.offset(2) == 1);
  std::vector<CellAddress> padded = cells({0, 1, 2, 3});
  padded[3] = {99, CellState::Top};
  AddressTable q = AddressTable::explicit_cells(padded);
  CHECK_FALSE(q.is_affine());
  CHECK_FALSE(q.all_live());
  CHECK(q.any(CellState::Top));
  CHECK(q.offset(3) == 0); // a padding cell addresses nothing
  CHECK(q.live_count() == 3);
  CHECK(q.max_offset() == 2);
  CHECK(AddressTable::explicit_cells(cells({0, 2, 1, 3, 5})) == p);
  CHECK_FALSE(p == q);
}

TEST_CASE("cell streams: separable when every cell is outer ⊕ inner, one table otherwise",
          "[address-stream]") {
  // A transposed [4][3] view of a [3][4] tensor is separable (offset 1·o + 4·i).
  auto t = CellStreams::from_function(4, 3, [](std::uint64_t o, std::uint64_t i) {
    return CellAddress{o + 4 * i, CellState::Live};
  });
  CHECK(t.separable);
  CHECK(t.outer.is_affine());
  CHECK(t.inner.is_affine());
  for (std::uint64_t o = 0; o < 4; ++o)
    for (std::uint64_t i = 0; i < 3; ++i) CHECK(t.at(o, i).offset == o + 4 * i);
  // A padded row and a padded column combine like docs/mapping.md §2 (the major one wins).
  auto pad = CellStreams::from_function(3, 4, [](std::uint64_t o, std::uint64_t i) {
    if (o == 2) return CellAddress{0, CellState::Zero};
    if (i == 3) return CellAddress{0, CellState::Top};
    return CellAddress{o * 3 + i, CellState::Live};
  });
  CHECK(pad.separable);
  CHECK(pad.at(2, 3).state == CellState::Zero);
  CHECK(pad.at(1, 3).state == CellState::Top);
  CHECK(pad.at(1, 2).offset == 5);
  // A diagonal skew (offset (o + i) mod 4) is not outer ⊕ inner: one table.
  auto skew = CellStreams::from_function(4, 4, [](std::uint64_t o, std::uint64_t i) {
    return CellAddress{(o + i) % 4, CellState::Live};
  });
  CHECK_FALSE(skew.separable);
  for (std::uint64_t o = 0; o < 4; ++o)
    for (std::uint64_t i = 0; i < 4; ++i) CHECK(skew.at(o, i).offset == (o + i) % 4);
}

TEST_CASE("stream coverage: equals a walk over every live cell, dense blocks or not",
          "[address-stream]") {
  // Random output streams: per-slice cells from affine loops (a shuffled mixed radix, so a dense
  // block, or with one stride perturbed), live slices at random bases that may overlap, leave
  // gaps or run past the tensor, some slices dead. The expected coverage counts every live cell.
  std::mt19937_64 rng(20261202);
  std::size_t disjoint = 0, closed = 0;
  for (int round = 0; round < 400; ++round) {
    std::vector<std::uint64_t> sizes;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k) sizes.push_back(1 + rng() % 4);
    std::vector<std::uint64_t> order(sizes.size());
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::int64_t> stride(sizes.size());
    std::uint64_t block = 1;
    for (std::uint64_t k : order) {
      stride[k] = static_cast<std::int64_t>(block);
      block *= sizes[k];
    }
    if (rng() % 4 == 0) stride[rng() % stride.size()] += 1; // not a dense block
    // The first loop is the inner dimension's, the rest the outer's.
    ir::seq::TensorStreams s;
    s.cells.inner = AddressTable::affine(0, {{sizes[0], stride[0]}});
    s.cells.inner_size = sizes[0];
    std::vector<AddressLoop> outer;
    std::uint64_t outer_size = 1;
    for (std::size_t k = 1; k < sizes.size(); ++k) {
      outer.push_back({sizes[k], stride[k]});
      outer_size *= sizes[k];
    }
    s.cells.outer = AddressTable::affine(0, outer);
    s.cells.outer_size = outer_size;
    const std::uint64_t slices = 1 + rng() % 6, elements = block * (1 + rng() % 6) + rng() % 3;
    std::vector<CellAddress> bases;
    for (std::uint64_t sp = 0; sp < slices; ++sp) {
      const std::uint64_t base = rng() % 3 == 0 ? rng() % (elements + 2) : block * (rng() % 6);
      bases.push_back({base, rng() % 5 == 0 ? CellState::Top : CellState::Live});
    }
    s.spatial = AddressTable::explicit_cells(bases);
    // Every slice, then a random subset of them (the live slices of a run).
    std::vector<std::uint64_t> subset;
    for (std::uint64_t sp = 0; sp < slices; ++sp)
      if (rng() % 2 == 0) subset.push_back(sp);
    const std::vector<std::uint64_t>* none = nullptr;
    const std::vector<std::uint64_t>* some = &subset;
    for (const std::vector<std::uint64_t>* counted : {none, some}) {
      std::vector<std::uint8_t> seen(elements, 0);
      ir::seq::StreamCoverage want;
      for (std::uint64_t sp = 0; sp < slices; ++sp) {
        if (counted && std::find(counted->begin(), counted->end(), sp) == counted->end()) continue;
        for (std::uint64_t o = 0; o < outer_size; ++o)
          for (std::uint64_t i = 0; i < sizes[0]; ++i) {
            const CellAddress c = s.at(sp, o, i);
            if (c.state != CellState::Live || c.offset >= elements) continue;
            want.duplicated += seen[c.offset];
            seen[c.offset] = 1;
          }
      }
      for (std::uint64_t e = elements; e-- > 0;)
        if (!seen[e]) {
          ++want.unreached;
          want.first_unreached = e;
        }
      INFO("round " << round << (counted ? ", a subset" : ""));
      const ir::seq::StreamCoverage got = ir::seq::stream_coverage(s, elements, counted);
      CHECK(got.unreached == want.unreached);
      CHECK(got.first_unreached == want.first_unreached);
      CHECK(got.duplicated == want.duplicated);
      // The closed form, where it answers, and the general walk each equal it.
      if (const auto blocks = ir::seq::block_coverage(s, elements, counted)) {
        CHECK(blocks->unreached == want.unreached);
        CHECK(blocks->first_unreached == want.first_unreached);
        CHECK(blocks->duplicated == want.duplicated);
        ++closed;
      }
      const ir::seq::StreamCoverage walked = ir::seq::walked_coverage(s, elements, counted);
      CHECK(walked.unreached == want.unreached);
      CHECK(walked.first_unreached == want.first_unreached);
      CHECK(walked.duplicated == want.duplicated);
      disjoint += want.duplicated == 0 && want.unreached < elements;
    }
  }
  CHECK(closed >= 50);
  CHECK(disjoint >= 50);
}
