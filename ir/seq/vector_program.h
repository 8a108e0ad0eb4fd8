// The value calls of one Vector Engine pass (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md), as a run program
// applies them (ir/seq/run_program.h, docs/vector-engine.md §4). The calls of a verified
// `vector_init … vector_final` chain act on the stream in two ways:
//
//   value calls     every element's value becomes op(value) (runtime/vector/ve_scalar.h numerics)
//   layout calls    narrow_split / widen_concat restate Time and Packet, narrow_trim drops the
//                   back half of each packet (top padding), widen_pad adds one: no element changes
//                   its coordinates
//
// so the pass is an elementwise map of each live element with its coordinates kept: the layout
// calls are address streams (ir/seq/operand_streams.h passed_operand), the value calls this
// program, applied by both engines to every live element they move.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/types/vector_op.h"

#include <concepts>
#include <string>
#include <type_traits>
#include <vector>

namespace tujit::ir::seq {

/// The most terms a reduce combines per output element in a run: each is one operand stream of
/// the output's cells (RunProgram::vrf_operands) and, in the JIT, one unrolled load.
inline constexpr std::size_t kMaxReduceTerms = 1024;

struct VectorStepIR {
  VectorCall call;
  ScalarType dtype = ScalarType::F32; // the stream's scalar entering the call
};

struct VectorProgram {
  /// The value calls of the chain, in order (layout calls, vector_init and vector_final left
  /// out).
  std::vector<VectorStepIR> steps;
  ScalarType in_type = ScalarType::F32;  // the stream vector_init reads
  ScalarType out_type = ScalarType::F32; // what vector_final hands on
};

/// The fields of a step and of a program in declaration order (their fingerprint's lists,
/// ir/seq/field_hash.h): naming exactly the aggregates' fields.
template <class Step, class F>
requires std::same_as<std::remove_const_t<Step>, VectorStepIR>
void for_each_field(Step& s, F&& f) {
  auto& [call, dtype] = s;
  (f(call), f(dtype));
}
template <class Program, class F>
requires std::same_as<std::remove_const_t<Program>, VectorProgram>
void for_each_field(Program& p, F&& f) {
  auto& [steps, in_type, out_type] = p;
  (f(steps), f(in_type), f(out_type));
}

/// Whether `k` acts on element values (else it only restates the stream's layout).
bool is_value_call(VectorCallKind k);
/// Whether a call is a step of the program: a value call, or a Tag that computes the tag from
/// comparisons (docs/vector-engine.md §3.4; a `TagMode::Zero` tag is 0 and no step).
bool is_value_step(const VectorCall& c);

/// The chain ending at the vector_final stage `final_index`, and the vector_init stage it starts
/// at. E-RUN-101 when the stage is not a vector_final of a vector_init chain.
struct VectorChain {
  VectorProgram program;
  std::size_t init = 0;
  /// Pair mode (docs/vector-engine.md §3.5): the grouping axis the unzip splits; empty otherwise.
  std::string group_axis;
  /// A reduce (docs/vector-engine.md §3.6, §3.7): the reduced axes, and per term (in the reduce's
  /// order, VeReduce) their coordinates: the intra-slice reduce's those the stream's Time and
  /// Packet give its axis, the inter-slice reducer's those each slice of a reduction group holds
  /// (`across_slices`). Empty without a reduce.
  std::vector<std::string> reduce_axes;
  std::vector<Index> reduce_terms;
  bool across_slices = false;
};
Result<VectorChain> lower_vector(const Kernel& kernel, std::size_t final_index);

/// The invariants both engines rely on (E-RUN-102 naming the first broken one): only value calls,
/// at most one reduce (intra- or inter-slice), of 1 or 4 lanes (an inter-slice one: 1) and at
/// least one step, with no call before it reading an operand stream or the stash (each term runs
/// those calls alone),
/// each on the scalar the step before hands on and its cluster computes on (i32 / f32), its op of
/// its kind, `int_width` ≤ 31, a VRF operand only where the call takes an operand, the tag and
/// branch forms only on the calls that take them (docs/vector-engine.md §3.4), and the scalar
/// handed on the program's out_type. lower_vector returns only programs that verify.
Status verify(const VectorProgram& p);

/// One line per value call (`tujit compile --emit seq`).
std::string to_text(const VectorProgram& p);

} // namespace tujit::ir::seq
