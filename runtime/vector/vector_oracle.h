// The float64 oracle of a Vector Engine pass (`tujit run --verify`): each element of the stream is
// run through the chain's value calls in float64 (std:: double functions, integers exactly in
// int64), independently of runtime/vector/ve_scalar.h, and compared with what the engines
// computed. A chain whose float calls are all single correctly rounded IEEE operations (Sqrt, AddF,
// SubF, MulF, DivF: rounding the float64 result once is correct rounding) must match bit for bit;
// otherwise within the tolerance of OracleTolerance.
#pragma once

#include "ir/seq/vector_program.h"

#include <cstdint>
#include <span>
#include <string>

namespace tujit::runtime::vector {

/// The chain's value calls on one input element, in float64 (an i32 stream's values are exact);
/// `vrf` holds the element's `&vrf` operands (their bits) in call order.
double oracle_chain(const ir::seq::VectorProgram& p, std::uint32_t input_bits,
                    std::span<const std::uint32_t> vrf = {});
/// Pair mode (docs/vector-engine.md §3.5): the chain on the two groups' elements of one output
/// coordinate (the grouping axis at 0 and at 1).
double oracle_pair_chain(const ir::seq::VectorProgram& p, std::uint32_t group0_bits,
                         std::uint32_t group1_bits, std::span<const std::uint32_t> vrf = {});
/// The same from the input's value (a contraction's float64 sum, docs/vector-engine.md §8).
double oracle_chain_value(const ir::seq::VectorProgram& p, double input,
                          std::span<const std::uint32_t> vrf = {});

struct OracleCheck {
  bool ok = true;
  double abs_err = 0; // |actual − expected| (0 when both are the same NaN / infinity)
};

/// `actual` (the engines' bits of p.out_type) against `expected` (oracle_chain): bit-exact for
/// chains of correctly rounded IEEE operations only; else within max(1 ulp, 2⁻¹⁶·|expected|) per
/// float call for f32 outputs (the engines round every step to binary32, the oracle never does),
/// and ±1 for an i32 result that went through a float call.
OracleCheck oracle_compare(const ir::seq::VectorProgram& p, double expected, std::uint32_t actual);

/// The absolute error oracle_compare allows the engines' value of p.out_type around `expected`: 0
/// when it is bit-exact (the engines' value is then `expected` rounded once to the output's
/// scalar), else its tolerance (docs/vector-engine.md §8).
double oracle_tolerance(const ir::seq::VectorProgram& p, double expected);

/// "bit-exact" or the tolerance, for reports.
std::string oracle_tolerance_text(const ir::seq::VectorProgram& p);

} // namespace tujit::runtime::vector
