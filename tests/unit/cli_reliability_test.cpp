// The commands as a hostile or unlucky user meets them: outputs checked before any work and
// never replacing a non-regular file, errors that name their real cause (a full disk through the
// writer's fault-injection hook), gnuplot that draws nothing, validated options, a JSON document
// on every --json failure, and the size limit of `run` in every command that lowers a kernel.
#include "harness/cli/option_values.h"
#include "runtime/io/output_file.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>

namespace fs = std::filesystem;
using namespace tujit;
using testing::CliRun;
using testing::in_child;
using testing::run_tujit;
using testing::source_path;
using testing::TempDir;

namespace {

const std::string kBmatmul = source_path("specs/bmatmul_m_in_time.rs");
// A kernel the stage verifiers refuse (exit 1 when it is checked).
const std::string kInvalid = source_path("specs/invalid/invalid_lane_mapping.rs");

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

/// bmatmul_m_in_time with M = `m`: its tensors grow with M, its types stay valid (its cycle
/// budget comment, which holds for M = 32, is dropped).
std::string bmatmul_with_m(std::uint64_t m) {
  const std::string text = std::regex_replace(slurp(kBmatmul), std::regex("// tujit:[^\n]*"), "");
  return std::regex_replace(text, std::regex("M = 32,"), "M = " + std::to_string(m) + ",");
}

struct FaultScope {
  explicit FaultScope(runtime::io::WriteFault f) { runtime::io::set_write_fault(f); }
  ~FaultScope() { runtime::io::set_write_fault(std::nullopt); }
};

} // namespace

TEST_CASE("outputs: an existing file is refused before any work, without --force",
          "[reliability]") {
  TempDir dir("rel_exists");
  const std::string out = dir.file("out", "keep me");
  // The kernel is invalid: had the work run first, it would have ended in its exit 1.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"run", kInvalid, "--output", out},
           {"compile", kInvalid, "-o", out},
           {"cycles", kInvalid, "--timeline", out},
       }) {
    INFO(args[0]);
    const CliRun r = run_tujit(args);
    CHECK(r.status == cli::kExitUsage);
    CHECK(r.err.find("E-IO-002") != std::string::npos);
    CHECK(r.err.find("error[") == r.err.rfind("error[")); // E-IO-002 alone: no kernel error
    CHECK(slurp(out) == "keep me");
  }
}

TEST_CASE("outputs: --force never replaces a directory, device or link", "[reliability]") {
  TempDir dir("rel_special");
  const std::string victim = dir.file("victim.txt", "precious");
  const std::string link = (dir.path / "link.npy").string();
  fs::create_symlink(victim, link);
  for (const std::string& target : {link, dir.path.string(), std::string("/dev/null")}) {
    INFO(target);
    const CliRun r = run_tujit({"run", kBmatmul, "--output", target, "--force"});
    CHECK(r.status == cli::kExitUsage);
    CHECK(r.err.find("E-IO-003") != std::string::npos);
    CHECK(r.err.find("pass --force") == std::string::npos);
  }
  CHECK(fs::is_symlink(link));
  CHECK(slurp(victim) == "precious");
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("outputs: errors name their real cause, and only an existing file suggests --force",
          "[reliability]") {
  TempDir dir("rel_cause");
  const std::string missing = (dir.path / "no_such_dir" / "out.npy").string();
  CliRun r = run_tujit({"run", kBmatmul, "--output", missing});
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("E-IO-004") != std::string::npos);
  CHECK(r.err.find("does not exist") != std::string::npos);
  CHECK(r.err.find("--force") == std::string::npos);
  // A disk that fills up while the output is written: exit 2, the cause, nothing left behind.
  const std::string out = (dir.path / "out.npy").string();
  {
    FaultScope full({runtime::io::WriteStep::Write, ENOSPC, 100});
    r = run_tujit({"run", kBmatmul, "--output", out});
  }
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("no space left on the device") != std::string::npos);
  CHECK(r.err.find("--force") == std::string::npos);
  CHECK(entries(dir.path) == 0);
  {
    FaultScope full({runtime::io::WriteStep::Write, ENOSPC, 0});
    r = run_tujit({"compile", kBmatmul, "--emit", "seq", "-o", out});
  }
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("no space left on the device") != std::string::npos);
  CHECK(entries(dir.path) == 0);
}

