#include "ir/verify/checked_kernel.h"

#include <functional>

namespace tujit::ir::verify {

namespace {
const StageFacts kNothing;
} // namespace

const StageFacts& CheckedKernel::facts(std::size_t index) const {
  const auto& stages = check_->stages;
  return index < stages.size() && index < kernel_->stages.size() ? stages[index].facts : kNothing;
}

const StageFacts& CheckedKernel::facts(const Stage& stage) const {
  const auto& stages = kernel_->stages;
  const std::less<const Stage*> before;
  if (stages.empty() || before(&stage, stages.data()) ||
      !before(&stage, stages.data() + stages.size()))
    return kNothing;
  return facts(static_cast<std::size_t>(&stage - stages.data()));
}

} // namespace tujit::ir::verify
