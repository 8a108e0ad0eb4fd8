#include "ir/lang/kernel_pick.h"

#include <fmt/format.h>

namespace tujit::ir {

KernelPick pick_kernel(const std::vector<Kernel>& kernels, std::string_view name) {
  KernelPick out;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (kernels[i].name == name) {
      out.index = i;
      out.matches = {kernels[i].name};
      return out;
    }
  std::optional<std::size_t> only;
  const std::string tail = fmt::format("::{}", name);
  for (std::size_t i = 0; i < kernels.size(); ++i)
    if (kernels[i].name.ends_with(tail)) {
      only = i;
      out.matches.push_back(kernels[i].name);
    }
  if (out.matches.size() == 1) out.index = only;
  return out;
}

std::string kernel_pick_error(const std::vector<Kernel>& kernels, const KernelPick& pick,
                              std::string_view name, std::string_view path) {
  std::string names;
  const auto& listed = pick.matches.size() > 1 ? pick.matches : std::vector<std::string>{};
  for (const auto& n : listed) names += (names.empty() ? "" : ", ") + n;
  if (!listed.empty())
    return fmt::format("'{}' names {} kernels in '{}': {}; give its module path", name,
                       listed.size(), path, names);
  for (const auto& k : kernels) names += (names.empty() ? "" : ", ") + k.name;
  return fmt::format("no kernel named '{}' in '{}'{}", name, path,
                     names.empty() ? std::string(" (it defines none)")
                                   : "; its kernels are: " + names);
}

} // namespace tujit::ir
