// What `tujit run --max-bytes` bounds is what the process really holds (docs/cli.md §6,
// docs/design.md §5.5): the limit the command states for a kernel is exactly the one it accepts,
// and a run's peak resident set stays within that footprint of the bare process plus a fixed
// working set. Measured on separate tujit processes, with nothing injected: each is the child of
// the small launcher tests/probe/peak_rss.cpp, whose wait4 reads the child's ru_maxrss (a process
// the suite forked itself would report at least the suite's own resident set).
#include "tests/support/cli_capture.h"
#include "tests/support/text_file.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using tujit::testing::TempDir;

struct ChildRun {
  int status = -1;             // exit status, or -1 when the child did not exit normally
  std::uint64_t max_rss_b = 0; // peak resident set (ru_maxrss)
  std::string err;
};

// Runs TUJIT_BINARY with `args` under TUJIT_PEAK_RSS, stderr to `err_path`, the object cache in
// `cache`; the launcher's report file sits beside `err_path`.
ChildRun run_child(const std::vector<std::string>& args, const std::string& cache,
                   const std::string& err_path) {
  const std::string report = err_path + ".rss";
  std::vector<std::string> words = {TUJIT_PEAK_RSS, report, TUJIT_BINARY};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t launcher = ::fork();
  REQUIRE(launcher >= 0);
  if (launcher == 0) {
    ::setenv("TUJIT_CACHE_DIR", cache.c_str(), 1);
    const int fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(fd, STDERR_FILENO);
    ::dup2(null, STDOUT_FILENO);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
  }
  int status = 0;
  REQUIRE(::waitpid(launcher, &status, 0) == launcher);
  ChildRun r;
  r.err = tujit::testing::read_text_file(err_path);
  INFO(r.err);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::istringstream in(tujit::testing::read_text_file(report));
  REQUIRE(static_cast<bool>(in >> r.status >> r.max_rss_b));
  return r;
}

} // namespace

TEST_CASE("run memory: --max-bytes is the footprint the run really holds", "[run][memory]") {
  TempDir dir("run_memory");
  // The book's batched matmul with M = 2^14: a 32 MiB bf16 input and a 16 MiB f32 output, so
  // that the tensors dominate the process's fixed size.
  std::string text =
      tujit::testing::read_text_file(tujit::testing::source_path("specs/bmatmul_m_in_time.rs"));
  text = std::regex_replace(text, std::regex("// tujit:[^\n]*"), "");
  text = std::regex_replace(text, std::regex("M = 32,"), "M = 16384,");
  const std::string spec = dir.file("big.rs", text);
  const std::string cache = (dir.path / "cache").string();
  const std::string err = (dir.path / "err.txt").string();

  // The footprint the command states when it refuses: "needs X MiB (N bytes)".
  const ChildRun refused = run_child({"run", spec, "--max-bytes", "1M"}, cache, err);
  INFO(refused.err);
  REQUIRE(refused.status == 1);
  std::smatch m;
  REQUIRE(std::regex_search(refused.err, m, std::regex(R"(needs [^(]*\((\d+) bytes\))")));
  const std::uint64_t footprint = std::stoull(m[1].str());
  CHECK(footprint >= (std::uint64_t{48} << 20)); // the input and the output at least

  // Exactly the footprint is accepted, one byte less is not.
  const std::string exact = std::to_string(footprint);
  const std::string less = std::to_string(footprint - 1);
  CHECK(run_child({"run", spec, "--threads", "1", "--max-bytes", less}, cache, err).status == 1);
  REQUIRE(run_child({"run", spec, "--threads", "1", "--max-bytes", exact}, cache, err).status ==
          0); // also fills the object cache: the measured run below loads its object
  const ChildRun run = run_child({"run", spec, "--threads", "1", "--max-bytes", exact}, cache, err);
  REQUIRE(run.status == 0);
  const ChildRun bare = run_child({"version"}, cache, err);
  REQUIRE(bare.status == 0);

  // The run holds at least its output whole (32 × 16384 × 8 f32 cells: 16 MiB; the seeded
  // input is made slice by slice where it is read, README "Performance"), and beyond its tensors
  // (the footprint) and the bare process at most a 32 MiB working set (the JIT's loaded object,
  // the thread's stack, allocator slack).
  const std::uint64_t extra = run.max_rss_b - std::min(run.max_rss_b, bare.max_rss_b);
  INFO("footprint " << footprint << " B, run peak RSS " << run.max_rss_b << " B, bare process "
                    << bare.max_rss_b << " B");
  CHECK(extra >= (std::uint64_t{16} << 20));
  CHECK(extra <= footprint + (std::uint64_t{32} << 20));
}
