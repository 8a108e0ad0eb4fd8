// The float64 oracle of a Vector Engine pass with an intra-slice reduce (`tujit run --verify`,
// docs/vector-engine.md §3.6, §8): the terms of one output element, read by coordinates, each run
// through the calls before the reduce in float64, then reduced by a bound that holds for every
// order the hardware could combine them in (tujit's order, docs/vector-engine.md §3.6, is one of
// them), then the calls after it. Max and Min are exact whatever the order; an i32 AddSat is exact
// when no partial sum of any order can saturate; an f32 Add lies within (n − 1)·u / (1 − (n − 1)·u)
// of Σ|term| of the exact sum (u = 2⁻²⁴, n terms: the recursive-summation bound).
#pragma once

#include "ir/seq/vector_program.h"
#include "runtime/vector/vector_oracle.h"

#include <cstdint>
#include <span>

namespace tujit::runtime::vector {

/// The engines' output element `actual` (bits of p.out_type) of a pass whose reduce combines the
/// input elements `terms` (bits of p.in_type, in any order); `vrf` holds the `&vrf` operands of the
/// calls after the reduce (their bits, in call order).
OracleCheck oracle_reduce_check(const ir::seq::VectorProgram& p,
                                std::span<const std::uint32_t> terms,
                                std::span<const std::uint32_t> vrf, std::uint32_t actual);

/// Whether the pass reduces (an IntraSliceReduce step).
bool has_reduce(const ir::seq::VectorProgram& p);

/// The reduce's tolerance, for reports.
std::string oracle_reduce_tolerance_text(const ir::seq::VectorProgram& p);

} // namespace tujit::runtime::vector
