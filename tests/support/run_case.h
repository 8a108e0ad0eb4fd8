// Test bridges between a view's cells and the logical tensors the engines read (ir/seq/
// address_stream.h): tests that reason cell by cell — values written per stream / TRF cell, the
// brute-force einsum over images, an expected value per output cell — build the logical inputs
// from per-cell values and read the output back per cell through the program's streams.
#pragma once

#include "ir/seq/run_program.h"
#include "runtime/device/device_image.h"
#include "runtime/interp/interpreter.h"
#include "runtime/tensor/logical_tensor.h"
#include "tests/support/chain_run.h"

#include <catch2/catch.hpp>

#include <cstdint>

namespace tujit::testing {

/// A logical tensor over `s.axes` whose element at every live cell (slice, outer, inner) of the
/// streams is value(slice, outer, inner); elements no live cell holds are 0. Cells holding the same
/// element must be given the same value (REQUIREd).
template <class F>
runtime::LogicalTensor tensor_of_cells(const ir::seq::TensorStreams& s, F value) {
  auto t = runtime::make_logical_tensor(s.dtype, s.axes);
  REQUIRE(t.ok());
  std::vector<bool> set(t->elements(), false);
  std::vector<std::uint32_t> given(t->elements(), 0);
  for (std::uint64_t sp = 0; sp < s.spatial.size(); ++sp)
    for (std::uint64_t o = 0; o < s.cells.outer_size; ++o)
      for (std::uint64_t i = 0; i < s.cells.inner_size; ++i) {
        const ir::seq::CellAddress a = s.at(sp, o, i);
        if (a.state != ir::CellState::Live) continue;
        const std::uint32_t v = value(sp, o, i);
        if (set[a.offset]) {
          REQUIRE(given[a.offset] == v);
          continue;
        }
        set[a.offset] = true;
        given[a.offset] = v;
        t->set(a.offset, v);
      }
  return std::move(*t);
}

/// The device image a view of `t` is: per cell its state from the streams and, when live, the
/// tensor's element (Top cells hold the poison bits, Zero and Bottom 0).
inline runtime::DeviceImage image_of(const ir::seq::TensorStreams& s,
                                     const runtime::LogicalTensor& t) {
  runtime::DeviceImage img(t.dtype, s.spatial.size(), s.cells.outer_size, s.cells.inner_size);
  for (std::uint64_t sp = 0; sp < img.spatial; ++sp)
    for (std::uint64_t o = 0; o < img.outer; ++o)
      for (std::uint64_t i = 0; i < img.inner; ++i) {
        const ir::seq::CellAddress a = s.at(sp, o, i);
        const std::uint64_t k = img.index(sp, o, i);
        img.state[k] = a.state;
        img.bits[k] = a.state == ir::CellState::Live  ? t.get(a.offset)
                      : a.state == ir::CellState::Top ? runtime::poison_bits(t.dtype)
                                                      : 0u;
      }
  return img;
}

/// The output of a run as the image of its output view: live cells of live slices hold the
/// output element (state Live), every other cell 0 (state Zero).
inline runtime::DeviceImage output_image(const ir::seq::RunProgram& p,
                                         const runtime::RunResult& r) {
  const ir::seq::TensorStreams& s = p.output;
  runtime::DeviceImage img(r.output.dtype, s.spatial.size(), s.cells.outer_size,
                           s.cells.inner_size);
  std::fill(img.state.begin(), img.state.end(), runtime::CellState::Zero);
  for (std::uint64_t sp : p.live_slices())
    for (std::uint64_t o = 0; o < img.outer; ++o)
      for (std::uint64_t i = 0; i < img.inner; ++i) {
        const ir::seq::CellAddress a = s.at(sp, o, i);
        if (a.state != ir::CellState::Live) continue;
        const std::uint64_t k = img.index(sp, o, i);
        img.state[k] = runtime::CellState::Live;
        img.bits[k] = r.output.get(a.offset);
      }
  return img;
}

/// A chain lowered on its own, ready to run (chain_run.h), REQUIREd to succeed.
inline ChainRun chain_run_of(const ir::seq::ContractionProgram& p) {
  auto r = chain_run(p);
  if (!r)
    for (const auto& d : r.diagnostics()) UNSCOPED_INFO(render(d, nullptr));
  REQUIRE(r.ok());
  return std::move(*r);
}

/// The inputs of a chain run.
inline runtime::RunInputs chain_inputs(const runtime::LogicalTensor& stream,
                                       const runtime::LogicalTensor& trf) {
  return {{"stream", &stream}, {"trf", &trf}};
}

} // namespace tujit::testing
