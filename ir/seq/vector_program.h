// The Sequencer IR of one Vector Engine pass (furiosa-opt docs/src/computing-tensors/vector-engine/
// intra-slice-chain.md): the calls of a verified `vector_init … vector_final` chain, executed on
// the stream that enters it. Both engines run it: the interpreter (runtime/interp/vector_exec.h)
// and the JIT (codegen/vector_jit.h). Per slice, the stream is |Time| packets of |Packet| 32-bit
// elements, a flat sequence of positions; the calls act on it as
//
//   value calls     every position's value becomes op(value) (ve_scalar.h numerics)
//   narrow_split,   the flat order is unchanged: only Time / Packet are restated
//   widen_concat
//   narrow_trim     Way8 → Way4: position n of the result is position (n / 4)·8 + n mod 4
//   widen_pad       Way4 → Way8: position n is position (n / 8)·4 + n mod 8 when n mod 8 < 4,
//                   else a new lane of top padding (the poison pattern, Top)
//
// so an output position is either an input position run through every value call, or a padding
// lane made by the k-th call run through the value calls after it. Cell states: a value call
// keeps Live and Top; a zero-padding cell stays Zero only while its value is ±0.
//
// Images: in [spatial][in_time][in_packet] (the collected stream, or a contraction's output), out
// [spatial][out_time][out_packet] (what vector_final hands on: a to_vrf at the Vector Engine's
// write port, docs/vector-engine.md).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/types/vector_op.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::ir::seq {

struct VectorStepIR {
  VectorCall call;
  ScalarType dtype = ScalarType::F32; // the stream's scalar entering the call
};

struct VectorProgram {
  std::string kernel_name;
  TensorType input;  // the stream vector_init reads
  TensorType output; // the VectorFinal stream
  /// The calls after vector_init up to and including vector_final, in order.
  std::vector<VectorStepIR> steps;

  ScalarType in_type = ScalarType::F32, out_type = ScalarType::F32;
  std::uint64_t spatial = 1;
  std::uint64_t in_time = 1, in_packet = 8;
  std::uint64_t out_time = 1, out_packet = 8;

  std::uint64_t in_cells() const { return in_time * in_packet; }
  std::uint64_t out_cells() const { return out_time * out_packet; }
};

/// Where an output position's value comes from (per slice).
struct VectorSource {
  bool pad = false;         // a padding lane made by a widen_pad
  std::uint64_t input = 0;  // !pad: the input position
  std::size_t first_op = 0; // the first step whose value call applies (0 for an input position)
};

/// The output position `n` (0 ≤ n < out_cells) traced back through the layout calls.
VectorSource vector_source(const VectorProgram& p, std::uint64_t n);

/// Lowers the verified chain ending at the vector_final stage `final_index`. E-RUN-101 when the
/// stage is not a vector_final of a vector_init chain.
Result<VectorProgram> lower_vector(const Kernel& kernel, std::size_t final_index);

/// Every Vector Engine pass of the kernel (one per vector_final), in stage order.
Result<std::vector<VectorProgram>> lower_vectors(const Kernel& kernel);

/// `tujit compile --emit seq` text.
std::string to_text(const VectorProgram& p);

/// Stable hash of everything the generated code depends on (the JIT cache key).
std::uint64_t fingerprint(const VectorProgram& p);

} // namespace tujit::ir::seq
