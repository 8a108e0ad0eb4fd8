// The man page tujit(1) and the bash completion of `tujit`, generated from the option tables the
// commands parse with: each command is asked for its --help and hands over that table
// (note_help_table, command_line.h), so what is installed cannot drift from the command line.
// The build runs `tujit help --man` and `tujit help --bash-completion` (docs/cli.md §15).
#pragma once

#include "harness/cli/command.h"

#include <string>
#include <vector>

namespace tujit::cli {

/// One option of a command's table.
struct OptionDoc {
  std::vector<std::string> names; // as typed: "-h", "--help"
  std::string parameter;          // Boost's rendering of the value: "arg (=jit)", or empty
  std::string description;
};

/// One subcommand: its --help text before the option list (usage and description) and its
/// options, in the order --help lists them.
struct CommandDoc {
  const Command* command = nullptr;
  std::string preamble;
  std::vector<OptionDoc> options;
};

/// Every subcommand of commands(), in its order. Throws std::logic_error for a command whose
/// --help fails or hands over no option table.
std::vector<CommandDoc> command_docs();

/// tujit(1) in roff (man(7) macros).
std::string man_page(const std::vector<CommandDoc>& docs);

/// A bash completion script: the subcommands, then each subcommand's options; other words
/// complete as file names.
std::string bash_completion(const std::vector<CommandDoc>& docs);

} // namespace tujit::cli
