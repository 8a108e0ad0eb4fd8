// Layouts: which logical element (or which padding) every cell of a tensor type's device image
// (runtime/device/device_image.h) holds, as the type's mappings say
// (docs/mapping.md §2–§3: map each slot's position, combine major → minor, finalize):
//
//   image dimension | slots (major → minor)
//   spatial         | Chip, Cluster, Slice                    (every kind; absent slots = 1)
//   outer           | Begin/Fetch/Collect/Contract: Time;  Trf: Lane;
//                   | ContractOuter/Packet/Time: Lane, Time;  Vrf/Dm/Hbm: none (size 1)
//   inner           | streams: Packet;  Trf/Vrf/Dm/Hbm: Element
//
// A cell's Cell is combine(combine(…combine(Chip, Cluster)…, Lane/Time), Packet/Element), so the
// most major padding wins (docs/mapping.md §2 combine): a live cell holds a logical element, a
// `#{0}` cell is Zero, a `#` cell Top, a `#{!}` cell Bottom (docs/design.md §5.4).
#pragma once

#include "ir/lang/types.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::runtime {

/// The slots of one image dimension, major → minor.
struct LayoutDim {
  std::vector<ir::Slot> slots;
  std::vector<ir::Mapping> mappings;
  std::uint64_t size = 1; // product of the mapping sizes
};

struct LayoutPlan {
  LayoutDim spatial, outer, inner;
  /// "Chip 0, Cluster 1, Slice 3, Time 5, Packet 2" for one cell (diagnostics).
  std::string position_text(std::uint64_t s, std::uint64_t o, std::uint64_t i) const;
};

/// The slot assignment of the table above, or E-RUN-003 if a dimension's size overflows.
Result<LayoutPlan> layout_plan(const ir::TensorType& type);

/// What every cell of a layout holds: the logical element's row-major offset (state Live) or
/// a padding state; offset is 0 for padding cells. Index = DeviceImage::index(s, o, i).
struct LayoutCells {
  LayoutPlan plan;
  std::vector<std::uint64_t> offset;
  std::vector<CellState> state;
};

/// The coordinates over `axes` of the logical element at row-major offset `off` (the offsets
/// LayoutCells holds): c[a] for every axis, the last axis varying fastest. `c` has axes.size()
/// entries.
void row_major_coordinates(std::uint64_t off, const std::vector<ir::Axis>& axes,
                           std::vector<std::uint64_t>& c);

/// Evaluates the mappings against the logical axes `axes` (their sizes bound the coordinates).
/// Diagnostics: E-RUN-002 when a mapping names an axis missing from `axes`, or a live cell
/// overshoots an axis (docs/mapping.md §2 finalize); E-RUN-001 when the image exceeds `max_cells`.
Result<LayoutCells> layout_cells(const ir::TensorType& type, const std::vector<ir::Axis>& axes,
                                 std::uint64_t max_cells = kDefaultMaxElements);

/// The logical tensor as the device sees it when `type` holds only some coordinates of some axes
/// (runtime/layout/held_readback.h: the first r, or every s-th): e.g. a TRF with `V % 16` in Slice
/// and no `V / 16` anywhere serves V and V + 16 with the same weights; a DM tensor with `J / 32`
/// in Slice and no `J % 32` serves every J of a block of 32 with the element at its first. Element
/// c of the result is t[s·((c / s) mod k)] per axis (s = stride, k = count of held coordinates).
/// E-RUN-006 when the held coordinates are not such a product (the oracle is then not
/// applicable). Equal to `t` when the layout covers the tensor.
Result<LogicalTensor> device_view(const LogicalTensor& t, const ir::TensorType& type,
                                  std::uint64_t max_cells = kDefaultMaxElements);

} // namespace tujit::runtime
