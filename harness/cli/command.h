// The `tujit` command: git/cargo-style subcommands (docs/cli.md). Each subcommand lives in its
// own file under harness/cli/ and is listed once in commands.cpp.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::cli {

/// Exit statuses of docs/cli.md §1.
enum ExitCode : int {
  kExitOk = 0,
  kExitUserError = 1, // the kernel / input is wrong; diagnostics printed
  kExitUsage = 2,     // usage or I/O error
  kExitInternal = 3,  // a bug in tujit; the message says so
};

struct CommandIO {
  std::ostream& out; // with --json: exactly one JSON document
  std::ostream& err; // diagnostics, progress, logs
};

struct Command {
  std::string_view name;
  std::string_view summary;
  /// `args` excludes the program and subcommand names.
  int (*run)(const std::vector<std::string>& args, CommandIO& io);
};

/// Every subcommand, in the order `tujit --help` lists them.
const std::vector<Command>& commands();

/// The whole command line: `argv[0] SUB args…`. Never throws; internal errors become exit 3.
int run_cli(const std::vector<std::string>& argv, CommandIO& io);

// Subcommand entry points (one file each).
int run_bench(const std::vector<std::string>& args, CommandIO& io);
int run_check(const std::vector<std::string>& args, CommandIO& io);
int run_cycles(const std::vector<std::string>& args, CommandIO& io);
int run_compile(const std::vector<std::string>& args, CommandIO& io);
int run_explain(const std::vector<std::string>& args, CommandIO& io);
int run_map(const std::vector<std::string>& args, CommandIO& io);
int run_run(const std::vector<std::string>& args, CommandIO& io);
int run_seq(const std::vector<std::string>& args, CommandIO& io);
int run_stage(const std::vector<std::string>& args, CommandIO& io);
int run_version(const std::vector<std::string>& args, CommandIO& io);

} // namespace tujit::cli
