// Address streams: where the cells of a device view live in a logical tensor. Every operand an
// engine reads and every output it writes is described by them, so the engines walk the logical
// tensors (numpy order) directly and no padded device image is ever built (docs/design.md "No
// device images"). A device view is [spatial][outer][inner] per tensor kind (layout_dims below);
// one cell (s, o, i) of a view holds
//
//   logical offset  spatial.offset(s) + cells.offset(o, i)
//   state           combine(spatial.state(s), cells.state(o, i))     (docs/mapping.md §2 combine)
//
// where `spatial` and the per-slice `cells` are AddressTables: per position, an offset into the
// logical tensor and a CellState. A table is stored in the cheapest exact form: affine loops
// (`[size : stride]`, every position live) or explicit offsets and states. Per-slice cells are
// separable (outer ⊕ inner, two small tables) unless a data-path chain (fetch, collect, store)
// reorders them across both dimensions; then one table covers a slice's cells. Tables are
// proportional to one dimension (or one slice), never to the whole padded image.
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/map_table.h"
#include "ir/mapping/mapping.h"
#include "ir/seq/fnv1a.h"
#include "ir/support/diagnostic.h"
#include "ir/types/cell_state.h"
#include "ir/types/scalar_type.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::seq {

/// One loop of an affine address stream, innermost first: `size` positions, each advancing the
/// logical offset by `stride` elements (0 = broadcast; negative for a reversed order).
struct AddressLoop {
  std::uint64_t size = 1;
  std::int64_t stride = 0;
  friend bool operator==(const AddressLoop&, const AddressLoop&) = default;
};

/// An address and its state, the value of one position of a stream.
struct CellAddress {
  std::uint64_t offset = 0; // meaningful for Live cells only (0 otherwise)
  CellState state = CellState::Live;
};

/// The address stream of one dimension: position → CellAddress.
class AddressTable {
public:
  /// One live position at offset 0.
  AddressTable() = default;
  /// Every position live: offset(p) = base + Σ digit·stride over `loops` (innermost first).
  static AddressTable affine(std::uint64_t base, std::vector<AddressLoop> loops);
  /// Explicit positions; stored as affine loops when they are exactly that.
  static AddressTable explicit_cells(std::vector<CellAddress> cells);
  /// `size` positions computed by `f`.
  static AddressTable from_function(std::uint64_t size,
                                    const std::function<CellAddress(std::uint64_t)>& f);

  std::uint64_t size() const { return size_; }
  bool is_affine() const { return explicit_.empty() && size_ > 0; }
  std::uint64_t base() const { return base_; }
  const std::vector<AddressLoop>& loops() const { return loops_; }
  CellAddress at(std::uint64_t p) const;
  std::uint64_t offset(std::uint64_t p) const { return at(p).offset; }
  CellState state(std::uint64_t p) const { return at(p).state; }
  bool all_live() const { return all_live_; }
  bool any(CellState s) const;
  std::uint64_t live_count() const;
  /// Largest offset of a live position (0 when none is live).
  std::uint64_t max_offset() const;
  /// The explicit form (empty when affine).
  const std::vector<CellAddress>& cells() const { return explicit_; }

  friend bool operator==(const AddressTable& a, const AddressTable& b);
  /// `[4 : 256, 16 : 1] + 0` or `table of 512 (32 live)`.
  std::string text() const;
  /// Adds the table to a program fingerprint.
  void hash(Fnv1a& h) const;

private:
  std::uint64_t size_ = 1;
  std::uint64_t base_ = 0;
  std::vector<AddressLoop> loops_;    // affine form
  std::vector<CellAddress> explicit_; // explicit form (size_ entries)
  bool all_live_ = true;
};

/// The cells of one slice of a view, [outer][inner].
struct CellStreams {
  std::uint64_t outer_size = 1, inner_size = 1;
  /// Separable: cell (o, i) = outer(o) ⊕ inner(i), state = combine(outer state, inner state).
  bool separable = true;
  AddressTable outer, inner;
  /// Not separable: one table of outer_size·inner_size cells, row-major.
  AddressTable full;

  CellAddress at(std::uint64_t o, std::uint64_t i) const;
  bool all_live() const;
  bool any(CellState s) const;
  friend bool operator==(const CellStreams&, const CellStreams&) = default;

  /// Separable streams from `f` when f(o, i) is exactly outer(o) ⊕ inner(i) for every cell (checked
  /// cell by cell, O(1) memory), else one table.
  static CellStreams
  from_function(std::uint64_t outer, std::uint64_t inner,
                const std::function<CellAddress(std::uint64_t, std::uint64_t)>& f);
};

/// The element count of a logical tensor of `axes`, and its row-major strides (the last axis
/// contiguous): the offsets every address stream holds.
std::uint64_t element_count(const std::vector<Axis>& axes);
std::vector<std::uint64_t> row_major_strides(const std::vector<Axis>& axes);

/// What a run reads or writes through a view: the logical tensor (a kernel parameter, or the
/// output) and the address streams into it. Offsets are row-major over `axes` (their sizes are
/// the tensor's shape, which may be larger than the part the view reaches).
struct TensorStreams {
  std::string tensor;                  // parameter name, or "output"
  ScalarType dtype = ScalarType::BF16; // the logical tensor's element type
  std::vector<Axis> axes;
  AddressTable spatial; // [|Chip|·|Cluster|·|Slice|], chip-major
  CellStreams cells;

  CellAddress at(std::uint64_t s, std::uint64_t o, std::uint64_t i) const;
  friend bool operator==(const TensorStreams&, const TensorStreams&) = default;
  std::string text() const;
};

