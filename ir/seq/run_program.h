// The Sequencer IR of one `tujit run`: what both engines execute (docs/design.md "The Sequencer
// IR"). It joins the kernel's program with the address streams of its operands and output, so an
// engine reads the parameters' logical tensors and writes the logical output directly:
//
//   Contraction  the chain's ContractionProgram (cycle nest, packet reduction, lane fold) with the
//                stream and TRF operands and the output as streams: for a live slice s,
//                  stream cell (flit f, cell p)   → stream.streams.at(s, f, p)
//                  TRF cell (lane l, element x)   → trf.streams.at(s, l, x)
//                  output cell (T3 u, P3 j)       → output.at(s, u, j)
//   Move         a kernel that only moves data (a register-file store, a collected stream, a
//                MemTensor read or write): every live cell (s, o, i) of the output view takes
//                source.streams.at(s, o, i)
//
// Either body's elements go through the value calls of a Vector Engine pass when the kernel runs
// one on the way (docs/vector-engine.md §4), a `&vrf` operand k of the pass read at
// vrf_operands[k].streams.at(s, o, i), then through the output path's cast.
//
// Operands are read through their Fetch Adapter (cast / zero point) and widened in the engine's
// loads; padding cells never exist in memory: their states come from the streams.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/address_stream.h"
#include "ir/seq/contraction_program.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/held_axes.h"
#include "ir/seq/operand_streams.h"
#include "ir/seq/run_operands.h"
#include "ir/seq/vector_program.h"

#include <concepts>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace tujit::ir::seq {

/// The output path's conversion of every output element after the engines (and after a Vector
/// Engine pass): the Cast Engine's `cast` or the Commit Adapter's `commit_cast[_relu]`
/// (docs/output-path.md §1, §2.2; numerics docs/scalars.md §5.2, §5.3).
struct OutputCast {
  ScalarType from = ScalarType::F32;
  ScalarType to = ScalarType::BF16;
  bool relu = false; // commit_cast_relu
  friend bool operator==(const OutputCast&, const OutputCast&) = default;
};
template <class Cast, class F>
requires std::same_as<std::remove_const_t<Cast>, OutputCast>
void for_each_field(Cast& c, F&& f) {
  auto& [from, to, relu] = c;
  (f(from), f(to), f(relu));
}

/// A contraction run's body: the chain (its stream_dense / trf_dense describe the chain's own
/// types; the engines go by the operands' streams) and its operands.
struct ContractionRun {
  ContractionProgram chain;
  /// The stream operand (a part entering after the Outer stage: that stage's input tensor).
  OperandStreams stream;
  /// The TRF operand; empty when the chain forms no products (chain.forms_products()).
  OperandStreams trf;
};
template <class Run, class F>
requires std::same_as<std::remove_const_t<Run>, ContractionRun>
void for_each_field(Run& r, F&& f) {
  auto& [chain, stream, trf] = r;
  (f(chain), f(stream), f(trf));
}

/// A move's body: the source of every output cell (a register-file store, a collected stream, a
/// MemTensor read or write, a transpose: the cells are relabelled, the values kept).
struct MoveRun {
  OperandStreams source;
  /// Pair mode (docs/vector-engine.md §3.5): the grouping axis `I` whose `I = 1` element the
  /// pass's first `&vrf` operand holds at each output cell; empty otherwise. The engines read that
  /// operand; the oracle reads the pair by coordinates.
  std::string pair_group_axis;
  /// The intra-slice reduce (docs/vector-engine.md §3.6): the reduced axis; `source` holds each
  /// output cell's first term, the pass's first operand streams the others (in the reduce's
  /// order). Empty otherwise. The oracle reads the terms by coordinates.
  std::vector<std::string> reduce_axes;
};
template <class Run, class F>
requires std::same_as<std::remove_const_t<Run>, MoveRun>
void for_each_field(Run& r, F&& f) {
  auto& [source, pair_group_axis, reduce_axes] = r;
  (f(source), f(pair_group_axis), f(reduce_axes));
}

/// The closed set of run kinds. A command kind the engines come to execute is one more
/// alternative here (docs/design.md "Adding a command kind").
using RunBody = std::variant<ContractionRun, MoveRun>;

struct RunProgram {
  std::string kernel_name;
  /// What the engines execute to produce the output's elements.
  RunBody body;
  /// The value calls of a Vector Engine pass, when the kernel runs one, on every element the body
  /// hands to the output: a move's source element (after the Fetch Adapter), a contraction's
  /// output cell as the Lane Folder drains it.
  std::optional<VectorProgram> vector;
  /// The `&vrf` operands of `vector`'s calls, in call order (VectorCall::reads_vrf), each a view
  /// of the output's cells: cell (s, o, i) holds the VRF element the pass's element at that cell
  /// reads (docs/vector-engine.md §3.2); a cell that is not Live reads 0.
  std::vector<OperandStreams> vrf_operands;
  /// The output path's conversion, applied to every output element after `vector` (a whole
  /// kernel's cast or commit_cast); the output's dtype is its `to`.
  std::optional<OutputCast> output_cast;
  /// The logical output (dtype = the accumulator for a contraction, or what its pass hands on;
  /// the output type's for a move) and where each output cell goes.
  TensorStreams output;
  /// Live output cells beyond the first that hold the same logical element (their values must
  /// agree; the engines check them).
  std::uint64_t duplicated_outputs = 0;
  /// The data-path chains the run composes (reports and cycle models).
  std::vector<FetchProgram> fetches;

