// Shared by `tujit check` and `tujit explain` (docs/cli.md §3, §4): read a spec file, analyze it,
// pick the kernels (`--kernel NAME`), run the kernel checker on each, and build check's JSON
// document.
#pragma once

#include "harness/cli/command.h"
#include "ir/lang/kernel.h"
#include "ir/verify/checked_kernel.h"
#include "ir/verify/kernel_checker.h"

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tujit::cli {

struct CheckedSpec {
  std::optional<ir::SpecAnalysis> analysis;    // set by load_checked
  std::vector<std::size_t> selected;           // indices into analysis.file.kernels
  std::vector<ir::verify::KernelCheck> checks; // one per selected kernel
  Diagnostics shown;                           // front end + verifier diagnostics, in order
  int status() const { return has_errors(shown) ? kExitUserError : kExitOk; }
  /// The selected kernel `n` with its check: what lowering takes.
  ir::verify::CheckedKernel checked(std::size_t n = 0) const {
    return {analysis->file.kernels[selected[n]], checks[n]};
  }
};

/// The options every FILE command shares: `FILE [--kernel NAME] [--json]`.
struct FileCommandOptions {
  /// Set by the caller before parsing: the command takes `PATH…` (check) instead of one FILE.
  bool many = false;
  std::string file;               // the first FILE
  std::vector<std::string> files; // every FILE (one unless `many`)
  std::optional<std::string> kernel;
  bool json = false;
};

/// Parses `tujit CMD FILE [--kernel NAME] [--json]` plus the command's own `extra` options
/// (their values land in `*vm_out`). `usage_tail` follows the shared part of the usage line;
/// `description` is the help text's body. Returns the exit status when the command must stop
/// here (usage error, or --help printed).
std::optional<int>
parse_file_command(std::string_view cmd, std::string_view description,
                   const std::vector<std::string>& args, CommandIO& io, FileCommandOptions& out,
                   const boost::program_options::options_description* extra = nullptr,
                   std::string_view usage_tail = {},
                   boost::program_options::variables_map* vm_out = nullptr);

/// Reads and checks `path`; on a usage/I-O problem prints `cmd: …` on io.err and returns the exit
/// status (kExitUsage) instead.
std::optional<int> load_checked(std::string_view cmd, const std::string& path,
                                const std::optional<std::string>& kernel, CommandIO& io,
                                CheckedSpec& out);

/// For commands that act on ONE kernel (run, compile, cycles): load_checked, then print the
/// diagnostics and return 1 when the kernel has errors, or a usage error when the file holds no
/// kernel or several and no --kernel picked one. Otherwise prints the warnings, sets `*kernel`
/// and returns nothing.
std::optional<int> load_one_kernel(std::string_view cmd, const FileCommandOptions& opt,
                                   CommandIO& io, CheckedSpec& out, const ir::Kernel** kernel);

/// check's JSON document: {"kernels": [{name, ok, stages: [{op, derived, line, col, output,
/// notes}], driver: [same, for the driver code that builds the kernel's inputs, when there is
/// one]}], "diagnostics": [{severity, code, stage, message, file, line, col, notes}]}.
nlohmann::json check_json(const CheckedSpec& c);

} // namespace tujit::cli
