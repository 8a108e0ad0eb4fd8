// A kernel together with its kernel check, owned: what the lowering entry points take
// (ir/verify/checked_kernel.h), for tests that check and lower one kernel in one expression.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/verify/checked_kernel.h"
#include "ir/verify/kernel_checker.h"

namespace tujit::testing {

class KernelWithCheck {
public:
  explicit KernelWithCheck(const ir::Kernel& kernel)
      : kernel_(&kernel), check_(ir::verify::check_kernel(kernel)) {}
  const ir::verify::KernelCheck& check() const { return check_; }
  ir::verify::CheckedKernel view() const { return {*kernel_, check_}; }
  operator ir::verify::CheckedKernel() const { return view(); }

private:
  const ir::Kernel* kernel_;
  ir::verify::KernelCheck check_;
};

/// `kernel` checked, whatever the verdict (lowering refuses a stage the check did not verify).
/// The result must outlive what lowering keeps of the check: a run plan does.
inline KernelWithCheck checked(const ir::Kernel& kernel) {
  return KernelWithCheck(kernel);
}

} // namespace tujit::testing
