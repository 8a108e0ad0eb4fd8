// A typed kernel together with its kernel check: the form every lowering entry point takes
// (ir/seq/), so lowering reads what the stage verifiers derived (StageCheck::facts) and never runs
// them again (docs/design.md §2.2). A view: the kernel and its check outlive it.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/verify/kernel_checker.h"
#include "ir/verify/stage_facts.h"

#include <cstddef>
#include <variant>

namespace tujit::ir::verify {

class CheckedKernel {
public:
  /// `check` is check_kernel's result for `kernel` (one StageCheck per stage, same order).
  CheckedKernel(const Kernel& kernel, const KernelCheck& check)
      : kernel_(&kernel), check_(&check) {}
  /// A temporary check would be gone before lowering reads it.
  CheckedKernel(const Kernel& kernel, KernelCheck&& check) = delete;

  const Kernel& kernel() const { return *kernel_; }
  operator const Kernel&() const { return *kernel_; }
  const KernelCheck& check() const { return *check_; }

  /// What the verifier of kernel().stages[index] derived (monostate when it derived nothing).
  const StageFacts& facts(std::size_t index) const;
  /// The same for a stage of kernel().stages given by reference.
  const StageFacts& facts(const Stage& stage) const;
  /// The facts of `stage` when its verifier derived a T, else nullptr.
  template <class T>
  const T* derived(const Stage& stage) const {
    return std::get_if<T>(&facts(stage));
  }

private:
  const Kernel* kernel_;
  const KernelCheck* check_;
};

} // namespace tujit::ir::verify
