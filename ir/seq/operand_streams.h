// The address streams of every operand form a run reads (ir/seq/address_stream.h), derived once
// at lowering time by composing the data-path stages between a kernel parameter and its consumer:
//
//   direct      a CollectTensor / TrfTensor parameter: its own view of its logical tensor
//   fetched     begin(dm.view()).fetch().[adapter].collect(): collected cell (t', e') is Collect
//               flit t' of fetched packet t = t' / F, element e = (t' mod F)·E + e' (top padding
//               when e ≥ |P|); the Fetch sequencer reads DM buffer offset Σ digit·stride for
//               position t·|P| + e; that DM cell is a logical element of the DmTensor parameter
//               (docs/datapath.md §4, §6, §8); a padded position the sequencer reads past the
//               buffer's end is top padding (docs/datapath.md §4.2)
//   stored      .to_trf(): TRF cell (l, x) holds stream cell (l·FPL + x / |P|, x mod |P|);
//               .to_vrf(): VRF element a holds the stream cell with the same coordinates, zero
//               where none has them (docs/contraction.md §4.2, §4.3)
//   passed      vector_init … vector_final: the pass's output cell with coordinates c holds the
//               entering stream's cell with coordinates c (docs/vector-engine.md §4)
//   vrf read    a `&vrf` operand of the pass: the pass's output cell with coordinates c reads the
//               VRF element holding c on the VRF's axes (docs/vector-engine.md §3.2)
//   transposed  .transpose(): output cell (t, r) of the Transpose Engine holds input cell
//               ((o·in_rows + r)·packets_per_col + j / valid_size, j mod valid_size) for
//               o = t / out_rows, j = t mod out_rows; Align's cells (r ≥ in_rows) are padding
//               (docs/transpose.md §4)
//   switched    .switch::<OutSlice, OutTime>(cfg): output cell (s, t, p) holds the input element
//               with the coordinates OutSlice(s), OutTime(t), Packet(p), a broadcast axis (one the
//               input does not carry) repeating it; since a stream's offsets are its cells'
//               coordinates in the logical tensor, the switched stream is that tensor's view
//               through the output type, checked cell by cell against the move the book draws for
//               each configuration (switch_step.h book_source; CustomBroadcast: the input cell of
//               the same coordinates) (docs/switch.md §4)
//   written     MemTensor .write(stream): buffer cell a holds the stream position the write-mode
//               sequencer writes to a; padded positions write nothing (docs/datapath.md §4.2)
//
// A stage's data movement is written once, here, as an address map; the engines only walk the
// composed streams.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/address_stream.h"
#include "ir/seq/fetch_program.h"
#include "ir/seq/switch_step.h"
#include "ir/verify/stage_facts.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tujit::ir::seq {

/// The axes a tensor type's mappings name, in the declaration order of `table` (the logical
/// tensor's axis order, docs/cli.md).
std::vector<Axis> type_axes(const TensorType& type, const AxisTable& table);

/// Limit on the positions of one view dimension (and of one slice's cells when a chain is not
/// separable) that lowering evaluates.
inline constexpr std::uint64_t kMaxStreamPositions = std::uint64_t{1} << 28;

/// A parameter read through its own type. `shape` is its logical tensor's axes (declaration order,
/// each at least as large as the view reaches).
Result<OperandStreams> direct_operand(const KernelParam& param, const std::vector<Axis>& shape,
                                      const AxisTable& table);

/// The collected stream of a DM fetch chain: `dm` is the DmTensor parameter the fetch begins from.
/// E-RUN-111 when the fetch reads a `#{!}` DM cell.
Result<OperandStreams> fetched_operand(const FetchProgram& fetch, const KernelParam& dm,
                                       const std::vector<Axis>& shape, const AxisTable& table);

/// A register-file store (to_trf / to_vrf stage) of the stream `source` (the store's input view);
/// `derived` is what the store's verifier derived (E-RUN-102 when it derived nothing).
Result<OperandStreams> stored_operand(const Stage& store, const verify::StageFacts& derived,
                                      const OperandStreams& source);

/// The stream a Vector Engine pass hands on (`final` is the vector_final's type) from the stream
/// `source` entering it (`init` is its type, the vector_init's input). `fixed` adds coordinates
/// the output cells lack: pair mode's group g is the entering cell with the grouping axis at g
/// (docs/vector-engine.md §3.5).
Result<OperandStreams> passed_operand(const TensorType& init, const TensorType& final,
                                      const OperandStreams& source, const Index& fixed = {});

/// One term of the inter-slice reducer (docs/vector-engine.md §3.7): the pass's output cell with
/// coordinates c (`final`, the vector_final's type) holds the element of the stream `source`
/// entering the pass (`init`, the vector_init's input type) with coordinates c and the reduced axes
/// at `fixed`, wherever its slice; an axis of `final` the source lacks is a broadcast. E-RUN-110
/// when the source does not hold its tensor's elements at their own coordinates.
Result<OperandStreams> gathered_operand(const TensorType& init, const TensorType& final,
                                        const OperandStreams& source, const Index& fixed,
                                        const AxisTable& table);

/// The `&vrf` operand of a Vector Engine pass's call as a view of the pass's output cells (`final`
/// is the vector_final's type; `vrf_type` the operand's, `vrf` its streams, one row of Element
/// cells per slice): cell (t, e) holds the VRF element the pass's element at that cell reads, the
/// one with its coordinates (docs/vector-engine.md §3.2; the rule is ir/verify/vrf_operand.h).
/// E-RUN-110 when a live element reads a VRF cell that holds padding.
Result<OperandStreams> vrf_read_operand(const TensorType& final, const TensorType& vrf_type,
                                        const OperandStreams& vrf);

/// The stream the Transpose Engine hands on from the stream `source` entering the transpose stage
/// (its input type's Time and Packet; a packet the Cast Engine re-padded may be wider than the
/// source's cells, its extra positions padding), from what its verifier derived (E-RUN-102 when
/// it derived nothing).
Result<OperandStreams> transposed_operand(const Stage& transpose, const verify::StageFacts& derived,
                                          const OperandStreams& source);

/// The stream the Switch Engine hands on from the stream `source` entering it (the switch's input
/// type: one row of Time × Packet cells per slice): its Slice and Time relabelled, so slices stop
/// being independent (output slice s reads other input slices). E-RUN-102 when `source` has
/// another shape or does not hold, at some cell, the element the output cell the book's move
/// sends it to holds; E-RUN-110 when a live output cell holds an element no live input cell holds
/// (a broadcast digit of an axis the input carries other digits of).
Result<OperandStreams> switched_operand(const SwitchStep& sw, const OperandStreams& source,
                                        const AxisTable& table);

/// The buffer a MemTensor write stage fills from the stream `source` (the stage's input view).
/// E-RUN-102 when a live buffer cell is written by no live stream position (the verifier refuses
/// such a write, E-FETCH-019).
Result<OperandStreams> written_operand(const Stage& write, const verify::StageFacts& derived,
                                       const OperandStreams& source);

} // namespace tujit::ir::seq
