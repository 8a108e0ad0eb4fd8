// The test oracle of the Contraction Engine's stage rules (docs/contraction.md §5–§9): a
// stage-by-stage executor written from the stage definitions and independent of the Sequencer IR
// (never linked into tujit): each call takes the device image of
// one stage's input tensor and produces the device image of its output tensor, laid out as
// runtime/layout/layout.h lays out that tensor type:
//
//   stage            input image                               output image
//   contract_outer   stream [spatial][|Time|][|Packet|]         X [spatial][|Lane|·|OT|][|OP|]
//                    TRF    [spatial][|Lane|][|Element|]
//   contract_packet  X      [spatial][|Lane|·|OT|][|OP|]        R [spatial][|Lane|·|OT|][|P2|]
//   contract_time    R      [spatial][|Lane|·|OT|][|P2|]        A [spatial][|Lane|·|T2|][|P2|]
//   contract_lane    A      [spatial][|Lane|·|T2|][|P2|]        out [spatial][|T3|][8]
//
// (ContractOuter/Packet/Time tensors: outer = [Lane, Time] with Lane major, inner = Packet.)
//
// The tests run it next to both engines of the Sequencer IR (runtime/interp/interpreter.h, the
// JIT) on whole and partial chains (a kernel that returns a ContractOuter/Packet/Time tensor, or
// starts from one). It materialises every intermediate tensor, including the outer product, so it
// is meant for small kernels, not speed.
//
// What each stage computes, per live slice (padding slices are not computed: their cells are
// Zero with bits 0, as in the fused interpreter):
//   Outer (§5.4): X[l][t][p] = widen(stream[f][e]) × widen(trf[l][a]) with
//     f = (t / TB)·PackSize + p / |Packet|, e = p mod |Packet|, a = addr(t) + p mod ReadSize,
//     addr(t) from the TRF Sequencer loops; present iff Lane(l), OT(t), OP(p) are live positions
//     and both operand cells are Live (§9.4). A TRF address past |Element| is not read.
//   Packet (§6, §9.2): R[l][t][c] = adjacent-pair tree of depth d over X[l][t][c·G .. c·G+G-1],
//     ABSENT ⊕ v = v; columns c ≥ L (the live prefix of RP) are padding of P2.
//   Time (§7, §9.2): A[l][u][c] = +0, then ⊕ R[l][t][c] for every live OT position t in
//     increasing order, u = the T2 position of t's retained digits; only present R are added.
//   Lane (§8): relocates A into 8-element output flits (Interleaved / Sequential order); output
//     padding cells are 0.
// Every f32 value a stage puts out that is a NaN is the canonical NaN 0x7FC00000 (§9.3), also
// where the stage only moves an input cell holding another NaN (a part read from a parameter).
// Every parameter (PackSize, TB, ReadSize and loops, d, G, L, the retained digits and their T2
// strides) is the stage verifier's derived value (ir/verify/); the scalar arithmetic is the
// interpreter's (widen_to_accumulator, acc_add, acc_mul).
//
// Cell states of the images this executor produces:
//   Live   a present value (§9.4), in `bits`, that no Top content reached;
//   Top    Top content reached the cell (poison.h: a product of a Top operand cell with a Live or
//          Top one, then anything summed from or relocated from such a cell — "Top × live =
//          Top"); `bits` hold the value the ABSENT rule gives when the cell is present, else
//          poison_bits(acc);
//   Zero   absent (no product, a padding position of the tensor, or a padding slice): bits 0.
// Presence (whether a later stage uses the cell's value) is `StageImage::present`: a Top cell may
// be present (a live column that also folded a Top padding product) or absent. An image made by
// to_device (device_layout.h; a kernel parameter) has no mask: its Live cells are the present ones
// and its Top padding cells are absent and poisoned.
//
// Poison follows the fused interpreter's analysis (poison.h): padded OT positions still feed
// their poison into the slot their retained digits name (the hardware's counters run through
// them), and a live output cell of the whole chain is Top exactly when analyze_poison reports it.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/seq/run_operands.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tujit::testing {

using runtime::CellState;
using runtime::DeviceImage;

/// A device image plus which cells are present (see the file comment).
struct StageImage {
  DeviceImage image;
  /// [image.cells()] 1 = the cell holds a value the next stage uses. Empty: exactly the Live
  /// cells (the form to_device produces).
  std::vector<std::uint8_t> present;

  StageImage() = default;
  StageImage(DeviceImage img) : image(std::move(img)) {} // NOLINT: a parameter image converts
  bool is_present(std::uint64_t i) const {
    return present.empty() ? image.state[i] == CellState::Live : present[i] != 0;
  }
};

struct StageOptions {
  /// docs/contraction.md §9.3: flush subnormal f32 products and sums to signed zero.
  bool ftz_results = false;
};

/// contract_outer (§5): Stream Adapter + TRF Sequencer + Multiplier. `stream` is laid out as
/// outer.input (CollectTensor), `trf` as *outer.trf. Output: the ContractOuterTensor image of
/// outer.output (accumulator type). Diagnostics: the stage verifier's when it refuses the stage,
/// E-RUN-101 for a stage that is not a contract_outer with a TRF operand, E-RUN-102 for an image
/// whose dtype or shape is not the stage's.
Result<StageImage> exec_contract_outer(const ir::Stage& outer, const DeviceImage& stream,
                                       const DeviceImage& trf, const StageOptions& options = {});

/// contract_packet (§6): the Packet Reducer on a ContractOuterTensor image of packet.input.
Result<StageImage> exec_contract_packet(const ir::Stage& packet, const StageImage& in,
                                        const StageOptions& options = {});

/// contract_time (§7): the Time Reducer on a ContractPacketTensor image of time.input.
Result<StageImage> exec_contract_time(const ir::Stage& time, const StageImage& in,
                                      const StageOptions& options = {});

/// contract_lane (§8): the Lane Folder on a ContractTimeTensor image of lane.input. When the
/// input is a parameter (no remembered pre-reduce Time) the verifier assumes nothing was reduced,
/// as the kernel checker does; the fold itself does not depend on it.
Result<StageImage> exec_contract_lane(const ir::Stage& lane, const StageImage& in);

/// Runs the contiguous part `first` … `last` of a chain (contraction_path). `input` is the image
/// of kernel.stages[first].input; `trf` the TRF operand's image when the first stage is a
/// contract_outer (else ignored, may be null). Result: the image of kernel.stages[last].output.
Result<StageImage> exec_contraction_stages(const ir::Kernel& kernel, std::size_t first,
                                           std::size_t last, const StageImage& input,
                                           const DeviceImage* trf,
                                           const StageOptions& options = {});

/// Cells that are present and Top: the live results that depend on Top padding content (the
/// `poisoned_outputs` of a run that ends at this image).
std::uint64_t poisoned_cells(const StageImage& image);

} // namespace tujit::testing
