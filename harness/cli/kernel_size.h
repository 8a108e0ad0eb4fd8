// `--max-bytes` for the commands that lower, compile or time a kernel without running it —
// explain, cycles, compile, bench, tune: the size limit of `tujit run`, checked from the types
// alone before anything is allocated (harness/run/run_footprint.h kernel_size_error, E-LIMIT-002,
// exit 1). `--max-bytes` raises the limit as it does for `run`.
#pragma once

#include "harness/cli/command.h"

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace tujit::cli {

/// Adds `--max-bytes SIZE` (default: run's 4GiB).
void add_max_bytes_option(boost::program_options::options_description& options);
/// The option's value; prints the usage error and returns nullopt when it is malformed.
std::optional<std::uint64_t> max_bytes_option(const boost::program_options::variables_map& vm,
                                              std::string_view cmd, CommandIO& io);

} // namespace tujit::cli
