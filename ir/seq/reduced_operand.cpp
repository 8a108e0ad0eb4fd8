// The terms of the inter-slice reducer (docs/vector-engine.md §3.7): a view of the logical tensor
// the stream entering the pass holds, through the reducer's output type, at fixed coordinates of
// the reduced axes. Output slice s of a reduction group reads other slices' elements, so the view
// is taken of the tensor, as the Switch Engine's is (operand_streams.h switched_operand), once the
// entering stream is checked to hold every element at its own coordinates.
#include "ir/seq/operand_streams.h"
#include "ir/seq/view_streams.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::ir::seq {

namespace {

/// The table with every live offset moved by `delta`.
AddressTable shifted(const AddressTable& t, std::uint64_t delta) {
  if (t.is_affine()) return AddressTable::affine(t.base() + delta, t.loops());
  return AddressTable::from_function(t.size(), [&](std::uint64_t p) {
    CellAddress c = t.at(p);
    if (c.state == CellState::Live) c.offset += delta;
    return c;
  });
}

} // namespace

Result<OperandStreams> gathered_operand(const TensorType& init, const TensorType& final,
                                        const OperandStreams& source, const Index& fixed,
                                        const AxisTable& table) {
  const TensorStreams& src = source.streams;
  std::vector<Axis> axes;
  for (const Axis& a : src.axes) {
    const Axis* declared = table.find(a.name);
    axes.push_back(declared != nullptr ? *declared : a);
  }
  // The entering stream holds each element at its coordinates: it is its tensor's view through
  // the type vector_init reads.
  auto held = view_streams(src.tensor, init, axes, src.axes, kMaxStreamPositions);
  if (!held) return std::move(held).take_diagnostics();
  if (held->spatial.size() != src.spatial.size() ||
      !(held->cells.outer_size == src.cells.outer_size) ||
      held->cells.inner_size != src.cells.inner_size)
    return run_error("E-RUN-102", "internal: the inter-slice reducer reads a stream of another "
                                  "shape than its input type's");
  for (std::uint64_t s = 0; s < src.spatial.size(); ++s)
    for (std::uint64_t o = 0; o < src.cells.outer_size; ++o)
      for (std::uint64_t i = 0; i < src.cells.inner_size; ++i) {
        const CellAddress want = held->at(s, o, i);
        if (want.state != CellState::Live) continue;
        const CellAddress got = src.at(s, o, i);
        if (got.state == CellState::Live && got.offset == want.offset) continue;
        return run_error("E-RUN-110",
                         fmt::format("tujit run: slice {}, time {}, packet {} of the stream "
                                     "entering the inter-slice reducer holds another element "
                                     "than its coordinates name; tujit runs the reducer on a "
                                     "stream that holds its tensor in place "
                                     "(docs/vector-engine.md §3.7)",
                                     s, o, i));
      }
  // The output type over the source's tensor: an axis it lacks is a broadcast (a fresh Slice2
  // axis), a reduced axis is at `fixed`.
  std::vector<std::string> fresh;
  for (const Axis& a : type_axes(final, table))
    if (std::none_of(src.axes.begin(), src.axes.end(),
                     [&](const Axis& b) { return b.name == a.name; }))
      fresh.push_back(a.name);
  TensorType view = final;
  for (std::size_t k = 0; k < kSlotCount && !fresh.empty(); ++k) {
    if (!view.slots[k]) continue;
    auto m = broadcast_axes(view.slots[k]->mapping, fresh);
    if (!m) return std::move(m).take_diagnostics();
    view.slots[k]->mapping = std::move(*m);
  }
  auto out = view_streams(src.tensor, view, axes, src.axes, kMaxStreamPositions);
  if (!out) return std::move(out).take_diagnostics();
  const std::vector<std::uint64_t> strides = row_major_strides(src.axes);
  std::uint64_t delta = 0;
  for (const auto& [axis, v] : fixed)
    for (std::size_t k = 0; k < src.axes.size(); ++k)
      if (src.axes[k].name == axis) delta += v * strides[k];
  out->spatial = shifted(out->spatial, delta);
  out->dtype = src.dtype;
  OperandStreams o = source;
  o.streams = std::move(*out);
  return o;
}

} // namespace tujit::ir::seq
