// The coordinates a view holds, per axis. A kernel that computes one tile of a larger problem
// holds only part of an axis (specs/derived/forward__lm_head.rs holds Wp < 8192 of
// Wp = 155,648), one that keeps a partial sum per slice holds every s-th coordinate
// (weighted_sum.rs keeps T / 16 in its Slice). The output is read back over exactly the held
// coordinates (docs/cli.md "Outputs"), and random inputs are generated over the smallest prefix of
// each axis that any tensor of the run holds:
//   every coordinate      → the axis itself
//   the first r           → the axis with size r (the tile [0, r))
//   every s-th, k of them → an axis named "T / 16" (or "T / 16 % k") of size k
// Any other pattern is E-RUN-005. Computed from the view's dimensions (the held coordinates of an
// axis are the sums of what each dimension's live positions hold), never from the image.
#pragma once

#include "ir/seq/address_stream.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tujit::ir::seq {

/// One axis of the held tensor: `axis` (possibly renamed / resized) holds the source axis's
/// coordinates c = stride · i for i < axis.size.
struct HeldAxis {
  Axis source;
  Axis axis;
  std::uint64_t stride = 1;
  bool whole() const { return axis == source; }
  /// The prefix [0, e) of the source axis that holds every held coordinate.
  std::uint64_t extent() const;
};

/// The held axis of `ax` from the coordinates live cells reach (`reached[c]`): all of the axis,
/// its first r coordinates, or every s-th one from 0; E-RUN-005 for anything else. `what` names
/// the tensor in diagnostics.
Result<HeldAxis> held_axis(const Axis& ax, const std::vector<bool>& reached,
                           const std::string& what);

/// The held axes of a view (in the order of v.axes). `what` names the tensor in diagnostics.
Result<std::vector<HeldAxis>> held_axes(const ViewCoordinates& v, const std::string& what);

/// The same held axes from the type's mappings, without evaluating its dimensions position by
/// position: the live coordinates of a dimension are the sums of one live coordinate per slot (a
/// position is live when every slot's is), so each slot's mapping is evaluated alone. Same
/// diagnostics as view_coordinates (E-RUN-001/002/003) then held_axes.
Result<std::vector<HeldAxis>> held_axes(const TensorType& type, const std::vector<Axis>& axes,
                                        std::uint64_t max_positions);

/// The held axes as the axes of a logical tensor, and the divisors of its streams.
std::vector<Axis> held_tensor_axes(const std::vector<HeldAxis>& held);
std::vector<std::uint64_t> held_strides(const std::vector<HeldAxis>& held);

/// How the live cells of a view cover the logical tensor its streams address: elements no live
/// cell holds, and elements two or more live cells hold. `slices`: the spatial positions counted
/// (null: every one); a position whose spatial state is not live holds nothing.
struct StreamCoverage {
  std::uint64_t unreached = 0;
  std::uint64_t first_unreached = 0; // offset
  std::uint64_t duplicated = 0;      // live cells beyond the first at an element
};
StreamCoverage stream_coverage(const TensorStreams& s, std::uint64_t elements,
                               const std::vector<std::uint64_t>* slices = nullptr);

/// The size N when the cells of a slice are exactly the offsets [0, N) of its base, each once:
/// affine loops whose strides, sorted, go 1, size₀, size₀·size₁, … (a mixed radix).
std::optional<std::uint64_t> dense_block(const CellStreams& c);

/// The closed form: when every slice's cells are the offsets [0, N) of its base, each once (affine
/// loops of a mixed radix), and the counted slices' blocks neither overlap nor leave the tensor,
/// the coverage from the sorted bases alone; nullopt otherwise.
std::optional<StreamCoverage> block_coverage(const TensorStreams& s, std::uint64_t elements,
                                             const std::vector<std::uint64_t>* slices = nullptr);

/// The general form: every live cell walked, with one byte per element of the tensor.
StreamCoverage walked_coverage(const TensorStreams& s, std::uint64_t elements,
                               const std::vector<std::uint64_t>* slices = nullptr);

} // namespace tujit::ir::seq