/// The Fetch Adapter between a DM tensor and the stream (docs/datapath.md §6): the elements an
/// engine reads are converted on the way, by the table lookup, the cast and the zero-point
/// subtraction in that order (runtime::fetch_adapter_bits). Identity when all are empty.
struct FetchAdapter {
  std::optional<ScalarType> lookup_to;
  std::optional<ScalarType> cast_to;
  std::optional<std::int64_t> zero_point;
  bool identity() const { return !lookup_to && !cast_to && !zero_point; }
  friend bool operator==(const FetchAdapter&, const FetchAdapter&) = default;
};

/// An operand as an engine reads it: streams into its logical tensor, the adapter applied to each
/// element read, and the type the consumer sees.
struct OperandStreams {
  TensorStreams streams;
  FetchAdapter adapter;
  ScalarType type = ScalarType::BF16; // after the adapter
  friend bool operator==(const OperandStreams&, const OperandStreams&) = default;
};

// ---------------------------------------------------------------------------------------------
// From tensor types
// ---------------------------------------------------------------------------------------------

/// The slots of each view dimension of a tensor kind, major → minor:
///   spatial: Chip, Cluster, Slice (every kind)
///   outer:   Begin/Fetch/Collect/Contract/Vector/VectorFinal/Stream: Time; Trf: Lane;
///            ContractOuter/Packet/Time: Lane, Time; Vrf/Dm/Hbm/Mem: none
///   inner:   streams: Packet; Trf/Vrf/Dm/Hbm/Mem: Element
struct ViewDims {
  std::vector<Slot> spatial, outer, inner;
};
ViewDims view_dims(TensorKind kind);

/// One view dimension of a type, evaluated: per position its state and logical coordinates (one
/// per axis of `axes`, in order). Size = the product of its slots' mapping sizes.
struct DimCoordinates {
  std::uint64_t size = 1;
  std::size_t axes = 0;
  std::vector<CellState> state;
  std::vector<std::uint64_t> coord; // [size][axes]
  const std::uint64_t* at(std::uint64_t p) const { return coord.data() + p * axes; }
};

/// The positions of one view dimension, the product of its slots' mapping sizes: E-RUN-003 when
/// that overflows, E-RUN-001 when it exceeds `max_positions`.
Result<std::uint64_t> dimension_size(const TensorType& type, const std::vector<Slot>& slots,
                                     std::uint64_t max_positions);

/// E-RUN-002: a slot's mapping `m` holds a coordinate on `axis`, which the logical tensor lacks.
Diagnostic slot_axis_error(Slot slot, const Mapping& m, const std::string& axis);

/// E-RUN-002 when position `p` of a slot's table (map_table over the first `na` columns, the
/// logical tensor's axes) holds a coordinate on an axis outside the logical tensor.
Status check_slot_axes(const MappedTable& t, std::uint64_t p, std::size_t na, Slot slot,
                       const Mapping& m);

/// One dimension of a view from its slots' mappings, major first, `size` their product: per
/// position the state and, when live, the coordinate on each of `axes` (each mapping evaluated
/// once per position, docs/mapping.md §3, the most major padding winning, §2 combine); dead
/// positions have zero coordinates. E-RUN-002 when a mapping names an axis outside `axes`.
Result<DimCoordinates> slot_coordinates(const std::vector<Slot>& slots,
                                        const std::vector<Mapping>& mappings, std::uint64_t size,
                                        const std::vector<Axis>& axes);

struct ViewCoordinates {
  std::vector<Axis> axes;
  DimCoordinates spatial, outer, inner;
  /// Per axis, the extent a mapping pads the whole axis to (`K #{0} 64`: 64) and that padding's
  /// state; 0 where no mapping pads the axis as a whole. A sum of digits of one padded axis past
  /// the axis's size lands in that padding (docs/mapping.md §2: a composite is decoded after its
  /// digits are summed), not an overshoot.
  std::vector<std::uint64_t> padded_extent;
  std::vector<CellState> padded_state;
};

/// E-RUN-002 when a mapping names an axis not in `axes`; E-RUN-001 when a dimension has more than
/// `max_positions` positions; E-RUN-003 when its size overflows.
Result<ViewCoordinates> view_coordinates(const TensorType& type, const std::vector<Axis>& axes,
                                         std::uint64_t max_positions);

/// Per axis, the largest coordinate + 1 that a live cell of the view reaches (0 if none is live),
/// assuming no overshoot.
std::vector<std::uint64_t> reached_extent(const ViewCoordinates& v);

/// Streams of a view into a logical tensor over `tensor_axes` (one per axis of `coords.axes`, in
/// the same order; a size may exceed what the view reaches, a name may differ for a partly held
/// axis): the element with coordinates c is at Σ (c_a / divide_a)·stride_a, row-major over
/// `tensor_axes` (divide = 1 unless the tensor holds every divide_a-th coordinate of an axis, the
/// readback of partial outputs). E-RUN-002 when a live cell overshoots an axis (its coordinate is
/// not below the axis size in `coords.axes`; since the dimensions are independent, that happens
/// exactly when the largest live coordinates of the three dimensions sum past it); E-RUN-005 when
/// a reached coordinate lies outside the tensor or is not a multiple of its divide.
Result<TensorStreams> tensor_streams(const std::string& tensor, ScalarType dtype,
                                     const ViewCoordinates& coords,
                                     const std::vector<Axis>& tensor_axes,
                                     const std::vector<std::uint64_t>& divide = {});

} // namespace tujit::ir::seq
