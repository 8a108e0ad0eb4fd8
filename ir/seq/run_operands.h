// What a kernel run reads and returns (docs/cli.md `run`): which parameters feed the engines, and
// through which in-kernel stages (a DM fetch + collect, a register-file store), found by following
// the typed kernel's producer links (ir/lang/kernel.h Stage::producer / source).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::seq {

/// What the run computes and returns.
enum class RunShape {
  Contraction, // a contract_outer … contract_lane chain: the output is its ContractTensor
  Store,       // the kernel's last stage is a to_trf / to_vrf: the output is the register file
  Collect,     // the kernel's last stage is a collect of a DM fetch: the output is the stream
  Write,       // the kernel writes a StreamTensor into a MemTensor (the book's sequencer pseudo
               // types): the output is the buffer after the write
  Partial,     // part of a contraction chain (it starts from a ContractOuter/Packet/Time
               // parameter, or ends before contract_lane): run stage by stage
};

struct RunOperands {
  RunShape shape = RunShape::Contraction;
  const Stage* outer = nullptr; // Contraction: the contract_outer stage
  const Stage* lane = nullptr;  // Contraction: the contract_lane stage of the same chain
  /// Store: the to_trf / to_vrf stage whose image is returned; Contraction: the to_vrf of the
  /// Vector Engine pass after the chain, if any.
  const Stage* store = nullptr;
  /// Partial: the first and last contraction stage run (indices into kernel.stages). When the
  /// first is a contract_outer, `outer` is set and the stream / TRF fields are its operands;
  /// otherwise `stream` is the ContractOuter/Packet/Time parameter it reads.
  std::size_t partial_first = 0, partial_last = 0;

  /// The stream: the contraction's stream (Contraction, Partial from contract_outer), the store's
  /// input (Store), the result (Collect), the chain's input parameter (other Partial runs).
  /// `stream` is the parameter whose logical contents feed it: a CollectTensor, or the DmTensor the
  /// kernel fetches when `stream_collect` names the Collect stage.
  const KernelParam* stream = nullptr;
  std::optional<std::size_t> stream_collect;
  /// Store / Collect: the vector_final of a Vector Engine pass between the stream and the output;
  /// Contraction: of the pass reading the chain's output (docs/vector-engine.md §4).
  std::optional<std::size_t> vector_final;
  /// Write: the MemTensor write stage (`stream` is the StreamTensor it writes).
  const Stage* write = nullptr;
  /// Collect: a kernel that ends with a switch of a FetchTensor parameter (the book's Switch
  /// Engine examples, docs/switch.md): `stream` is that parameter, the output the SwitchTensor.
  /// A switch inside a fetch chain belongs to the chain's FetchProgram instead.
  const Stage* switch_engine = nullptr;
  /// Collect: a kernel of DMA transfers only (furiosa-opt-examples transpose.rs: HBM → HBM
  /// relayouts), the last of them. A transfer moves the tensor unchanged (docs/dma.md §1), so the
  /// result is `stream`, that HbmTensor parameter, read through its own type.
  const Stage* transfers = nullptr;

  /// A `&vrf` operand of the Vector Engine pass (docs/vector-engine.md §3.2): the call reading
  /// it, and a VrfTensor parameter or the source of the to_vrf that stored it (a CollectTensor,
  /// or the DmTensor fetched by `collect`), as the TRF operand's below.
  struct VrfOperand {
    const Stage* call = nullptr;
    const KernelParam* param = nullptr;
    const Stage* store = nullptr;
    std::optional<std::size_t> collect;
  };
  /// The pass's `&vrf` operands in call order.
  std::vector<VrfOperand> vrf;

  /// Contraction: a TrfTensor parameter, or the source of `trf_store` (a CollectTensor, or the
  /// DmTensor fetched by `trf_collect`).
  const KernelParam* trf = nullptr;
  const Stage* trf_store = nullptr;
  std::optional<std::size_t> trf_collect;