  bool is_move() const { return std::holds_alternative<MoveRun>(body); }
  /// The body as a contraction run / a move (std::bad_variant_access for the other kind: the
  /// caller dispatches on is_move() first).
  const ContractionRun& contraction() const { return std::get<ContractionRun>(body); }
  ContractionRun& contraction() { return std::get<ContractionRun>(body); }
  const MoveRun& move() const { return std::get<MoveRun>(body); }
  MoveRun& move() { return std::get<MoveRun>(body); }
  /// The operand the body streams from: a contraction's stream operand, a move's source.
  const OperandStreams& input() const;
  /// The TRF operand when the body reads one (a contraction forming products), else nullptr.
  const OperandStreams* trf_operand() const;

  /// Live spatial positions the engines run (Contraction: the chain's; Move: the output's).
  std::vector<std::uint64_t> live_slices() const;
};

/// Calls f(field) for every field of a RunProgram in declaration order (the fingerprint's one
/// list, ir/seq/field_hash.h): naming exactly the aggregate's fields, so a field added and not
/// named here is a compile error.
template <class Program, class F>
requires std::same_as<std::remove_const_t<Program>, RunProgram>
void for_each_field(Program& p, F&& f) {
  auto& [kernel_name, body, vector, vrf_operands, output_cast, output, duplicated_outputs,
         fetches] = p;
  (f(kernel_name), f(body), f(vector), f(vrf_operands), f(output_cast), f(output),
   f(duplicated_outputs), f(fetches));
}

/// The logical tensors of a run: each input parameter's axes (declaration order; sizes = the
/// tensor's shape, at least the tile it reads).
using InputShapes = std::map<std::string, std::vector<Axis>>;

/// The tile each input is generated over when the user gives none: per axis the smallest prefix
/// [0, e) holding every coordinate any tensor of the run (inputs, output) holds
/// (held_axes.h). Every input gets the same extent per axis, so the oracle's walks agree. A type
/// with a view dimension of more than `max_positions` positions is not evaluated (its axes count
/// as whole: never a smaller tile than the run holds).
Result<InputShapes> input_tiles(const SpecFile& file, const Kernel& kernel, const RunOperands& ops,
                                std::uint64_t max_positions = kMaxStreamPositions);

/// The output's held axes (the logical output tensor's axes).
Result<std::vector<HeldAxis>> output_held_axes(const SpecFile& file, const Kernel& kernel,
                                               const RunOperands& ops);

/// The output path's cast of a whole kernel's run (nullopt without one): `cast`, or the Commit
/// Adapter's `commit_cast[_relu]`, from the engines' element type `engines`.
std::optional<OutputCast> output_cast(const RunOperands& ops, ScalarType engines);

/// Lowers a Contraction, Store, Collect or Write run (E-RUN-101 for a Partial run, which the
/// stage-by-stage executor runs). `shapes` gives every input's logical shape.
Result<RunProgram> lower_run(const SpecFile& file, const verify::CheckedKernel& kernel,
                             const RunOperands& ops, const InputShapes& shapes, bool ftz_results);

/// `p` with its output: the streams of the output view `type` (over `axes`, the view's axes) into
/// the logical output over its held axes (held_axes.h), elements of `dtype`; every held element
/// produced (E-RUN-005 otherwise), cells holding an element another cell holds counted in
/// duplicated_outputs.
Result<RunProgram> with_output(const TensorType& type, const std::vector<Axis>& axes,
                               ScalarType dtype, RunProgram p);

/// The invariants every engine relies on (E-RUN-102 naming the first broken one, a lowering bug
/// reported instead of an out-of-bounds access): every program it composes verifies (the chain,
/// the fetches, the Vector Engine pass), the streams' views have the chain's shapes (a move's
/// source and VRF operands the output's, one VRF operand per call reading the VRF), every live
/// packet cycle addresses flits, TRF elements and a Time Reducer slot inside them, and the Lane
/// Folder drains accumulator cells that exist.
Status verify(const RunProgram& p);

/// A stable hash of every field (for_each_field) but the names and the mappings and types kept
/// for reports (ir/seq/field_hash.h): the chain (`ftz_results` included), the operands' and the
/// output's streams and adapters, the Vector Engine pass, the fetch programs; the JIT's cache key.
std::uint64_t fingerprint(const RunProgram& p);

/// `tujit compile --emit seq`: the chain and every stream.
std::string to_text(const RunProgram& p);

} // namespace tujit::ir::seq