TEST_CASE("pictures: a full disk or a gnuplot that draws nothing is an error, not \"written\"",
          "[reliability]") {
  TempDir dir("rel_svg");
  const std::string svg = (dir.path / "t.svg").string();
  const std::string gemm = source_path("specs/derived/gemm_kernel.rs");
  CliRun r;
  {
    FaultScope full({runtime::io::WriteStep::Write, ENOSPC, 0});
    r = run_tujit({"cycles", gemm, "--timeline", svg});
  }
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("E-IO-004") != std::string::npos);
  CHECK(r.err.find("no space left on the device") != std::string::npos);
  CHECK(r.err.find("timeline written") == std::string::npos);
  CHECK(entries(dir.path) == 0);
  // A "gnuplot" that exits 0 without drawing.
  const std::string fake = dir.file("gnuplot", "#!/bin/sh\nexit 0\n");
  fs::permissions(fake, fs::perms::owner_all);
  ::setenv("TUJIT_GNUPLOT", fake.c_str(), 1);
  r = run_tujit({"cycles", gemm, "--timeline", svg});
  ::unsetenv("TUJIT_GNUPLOT");
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("E-CYCLES-002") != std::string::npos);
  CHECK(r.err.find("drew nothing") != std::string::npos);
  CHECK_FALSE(fs::exists(svg));
  // The real one draws; a second run needs --force.
  r = run_tujit({"cycles", gemm, "--timeline", svg});
  REQUIRE(r.status == cli::kExitOk);
  CHECK(slurp(svg).find("</svg>") != std::string::npos);
  r = run_tujit({"cycles", gemm, "--timeline", svg});
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("E-IO-002") != std::string::npos);
  CHECK(run_tujit({"cycles", gemm, "--timeline", svg, "--force"}).status == cli::kExitOk);
}

TEST_CASE("options: thread counts and duplicate inputs are usage errors", "[reliability]") {
  const std::string max = std::to_string(cli::max_thread_count());
  const std::string over = std::to_string(cli::max_thread_count() + 1);
  for (const std::string& bad :
       {std::string("-1"), over, std::string("100000"), std::string("two"), std::string("")}) {
    INFO("--threads '" << bad << "'");
    CliRun r = run_tujit({"run", kBmatmul, "--threads", bad});
    CHECK(r.status == cli::kExitUsage);
    CHECK(r.err.find("--threads") != std::string::npos);
    r = run_tujit({"bench", kBmatmul, "--threads", bad});
    CHECK(r.status == cli::kExitUsage);
  }
  CHECK(run_tujit({"run", kBmatmul, "--threads", max}).status == cli::kExitOk);
  TempDir dir("rel_inputs");
  const CliRun r = run_tujit({"run", kBmatmul, "--input", "trf=" + dir.file("a.npy", "x"),
                              "--input", "trf=" + dir.file("b.npy", "y")});
  CHECK(r.status == cli::kExitUsage);
  CHECK(r.err.find("'trf' twice") != std::string::npos);
}

