// A whole file of the source tree as text, for tests that read documents and sources.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace tujit::testing {

/// The file's bytes; empty when it cannot be read.
inline std::string read_text_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace tujit::testing
