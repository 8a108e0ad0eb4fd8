// Layouts: a logical tensor ⇄ its device image (runtime/device/device_image.h). A tensor type's
// mappings say which logical element (or which padding) every device cell holds
// (docs/mapping.md §2–§3: map each slot's position, combine major → minor, finalize):
//
//   image dimension | slots (major → minor)
//   spatial         | Chip, Cluster, Slice                    (every kind; absent slots = 1)
//   outer           | Begin/Fetch/Collect/Contract: Time;  Trf: Lane;
//                   | ContractOuter/Packet/Time: Lane, Time;  Vrf/Dm/Hbm: none (size 1)
//   inner           | streams: Packet;  Trf/Vrf/Dm/Hbm: Element
//
// A cell's Cell is combine(combine(…combine(Chip, Cluster)…, Lane/Time), Packet/Element), so the
// most major padding wins (docs/mapping.md §2 combine). Live cells copy the element's bits; `#{0}`
// cells hold 0 (CellState::Zero), `#` cells the poison bits (Top), `#{!}` cells nothing (Bottom)
// — the rule of docs/design.md §5.4 "Top padding is filled with a poison value; zero padding with
// zero; bottom padding is never touched".
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

/// Evaluates the mappings against the logical axes `axes` (their sizes bound the coordinates).
/// Diagnostics: E-RUN-002 when a mapping names an axis missing from `axes`, or a live cell
/// overshoots an axis (docs/mapping.md §2 finalize); E-RUN-001 when the image exceeds `max_cells`.
Result<LayoutCells> layout_cells(const ir::TensorType& type, const std::vector<ir::Axis>& axes,
                                 std::uint64_t max_cells = kDefaultMaxElements);

/// The device image of a logical tensor laid out by `type` (dtype = the tensor's dtype, which
/// must equal type.dtype, else E-RUN-004).
Result<DeviceImage> to_device(const LogicalTensor& t, const ir::TensorType& type,
                              std::uint64_t max_cells = kDefaultMaxElements);

/// Reads an output image back (ContractTensor: Time = T3, Packet = P3; TrfTensor / VrfTensor for
/// store kernels). Every logical element of the tensor over tensor_axes(type) must be held by
/// at least one live cell, and cells holding the same element must hold identical bits; else
/// E-RUN-005 naming the coordinate (and the cells). Image shape / dtype mismatch: E-RUN-004.
/// The cell states of the image are not consulted (poison is the engine's report).
Result<LogicalTensor> from_device(const DeviceImage& image, const ir::TensorType& type,
                                  const ir::AxisTable& table,
                                  std::uint64_t max_cells = kDefaultMaxElements);

/// Elements of the logical tensor over `axes` that no live cell of `type` holds (0 when the
/// layout covers the tensor), and the first such coordinate. Used by from_device and by the
/// oracle's applicability check (a mapping holding only some digits of an axis).
struct LayoutCoverage {
  std::uint64_t unreached = 0;
  std::string first_unreached; // "M=1, N=0"
};
Result<LayoutCoverage> layout_coverage(const ir::TensorType& type,
                                       const std::vector<ir::Axis>& axes,
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
