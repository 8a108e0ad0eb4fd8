// Internals shared by the factor-form sources (factor.cpp, normalize.cpp, split.cpp, resize.cpp,
// eval.cpp, leaves.cpp) and usable by divide.cpp: extents, list slicing, number theory.
// Not part of the public mapping API.
#pragma once

#include "ir/mapping/factor.h"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

namespace tujit::ir::detail {

/// ext[j] = E_before(j) for j in [0, size], so ext[size] = SIZE (docs/mapping.md §4.1).
std::vector<std::uint64_t> cumulative_extents(const FactorList& l);

/// The factors [first, last) as a list (not normalized).
FactorList slice(const FactorList& l, std::size_t first, std::size_t last);

/// Appends `tail` to `head` (no normalization).
FactorList concat(FactorList head, const FactorList& tail);

/// Every Pad total of `l` multiplied (scale_pads) or divided (divide_pads) by `k`.
FactorList scale_pads(FactorList l, std::uint64_t k);
FactorList divide_pads(FactorList l, std::uint64_t k);

inline std::uint64_t gcd(std::uint64_t a, std::uint64_t b) {
  return std::gcd(a, b);
}

/// The smallest divisor of `m` (m >= 1) that is >= `lower`, if any. Exact for every u64 (it
/// factors `m` by Pollard's rho), so no search is bounded by the size of the numbers.
std::optional<std::uint64_t> smallest_divisor_at_least(std::uint64_t m, std::uint64_t lower);

/// Axis names referenced by `l`, its composite atoms included, in ascending byte order.
std::vector<Axis> referenced_axes(const FactorList& l);

/// Records a bug: a bounded loop hit its bound, or an internal invariant failed (see
/// factor_internal_errors()).
void note_internal_error();

/// Diagnostics of the factor algebra (stage "type": they surface as static-validity errors).
Diagnostic not_divisible(std::string_view what, std::uint64_t size, std::uint64_t n);

} // namespace tujit::ir::detail