  /// A whole kernel (docs/kernels.md): the output path between the engines and the DmTensor the
  /// result is committed to (docs/output-path.md), nullptr where a stage is absent; `commit` is set
  /// exactly when the kernel's result leaves through the output path.
  const Stage* cast = nullptr;
  const Stage* transpose = nullptr;
  const Stage* trim = nullptr;
  const Stage* commit_cast = nullptr;
  const Stage* commit = nullptr;
  /// The view the engines write the result through: the engines' output type (the transpose's,
  /// after a transpose, docs/transpose.md §4) with the packet positions the trim drops made
  /// padding (docs/output-path.md §2.1). Set with `commit`.
  std::optional<TensorType> output_view;
  /// DM tensors a fetch reads that `to_dm` wrote from an HbmTensor parameter: each is that
  /// parameter's logical tensor read through the DM tensor's layout (docs/dma.md §1), as a
  /// parameter of the HBM tensor's name whose type is the DM tensor's, the axes the HBM tensor
  /// does not have made broadcasts. `stream` / `trf` point into it.
  std::vector<std::shared_ptr<const KernelParam>> moved;
  /// Parallel to `moved`: the DM tensor `to_dm` wrote, its axes all still axes. The float64
  /// oracle reads the HBM tensor copied along the axes it lacks through it, so an axis the chain
  /// reduces and both operands hold only as copies is summed over its copies.
  std::vector<TensorType> moved_layouts;

  /// A `begin_interleaved` fetch's two DM tensors (docs/vector-engine.md §3.5): `sides` as the
  /// run reads them (parameters, or `moved` ones), and `param` the pair the fetch reads, a
  /// BeginTensor of their layout whose Time is the grouping axis `axis`: its logical tensor holds
  /// side i's element at the same coordinates with `axis` = i (runtime/tensor/interleave.h).
  /// `stream`, `trf` or a VRF operand's `param` may point to it.
  struct Interleaved {
    const KernelParam* sides[2] = {nullptr, nullptr};
    std::shared_ptr<const KernelParam> param;
    std::string axis;
  };
  std::vector<Interleaved> interleaved;
  /// The Interleaved entry whose pair is `p`, or nullptr.
  const Interleaved* pair_of(const KernelParam* p) const {
    for (const Interleaved& i : interleaved)
      if (i.param.get() == p) return &i;
    return nullptr;
  }

  /// The parameters whose contents the run needs (stream, then the TRF or its source, then the
  /// VRF operands' sources), each once; an interleaved pair's two sides in its place.
  std::vector<const KernelParam*> inputs() const {
    std::vector<const KernelParam*> v;
    const auto add = [&](const KernelParam* p, bool once) {
      if (const Interleaved* i = pair_of(p)) {
        for (const KernelParam* side : i->sides)
          if (std::none_of(v.begin(), v.end(), [&](const KernelParam* q) {
                return q != nullptr && q->name == side->name;
              }))
            v.push_back(side);
        return;
      }
      if (!once || std::none_of(v.begin(), v.end(), [&](const KernelParam* q) {
            return q != nullptr && p != nullptr && q->name == p->name;
          }))
        v.push_back(p);
    };
    add(stream, false);
    if (trf) add(trf, false);
    for (const VrfOperand& o : vrf) add(o.param, true);
    return v;
  }
  /// The type the engines read the stream as (the Collect output or the CollectTensor
  /// parameter).
  const TensorType& stream_type(const Kernel& kernel) const;
  /// The tensor type of the run's output (the output view of a whole kernel).
  const TensorType& output_type(const Kernel& kernel) const;
  /// The element type of the output after the output path's casts, given the engines'.
  ScalarType output_dtype(ScalarType engines) const;
  /// The moved_layouts entry of parameter `p`, or nullptr when `p` is not a `moved` one.
  const TensorType* moved_layout(const KernelParam* p) const;
};

/// Finds the operands. E-RUN-101 for a kernel with nothing to run (no complete contraction chain,
/// no store or collect result); E-RUN-110 for an input the engines cannot be fed (a stage between
/// a parameter and the engines that tujit does not simulate).
Result<RunOperands> find_run_operands(const Kernel& kernel);

/// The contraction stages (indices into kernel.stages) from `first` to `last` along the producer
/// links, in execution order: each stage reads the output of the one before it, and the ops are
/// consecutive steps of contract_outer → contract_packet → contract_time → contract_lane.
/// E-RUN-101 otherwise.
Result<std::vector<std::size_t>> contraction_path(const Kernel& kernel, std::size_t first,
                                                  std::size_t last);

/// The part of a contraction chain a kernel runs: `last` is the latest contraction stage whose
/// output no other stage reads (the chain's result), `first` the earliest contraction stage
/// reached from it through producer links. Its input image is laid out as
/// kernel.stages[first].input (plus *kernel.stages[first].trf for a contract_outer), its result
/// as kernel.stages[last].output. E-RUN-101 when the kernel has no contraction stage.
struct ContractionStages {
  std::size_t first = 0;
  std::size_t last = 0;
  std::vector<std::size_t> path; // contraction_path(kernel, first, last)
};
Result<ContractionStages> find_contraction_stages(const Kernel& kernel);

} // namespace tujit::ir::seq
