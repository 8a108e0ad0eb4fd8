// Generated whole kernels with a Vector Engine pass (docs/vector-engine.md §2, §3): an i32 or f32
// HbmTensor moved into DM, fetched and collected, one intra-slice pass in the chain's fixed stage
// order (Tag → Logic → Fxp → FxpToFp → Narrow → Fp → FpDiv → Widen → FpToFxp → Clip), committed
// and returned to HBM. Each stage is present or not, each op drawn from every variant tujit
// simulates, with constants at the scalar's edges and every argument mode. Which ALU an op takes
// is the verifier's fact, not the generator's: a draw that uses an ALU twice (E-VE-005) is
// refused by the checker and redrawn by the caller.
#pragma once

#include <cstdint>
#include <random>
#include <set>
#include <string>

namespace tujit::testing {

struct VectorKernel {
  std::string text;
  bool f32_input = false;  // the HbmTensor parameter `input` holds f32 (else i32)
  bool f32_output = false; // the returned tensor's scalar
  /// What the pass exercises: an op family ("fxp", "fp_unary", "fp_ternary", …), an op variant
  /// ("fxp:MulFxp"), an argument mode ("mode:Mode10", "ternary:Mode120").
  std::set<std::string> features;
  /// Calls with a binary32 result (FxpToFp, the Fp stage, the divider, an f32 clip): with at most
  /// one, the float64 oracle bounds the output (docs/vector-engine.md §8).
  int float_calls = 0;
};

/// The kernel's axes: `input` is [S, A] = [kVectorGenSlices, kVectorGenElements], in declaration
/// order.
inline constexpr std::uint64_t kVectorGenSlices = 4, kVectorGenElements = 64;

/// A kernel drawn from `rng`; its ternary FMA, when it has one, takes argument mode `index mod 7`
/// (the caller counts the FMAs drawn, so seven of them take every mode).
VectorKernel generate_vector_kernel(std::mt19937_64& rng, std::size_t index);

} // namespace tujit::testing
