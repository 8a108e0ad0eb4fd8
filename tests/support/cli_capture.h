// Running the `tujit` command in-process for CLI tests: the exit status and both output streams,
// paths of the source tree, and a scratch directory for the files a command reads or writes.
#pragma once

#include "harness/cli/command.h"

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace tujit::testing {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
  /// stdout parsed as JSON (the `--json` documents of docs/cli.md).
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

/// `tujit args…` through run_cli with captured stdout / stderr.
inline CliRun run_tujit(std::vector<std::string> args) {
  std::ostringstream out, err;
  cli::CommandIO io{out, err};
  args.insert(args.begin(), "tujit");
  const int status = cli::run_cli(args, io);
  return {status, out.str(), err.str()};
}

/// One subcommand, for its tests: `const TujitCommand check{"check"};` then
/// `check({file, "--json"})` runs `tujit check FILE --json`.
struct TujitCommand {
  std::string command;
  CliRun operator()(std::vector<std::string> args) const {
    args.insert(args.begin(), command);
    return run_tujit(std::move(args));
  }
};

/// A path of the source tree (specs, corpora).
inline std::string source_path(const std::string& rel) {
  return (std::filesystem::path(TUJIT_SOURCE_DIR) / rel).string();
}

/// A fresh temporary directory `tujit_<name>_<pid>` (the pid keeps parallel test processes
/// apart), removed with its contents at scope end.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("tujit_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  /// The path of `name` in the directory; with `text`, the file is (re)written to hold it.
  std::string file(const std::string& name, const std::string& text = "") const {
    const std::filesystem::path p = path / name;
    if (!text.empty()) std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
};

/// Runs `body` in a forked child that an alarm ends after `seconds`, so an input that would hang
/// fails the test instead of stopping the suite. The child's exit status (body's result),
/// 128 + the signal that ended it, or -1 when no child could be started.
inline int in_child(const std::function<int()>& body, unsigned seconds = 20) {
  const pid_t child = ::fork();
  if (child < 0) return -1;
  if (child == 0) {
    ::alarm(seconds);
    std::_Exit(body());
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace tujit::testing
