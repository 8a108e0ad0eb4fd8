// Diagnostics rendered with their source lines, for a test's INFO on failure.
#pragma once

#include "ir/support/diagnostic.h"

#include <string>

namespace tujit::testing {

inline std::string dump(const SourceBuffer& src, const Diagnostics& ds) {
  std::string s;
  for (const auto& d : ds) s += render(d, &src);
  return s;
}

} // namespace tujit::testing
