// The `tujit` binary as a process: it ends without running static destructors
// (harness/tujit_main.cpp), so everything a command printed or wrote must be out by then. Each
// case runs the binary with stdout and stderr redirected to files (fully buffered streams, so
// nothing reaches them before a flush) and compares what arrived with the same command run in
// this process, and the exit status with the one run_cli returned.
#include "runtime/npy/npy.h"
#include "runtime/tensor/sha256.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace tujit;
using testing::CliRun;
using testing::run_tujit;
using testing::source_path;
using testing::TempDir;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// `tujit args…` as its own process, stdout and stderr into files of `dir`.
CliRun run_binary(const TempDir& dir, const std::vector<std::string>& args) {
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  std::vector<std::string> argv_text{TUJIT_BINARY};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  CliRun r;
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0 || ::dup2(o, STDOUT_FILENO) < 0 || ::dup2(e, STDERR_FILENO) < 0)
      std::_Exit(127);
    ::execv(TUJIT_BINARY, argv.data());
    std::_Exit(127);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  r.status = WEXITSTATUS(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

} // namespace

TEST_CASE("process exit: a long stdout arrives whole", "[cli-exit]") {
  TempDir dir("cli_exit_stdout");
  // The generated LLVM IR: tens of kilobytes, many times the stdio buffer.
  const std::vector<std::string> args{"compile", source_path("specs/bmatmul_m_in_time.rs"),
                                      "--emit", "llvm"};
  const CliRun in_process = run_tujit(args);
  REQUIRE(in_process.status == 0);
  REQUIRE(in_process.out.size() > 16384);
  const CliRun process = run_binary(dir, args);
  INFO(process.err);
  CHECK(process.status == 0);
  CHECK(process.err.empty());
  CHECK(process.out == in_process.out);
}

TEST_CASE("process exit: run --json and its --output file are complete", "[cli-exit]") {
  TempDir dir("cli_exit_run");
  const std::string npy = dir.file("out.npy");
  const CliRun process = run_binary(
      dir, {"run", source_path("specs/matmul.rs"), "--seed", "1", "--output", npy, "--json"});
  INFO(process.err);
  REQUIRE(process.status == 0);
  CHECK(process.err.empty());
  REQUIRE(!process.out.empty());
  CHECK(process.out.back() == '\n');
  const nlohmann::json doc = nlohmann::json::parse(process.out); // the whole document
  auto file = runtime::read_npy_file(npy);
  REQUIRE(file.ok());
  // As a string: clang 19 finds no `std::string == json` under C++20's comparison rules.
  CHECK(runtime::sha256_hex(file->data) == doc["output"]["sha256"].get<std::string>());
  // The same output bytes as the command run in this process.
  const CliRun in_process = run_tujit({"run", source_path("specs/matmul.rs"), "--seed", "1"});
  REQUIRE(in_process.status == 0);
  CHECK(in_process.out.find(doc["output"]["sha256"].get<std::string>()) != std::string::npos);
}

TEST_CASE("process exit: errors keep their text and exit status", "[cli-exit]") {
  TempDir dir("cli_exit_errors");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"version", "--bogus"},
        std::vector<std::string>{"run", dir.file("missing.rs")},
        std::vector<std::string>{"check", source_path("specs/invalid/invalid_lane_mapping.rs"),
                                 "--kernel", "no_such_kernel"}}) {
    const CliRun in_process = run_tujit(args);
    const CliRun process = run_binary(dir, args);
    INFO(args[0] << ": " << process.err);
    CHECK(in_process.status != 0);
    CHECK(process.status == in_process.status);
    CHECK(!process.err.empty());
    CHECK(process.err == in_process.err);
    CHECK(process.out == in_process.out);
  }
}

TEST_CASE("process: tujit version names the commit the binary was built from", "[cli-exit]") {
  TempDir dir("cli_exit_version");
  const CliRun process = run_binary(dir, {"version", "--json"});
  INFO(process.err);
  REQUIRE(process.status == 0);
  const nlohmann::json doc = nlohmann::json::parse(process.out);
  CHECK(doc["tujit"] == TUJIT_VERSION);
  const std::string commit = doc["commit"].get<std::string>();
  CHECK(!commit.empty());
  CHECK(commit.find_first_of(" \n") == std::string::npos);
  // Built from this checkout: git described it (harness/build_commit.cmake).
  if (std::filesystem::exists(source_path(".git"))) CHECK(commit != "unknown");
  CHECK(run_binary(dir, {"version"}).out.find("\ncommit " + commit + "\n") != std::string::npos);
  // Only the executable's main knows its commit (harness/cli/build_commit.h).
  CHECK(run_tujit({"version", "--json"}).json()["commit"] == "unknown");
}
