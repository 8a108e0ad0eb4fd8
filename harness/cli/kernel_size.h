// The size limit of `tujit run` (run_limits.h) for the commands that lower, compile or time a
// kernel without running it — explain, cycles, compile, bench. Lowering and the cycle models
// walk the kernel's streams, so their time and memory grow with the tensors; a kernel `run`
// refuses as too large is refused by them too, from the types alone, before anything is
// allocated (E-LIMIT-002, exit 1). `--max-bytes` raises the limit as it does for `run`.
#pragma once

#include "harness/cli/command.h"
#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"

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

/// E-LIMIT-002 when running `kernel` (without --verify) would need more than `max_bytes`
/// (run_limits.h check_run_size); nullopt when it fits, or when it is no kernel `run` could
/// execute (then nothing sizes it, and the command's own checks refuse it).
std::optional<Diagnostic> kernel_size_error(const ir::SpecFile& file, const ir::Kernel& kernel,
                                            std::uint64_t max_bytes);

} // namespace tujit::cli
