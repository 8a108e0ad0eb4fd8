// Values of options several commands share, validated before any work (exit 2 on a bad one).
#pragma once

#include "harness/cli/command.h"

#include <boost/program_options/variables_map.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace tujit::cli {

/// The most worker threads a command accepts: 4 × the hardware threads (over-subscribing a
/// little can help a loaded machine; thousands of threads only exhaust it).
unsigned max_thread_count();

/// `--threads` values: "0" (every hardware thread) or 1 … max_thread_count(), as a decimal
/// number. nullopt for a negative, non-numeric or larger value.
std::optional<unsigned> parse_thread_count(std::string_view text);

/// "--threads '-1' is not 0 (every hardware thread) or a count from 1 to 8".
std::string thread_count_error(std::string_view text);

/// The path of the output option `option`, when given, checked before any work
/// (runtime/io/output_file.h check_output_path, replacing a file only with --force): the exit
/// status (kExitUsage, the diagnostic reported) when it cannot be written.
std::optional<int> check_output_option(const boost::program_options::variables_map& vm,
                                       const char* option, CommandIO& io);

} // namespace tujit::cli
