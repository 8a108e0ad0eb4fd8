// The address streams of a tensor type's view into a logical tensor, from the factors of its
// mappings instead of from every position of its dimensions. A view dimension is the product of
// its slots' mappings, and each mapping splits at its pairs (`major, minor`) into factors: a
// position is the mixed-radix number of one position per factor (major first), its coordinates
// the sum of theirs and its state the most major non-live factor's (docs/mapping.md §2 combine,
// §3). So every factor is evaluated alone over its own positions (a Time mapping `M, K / 16` of
// 65,536 positions is 4,096 + 16 of them), a dimension whose factors are all affine is affine with
// their loops, innermost first, and only a dimension with padding is expanded position by
// position — from its factors' addresses, without coordinates.
#pragma once

#include "ir/seq/address_stream.h"

#include <optional>

namespace tujit::ir::seq {

/// tensor_streams(tensor, dtype, view_coordinates(type, axes, max_positions), tensor_axes), the
/// same streams field for field, computed from the factors (the file comment). nullopt where the
/// general walk decides: a dimension of no or too many positions, a live coordinate on an axis
/// outside `axes`, a view that overshoots an axis, pads an axis as a whole across dimensions or
/// reaches outside the tensor (the general walk's diagnostics, or its per-slice table).
std::optional<TensorStreams> factored_streams(const std::string& tensor, const TensorType& type,
                                              const std::vector<Axis>& axes,
                                              const std::vector<Axis>& tensor_axes,
                                              std::uint64_t max_positions);

/// factored_streams, else the general walk (view_coordinates, then tensor_streams).
Result<TensorStreams> view_streams(const std::string& tensor, const TensorType& type,
                                   const std::vector<Axis>& axes,
                                   const std::vector<Axis>& tensor_axes,
                                   std::uint64_t max_positions);

} // namespace tujit::ir::seq
