// The kernel corpus every corpus-wide test walks: specs/*.rs, specs/derived/*.rs, the whole
// kernels of specs/kernels/*.rs and the Switch Engine examples of specs/switch/*.rs, sorted.
#pragma once

#include <algorithm>
#include <filesystem>
#include <vector>

namespace tujit::testing {

inline std::vector<std::filesystem::path> spec_corpus() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  for (const char* dir : {"specs", "specs/derived", "specs/kernels", "specs/switch"})
    for (const auto& e : fs::directory_iterator(fs::path(TUJIT_SOURCE_DIR) / dir))
      if (e.is_regular_file() && e.path().extension() == ".rs") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace tujit::testing
