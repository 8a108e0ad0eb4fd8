// Boost.Program_options for a subcommand whose positional arguments are all of one kind (files):
// the parse, and the usage error every command prints the same way (docs/cli.md §1: exit status 2).
#pragma once

#include "harness/cli/command.h"

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::cli {

/// Parses `args` against `options`, collecting every positional argument as a
/// std::vector<std::string> under the hidden option `positional`. On a parse error prints
/// "tujit CMD: what" and `usage` on io.err and returns kExitUsage; nothing when parsed.
std::optional<int> parse_command_line(std::string_view cmd, const std::vector<std::string>& args,
                                      const boost::program_options::options_description& options,
                                      const char* positional, std::string_view usage, CommandIO& io,
                                      boost::program_options::variables_map& vm);

/// The end of every command's `--help`: hands `options` (the table the command parses with) to
/// io.help_table when set, so the man page and shell completion list exactly these options.
void note_help_table(const boost::program_options::options_description& options, CommandIO& io);

} // namespace tujit::cli
