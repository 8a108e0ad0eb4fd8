// Shared by the CI tests (ci_*_test.cpp): file text, where a piece of text sits in a file
// (computed by the test, independently of tujit's SourceBuffer), the kernels of a folder, and a
// two-kernel spec with a place for comments above each kernel.
#pragma once

#include "ir/lang/kernel.h"
#include "tests/support/text_file.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>

namespace tujit::testing {

/// 1-based line and column (bytes) of the first `needle` in `text`.
inline std::pair<std::size_t, std::size_t> line_col_of(const std::string& text,
                                                       const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) throw std::runtime_error("no '" + needle + "' in the text");
  const auto line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t line = static_cast<std::size_t>(std::count(
                               text.begin(), text.begin() + static_cast<long>(at), '\n')) +
                           1;
  return {line, line_start == std::string::npos || at == 0 ? at + 1 : at - line_start};
}

/// `file:line:col` of the first `needle` in the file `file`.
inline std::string position_of(const std::string& file, const std::string& needle) {
  const auto [line, col] = line_col_of(read_text_file(file), needle);
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

/// The kernels the front end finds in the `.rs` files below `dir` (a file without one counts
/// once: `tujit check` reports it as one test case).
inline std::size_t count_kernels(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.path().extension() == ".rs")
      n += std::max<std::size_t>(
          ir::analyze(SourceBuffer(e.path().string(), read_text_file(e.path())))
              .file.kernels.size(),
          1);
  return n;
}

/// Two kernels: `first` is valid, `second` calls `to_vfr`, a method that does not exist
/// (E-TYPE-008). `above_first` / `above_second` go on the line above each `fn` (line 2 for the
/// first).
inline std::string two_kernels(const std::string& above_first, const std::string& above_second) {
  const std::string param = "(x: CollectTensor<'l, T, i32, m![1], m![1 # 2], m![1 # 256], m![1], "
                            "m![A]>)\n    -> VrfTensor<i32, m![1], m![1 # 2], m![1 # 256], m![A]>";
  return "axes![A = 8];\n" + above_first + "\nfn first<'l, const T: Tu>" + param +
         " { x.to_vrf() }\n" + above_second + "\nfn second<'l, const T: Tu>" + param +
         " { x.to_vfr() }\n";
}

} // namespace tujit::testing
