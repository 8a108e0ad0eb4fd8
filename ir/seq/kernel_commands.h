// A whole kernel's Tensor Unit commands (docs/kernels.md §3): the command whose commit the kernel
// returns, and the commands before it whose committed DmTensors it fetches, directly or after DMA
// relayouts. Each command is run as a kernel of its own, the stages it needs and nothing else,
// reading what earlier commands committed as DmTensor parameters; the run feeds each command the
// logical tensors the earlier ones produced (a commit and a DMA transfer keep the element at each
// logical coordinate, docs/kernels.md §2).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/checked_kernel.h"

#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::seq {

struct KernelCommand {
  /// The command as a kernel: the stages its result needs (through producers, register-file
  /// stores and DMA), reindexed in evaluation order; its parameters are the kernel's and one
  /// DmTensor parameter per DM tensor holding a value of an earlier command that it fetches. An
  /// earlier command returns the DmTensor its last stage, a commit, writes.
  Kernel kernel;
  /// The whole kernel's stage checks of those stages, in the same order: what lowering the command
  /// reads (its stages are the checked ones, relinked).
  verify::KernelCheck check;
  verify::CheckedKernel checked() const { return {kernel, check}; }
  /// The name of the value this command commits, as later commands read it (its `let` name,
  /// made unique); empty for the kernel's result command.
  std::string value;
  /// A DmTensor parameter of `kernel` holding an earlier command's value: the DM tensor the
  /// fetch reads (`param`), the value it holds (`value`), and the `unsafe { x.reshape() }`s on
  /// the way from the commit to that DM tensor, in order (`from` the DM tensor reshaped, `to` its
  /// new type): each restates the same DM cells under another mapping, so the run hands on the
  /// value relabelled cell by cell (docs/kernel-language.md §6.2).
  struct Reshape {
    TensorType from, to;
    SourceSpan span; // the reshape call
  };
  struct Read {
    std::string param;
    std::string value;
    std::vector<Reshape> reshapes;
    /// `value` is an HbmTensor parameter of the kernel that DMA moved into DM and a reshape
    /// restates (the run reads the parameter's logical tensor, docs/kernels.md §3).
    bool parameter = false;
  };
  std::vector<Read> reads;
};

/// The commands of a whole kernel (one returning an HbmTensor) in execution order, its result's
/// last (one command when no fetch reads a committed DmTensor); nullopt for any other kernel,
/// which runs as it is. The split keeps only what the result depends on. E-RUN-110 for a value
/// read through a DMA transfer that changes its axes (a broadcast), and for a result reshaped
/// after its commit.
Result<std::optional<std::vector<KernelCommand>>>
split_commands(const verify::CheckedKernel& kernel);

} // namespace tujit::ir::seq