TEST_CASE("json: every command with --json prints one JSON document, also when it fails",
          "[reliability]") {
  const std::vector<std::vector<std::string>> failing = {
      {"run", kInvalid, "--json"},    // the kernel is refused (was: nothing)
      {"cycles", kInvalid, "--json"}, // (was: nothing)
      {"run", kBmatmul, "--json", "--threads", "-1"},
      {"run", kBmatmul, "--json", "--engine", "gpu"},
      {"run", source_path("specs/no_such_file.rs"), "--json"},
      {"check", kBmatmul, "--json", "--no-such-option"},
      {"explain", kBmatmul, "--json", "--kernel", "nope"},
      {"cycles", source_path("specs/store_vrf.rs"), "--json"},
      {"map", "--json"},
      {"seq", "--json"},
      {"stage", "contract_time", "--json"},
      {"version", "--json", "--bogus"},
      {"bench", "--sweep", source_path("no_such.toml"), "--json", "-"},
  };
  for (const auto& args : failing) {
    std::string shown;
    for (const auto& a : args) shown += a + " ";
    INFO(shown);
    const CliRun r = run_tujit(args);
    CHECK(r.status != cli::kExitOk);
    nlohmann::json doc;
    REQUIRE_NOTHROW(doc = r.json());
    REQUIRE(doc.contains("diagnostics"));
    REQUIRE(!doc["diagnostics"].empty());
    for (const auto& d : doc["diagnostics"]) {
      CHECK(d["code"].get<std::string>().starts_with("E-"));
      CHECK(!d["message"].get<std::string>().empty());
    }
  }
  // The refused kernel's own diagnostic, as `check --json` reports it, with its location.
  const auto doc = run_tujit({"run", kInvalid, "--json"}).json();
  const auto checked = run_tujit({"check", kInvalid, "--json"}).json();
  CHECK(doc["exit_status"] == 1);
  CHECK(doc["diagnostics"][0]["code"] == checked["diagnostics"][0]["code"]);
  CHECK(doc["diagnostics"][0]["line"] == checked["diagnostics"][0]["line"]);
  CHECK(doc["diagnostics"][0]["line"].get<int>() > 0);
}

TEST_CASE("limits: explain, cycles, compile and bench refuse a kernel too large to run, from "
          "its types",
          "[reliability]") {
  TempDir dir("rel_limits");
  // M = 2^32: `explain` ran past 10 minutes at 12.6 GB before; each command now answers at once.
  const std::string huge = dir.file("huge.rs", bmatmul_with_m(std::uint64_t{1} << 32));
  const std::vector<std::vector<std::string>> commands = {
      {"explain", huge},
      {"cycles", huge},
      {"compile", huge, "--emit", "seq"},
      {"compile", huge, "--emit", "asm"},
      {"bench", huge},
  };
  for (const auto& args : commands) {
    INFO(args[0] << " " << args.back());
    const int status = in_child([&] {
      const CliRun r = run_tujit(args);
      return r.status == cli::kExitUserError && r.err.find("E-LIMIT-002") != std::string::npos ? 0
                                                                                               : 1;
    });
    CHECK(status == 0);
  }
  // --max-bytes sets the limit as for `run`: with M = 2^10 the stream's logical tensor alone is
  // 32 x 1024 x 32 bf16 elements (2 MiB).
  const std::string small = dir.file("small.rs", bmatmul_with_m(1024));
  CHECK(run_tujit({"cycles", small, "--max-bytes", "2M"}).status == cli::kExitUserError);
  CHECK(run_tujit({"cycles", small, "--max-bytes", "16M"}).status == cli::kExitOk);
  const CliRun e = run_tujit({"explain", huge});
  CHECK(e.out.find("contract_lane") != std::string::npos); // the stages are still shown
  CHECK(e.out.find("Sequencer IR (tujit compile") == std::string::npos);
}

TEST_CASE("outputs: a real file-size limit (ulimit -f) ends in E-IO-004, not a cut file",
          "[reliability]") {
  // The kernel's assembly is some hundred KiB; the limit lets 4 KiB through. Run as a separate
  // tujit process: the limit and the EFBIG it causes are the system's, no fault is injected.
  TempDir dir("rel_fsize");
  const std::string out = (dir.path / "k.s").string();
  const std::string err = (dir.path / "err.txt").string();
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, STDERR_FILENO);
    ::execl(TUJIT_BINARY, TUJIT_BINARY, "compile", kBmatmul.c_str(), "--emit", "asm", "-o",
            out.c_str(), static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  const std::string text = slurp(err);
  INFO(text);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == cli::kExitUsage);
  CHECK(text.find("E-IO-004") != std::string::npos);
  CHECK(text.find("file-size limit") != std::string::npos);
  CHECK(entries(dir.path) == 1); // err.txt alone: no k.s, no temporary
}
