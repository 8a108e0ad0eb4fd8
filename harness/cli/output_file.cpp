#include "harness/cli/output_file.h"

#include "runtime/npy/npy.h"

namespace tujit::cli {

std::optional<Diagnostic> write_output_file(const std::string& path,
                                            std::span<const std::uint8_t> bytes, bool overwrite) {
  return runtime::write_file_atomically(path, bytes, overwrite);
}

} // namespace tujit::cli
