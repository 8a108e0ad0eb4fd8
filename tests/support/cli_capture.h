// Running the `tujit` command in-process for CLI tests: the exit status and both output streams.
#pragma once

#include "harness/cli/command.h"

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace tujit::testing {

struct CliRun {
  int status;
  std::string out;
  std::string err;
};

/// `tujit args…` through run_cli with captured stdout / stderr.
inline CliRun run_tujit(std::vector<std::string> args) {
  std::ostringstream out, err;
  cli::CommandIO io{out, err};
  args.insert(args.begin(), "tujit");
  const int status = cli::run_cli(args, io);
  return {status, out.str(), err.str()};
}

/// A path of the source tree (specs, corpora).
inline std::string source_path(const std::string& rel) {
  return (std::filesystem::path(TUJIT_SOURCE_DIR) / rel).string();
}

} // namespace tujit::testing
