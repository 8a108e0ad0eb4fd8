// The `tujit` command: git/cargo-style subcommands (docs/cli.md). Each subcommand lives in its
// own file under harness/cli/ and is listed once in commands.cpp.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace boost::program_options {
class options_description;
} // namespace boost::program_options

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
  /// The diagnostics report() printed (diagnostic_json.h), each as the serialized JSON object of
  /// a `diagnostics[]` entry: run_cli puts them into the JSON document of a --json command
  /// that fails without printing one.
  std::vector<std::string> reported = {};
  /// Set by the man page and shell completion generators (cli_reference.h): a command printing
  /// its --help hands the option table it parses with here (show_help, command_line.h).
  std::function<void(const boost::program_options::options_description&)> help_table = {};
};

/// How a command's --json reaches stdout.
enum class JsonOption : unsigned char {
  Flag,       // `--json`: stdout is one JSON document
  PathOrDash, // `--json PATH`; `--json -` = stdout (bench)
};

struct Command {
  std::string_view name;
  std::string_view summary;
  /// `args` excludes the program and subcommand names.
  int (*run)(const std::vector<std::string>& args, CommandIO& io);
  JsonOption json = JsonOption::Flag;
};

/// Every subcommand, in the order `tujit --help` lists them.
const std::vector<Command>& commands();

/// The whole command line: `argv[0] SUB args…`. Never throws; internal errors become exit 3.
/// When the command's JSON goes to stdout and it fails (exit 1, 2 or 3) without printing
/// anything there, run_cli prints {"command", "ok": false, "exit_status", "diagnostics"} (the
/// diagnostics it reported, else one E-USAGE-001 / E-INTERNAL-001 holding its error message),
/// so a script always reads one JSON document.
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
int run_tune(const std::vector<std::string>& args, CommandIO& io);
int run_version(const std::vector<std::string>& args, CommandIO& io);

} // namespace tujit::cli
