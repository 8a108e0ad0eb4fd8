// Picking a kernel of a file by name (`--kernel NAME`, docs/cli.md §3). A kernel in a `mod` block
// is named by its module path, `packet::packet_mismatch` (docs/kernel-language.md §1.2); its last
// segments alone pick it when no other kernel of the file ends with them.
#pragma once

#include "ir/lang/kernel.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir {

struct KernelPick {
  std::optional<std::size_t> index; // into the kernels; nullopt when none or several match
  std::vector<std::string> matches; // every kernel `name` could mean (several: ambiguous)
};

/// The kernel named exactly `name`; else the one whose name ends with `::name`, when it is the
/// only one.
KernelPick pick_kernel(const std::vector<Kernel>& kernels, std::string_view name);

/// The usage message when `pick` found no single kernel for `name` in `path`.
std::string kernel_pick_error(const std::vector<Kernel>& kernels, const KernelPick& pick,
                              std::string_view name, std::string_view path);

} // namespace tujit::ir
