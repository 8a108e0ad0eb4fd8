// The one place the CI options of `tujit run` (--save-inputs) write a file, so that all of them
// switch together to a stricter writer.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace tujit::cli {

/// Writes `bytes` to `path` whole or not at all; an existing `path` is E-IO-002 unless
/// `overwrite`. nullopt on success.
std::optional<Diagnostic> write_output_file(const std::string& path,
                                            std::span<const std::uint8_t> bytes, bool overwrite);

} // namespace tujit::cli
