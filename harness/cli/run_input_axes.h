// The axes `tujit run` generates each random input over. docs/cli.md defines an input as the
// logical tensor over the axes its mappings use, but a kernel that computes one tile of a larger
// problem holds only part of an axis: forward__lm_head's DM weight holds Wp < 8192 of
// Wp = 155,648 (its input every 16-th Wp below 8192, broadcast over Wp % 16), so the whole logical
// tensors (159 M elements each, ~2.5 GB with the oracle's views) would be generated for the 8 M
// cells the device ever reads. Each axis is instead generated over the smallest prefix [0, e) that
// holds every coordinate any tensor of the run (the inputs and the output) holds — the tile the
// run computes, which contains the extent the output is read back over
// (runtime/layout/held_readback.h). Every operand gets the same extent per axis, so the oracle's
// views and walks agree.
#pragma once

#include "harness/cli/run_operands.h"
#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "runtime/tensor/logical_tensor.h"

#include <map>
#include <string>
#include <vector>

namespace tujit::cli {

/// Parameter name → the axes its random contents are generated over (runtime::tensor_axes of its
/// type, each axis cut to its extent as above). Finding what a tensor holds evaluates its layout (a
/// table as large as its image); a tensor of more than `max_cells` cells is not evaluated and its
/// axes count as whole: the footprint check (a smaller budget) never assumes a smaller input than
/// the run generates.
std::map<std::string, std::vector<ir::Axis>>
run_input_axes(const ir::SpecFile& file, const ir::Kernel& kernel, const RunOperands& ops,
               std::uint64_t max_cells = runtime::kDefaultMaxElements);

} // namespace tujit::cli
