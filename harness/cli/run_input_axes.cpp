#include "harness/cli/run_input_axes.h"

#include "runtime/layout/held_readback.h"
#include "runtime/layout/layout.h"

#include <algorithm>

namespace tujit::cli {

namespace {

/// Axis name → the smallest prefix [0, e) of the axis holding every coordinate the tensor holds:
/// s·k for k coordinates every s-th from 0 (s = 1: the first k), capped at the axis size; the
/// whole axis when the layout is not evaluated (more than `max_cells` cells) or holds another
/// pattern.
std::map<std::string, std::uint64_t>
held_extents(const ir::TensorType& type, const ir::AxisTable& table, std::uint64_t max_cells) {
  const auto axes = runtime::tensor_axes(type, table);
  std::map<std::string, std::uint64_t> out;
  for (const auto& a : axes) out[a.name] = a.size;
  // Evaluating the layout costs a cell table as large as the image: only within the budget.
  const auto plan = runtime::layout_plan(type);
  if (!plan || plan->spatial.size == 0 || plan->outer.size == 0 || plan->spatial.size > max_cells ||
      plan->outer.size > max_cells / plan->spatial.size ||
      plan->inner.size > max_cells / (plan->spatial.size * plan->outer.size))
    return out;
  auto held = runtime::held_axes(type, axes, max_cells);
  if (!held) return out;
  for (const auto& h : *held) out[h.source.name] = std::min(h.source.size, h.stride * h.axis.size);
  return out;
}

} // namespace

std::map<std::string, std::vector<ir::Axis>> run_input_axes(const ir::SpecFile& file,
                                                            const ir::Kernel& kernel,
                                                            const RunOperands& ops,
                                                            std::uint64_t max_cells) {
  std::map<std::string, std::uint64_t> extent;
  const auto widen = [&](const ir::TensorType& type) {
    for (const auto& [name, e] : held_extents(type, file.axes, max_cells))
      extent[name] = std::max(extent[name], e);
  };
  for (const ir::KernelParam* p : ops.inputs())
    if (p && p->tensor) widen(*p->tensor);
  // The output too: the oracle walks the output's coordinates over the inputs.
  widen(ops.output_type(kernel));

  std::map<std::string, std::vector<ir::Axis>> out;
  for (const ir::KernelParam* p : ops.inputs()) {
    if (!p || !p->tensor) continue;
    auto axes = runtime::tensor_axes(*p->tensor, file.axes);
    for (auto& a : axes) a.size = extent.at(a.name);
    out[p->name] = std::move(axes);
  }
  return out;
}

} // namespace tujit::cli
