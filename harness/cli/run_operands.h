// What a kernel run reads and returns (spec/cli.md `run`): which parameters feed the engines, and
// through which in-kernel stages (a DM fetch + collect, a register-file store), found by following
// the typed kernel's producer links (ir/lang/kernel.h Stage::producer / source).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace tujit::cli {

/// What the run computes and returns.
enum class RunShape {
  Contraction, // a contract_outer … contract_lane chain: the output is its ContractTensor
  Store,       // the kernel's last stage is a to_trf / to_vrf: the output is the register file
  Collect,     // the kernel's last stage is a collect of a DM fetch (or a vector_final of a pass
               // on a stream): the output is the stream
  Partial,     // part of a contraction chain (it starts from a ContractOuter/Packet/Time
               // parameter, or ends before contract_lane): run stage by stage
  Write,       // the book's `buf.write(stream)` (sequencer.md): the output is the buffer
};

struct RunOperands {
  RunShape shape = RunShape::Contraction;
  const ir::Stage* outer = nullptr; // Contraction: the contract_outer stage
  const ir::Stage* lane = nullptr;  // Contraction: the contract_lane stage of the same chain
  const ir::Stage* store = nullptr; // Store: the to_trf / to_vrf stage whose image is returned
  /// Partial: the first and last contraction stage run (indices into kernel.stages). When the
  /// first is a contract_outer, `outer` is set and the stream / TRF fields are its operands;
  /// otherwise `stream` is the ContractOuter/Packet/Time parameter it reads.
  std::size_t partial_first = 0, partial_last = 0;

  /// The stream: the contraction's stream (Contraction, Partial from contract_outer), the store's
  /// input (Store), the result (Collect), the chain's input parameter (other Partial runs).
  /// `stream` is the parameter whose logical contents feed it: a CollectTensor, or the DmTensor the
  /// kernel fetches when `stream_collect` names the Collect stage.
  const ir::KernelParam* stream = nullptr;
  std::optional<std::size_t> stream_collect;
  /// Store / Collect: the vector_final of a Vector Engine pass between the stream and the
  /// output (harness/cli/run_vector.h runs it).
  std::optional<std::size_t> vector_final;

  /// Contraction: a TrfTensor parameter, or the source of `trf_store` (a CollectTensor, or the
  /// DmTensor fetched by `trf_collect`).
  const ir::KernelParam* trf = nullptr;
  const ir::Stage* trf_store = nullptr;
  std::optional<std::size_t> trf_collect;

  /// Write: the MemTensor written into, and the write stage (`stream` is the StreamTensor).
  const ir::KernelParam* buffer = nullptr;
  const ir::Stage* write = nullptr;

  /// The parameters whose contents the run needs (stream, then the TRF or its source, or the
  /// buffer a write writes into).
  std::vector<const ir::KernelParam*> inputs() const {
    std::vector<const ir::KernelParam*> v{stream};
    if (trf) v.push_back(trf);
    if (buffer) v.push_back(buffer);
    return v;
  }
  /// The type the engines read the stream as (the Collect output or the CollectTensor
  /// parameter).
  const ir::TensorType& stream_type(const ir::Kernel& kernel) const;
  /// The tensor type of the run's output.
  const ir::TensorType& output_type(const ir::Kernel& kernel) const;
};

/// Finds the operands. E-RUN-101 for a kernel with nothing to run (no complete contraction chain,
/// no store or collect result); E-RUN-110 for an input the engines cannot be fed (a stage between
/// a parameter and the engines that tujit does not simulate).
Result<RunOperands> find_run_operands(const ir::Kernel& kernel);

} // namespace tujit::cli
