// The one output writer (runtime/io/output_file.h), tried as a hostile or unlucky user would:
// existing and non-regular targets, a planted symbolic link, concurrent writers, a full disk at
// every step (through the fault-injection hook, so no privileges are needed), a missing
// directory, and a signal while a file is being written.
#include "runtime/io/interrupt.h"
#include "runtime/io/output_file.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

namespace fs = std::filesystem;
namespace io = tujit::runtime::io;
using tujit::testing::TempDir;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Every name in `dir`.
std::set<std::string> names_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

bool mentions(const tujit::Diagnostic& d, const std::string& text) {
  if (d.message.find(text) != std::string::npos) return true;
  for (const auto& n : d.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

/// Clears the injected fault at scope end, whatever the test does.
struct FaultScope {
  explicit FaultScope(io::WriteFault f) { io::set_write_fault(f); }
  ~FaultScope() { io::set_write_fault(std::nullopt); }
};

} // namespace

TEST_CASE("writer: a new file, an existing one refused without --force, replaced with it", "[io]") {
  TempDir dir("io_out_basic");
  const std::string path = dir.file("out.txt");
  CHECK_FALSE(io::check_output_path(path, false));
  REQUIRE_FALSE(io::write_file(path, std::string_view("first"), false));
  CHECK(slurp(path) == "first");
  auto again = io::write_file(path, std::string_view("second"), false);
  REQUIRE(again);
  CHECK(again->code == "E-IO-002");
  CHECK(mentions(*again, "--force"));
  CHECK(slurp(path) == "first");
  REQUIRE_FALSE(io::write_file(path, std::string_view("second"), true));
  CHECK(slurp(path) == "second");
  CHECK(names_in(dir.path) == std::set<std::string>{"out.txt"}); // no temporary left
  // The file gets the permissions of any file the user writes (0666 less the umask).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  CHECK((fs::status(path).permissions() & fs::perms::all) == static_cast<fs::perms>(0666 & ~mask));
}

TEST_CASE("writer: a target that is not a regular file is never replaced, --force or not", "[io]") {
  TempDir dir("io_out_special");
  const std::string victim = dir.file("victim.txt", "precious");
  const std::string link = (dir.path / "link.npy").string();
  fs::create_symlink(victim, link);
  const std::string sub = (dir.path / "sub").string();
  fs::create_directory(sub);
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& target : {link, sub, fifo, std::string("/dev/null")}) {
    for (bool force : {false, true}) {
      INFO(target << (force ? " --force" : ""));
      auto checked = io::check_output_path(target, force);
      REQUIRE(checked);
      CHECK(checked->code == "E-IO-003");
      CHECK_FALSE(mentions(*checked, "pass --force"));
      auto written = io::write_file(target, std::string_view("data"), force);
      REQUIRE(written);
      CHECK(written->code == "E-IO-003");
    }
  }
  CHECK(fs::is_symlink(link));
  CHECK(slurp(victim) == "precious");
  CHECK(fs::is_directory(sub));
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("writer: a symbolic link planted at a temporary's name redirects nothing", "[io]") {
  TempDir dir("io_out_planted");
  const std::string victim = dir.file("victim.txt", "precious");
  const std::string path = (dir.path / "out.npy").string();
  // The name earlier versions used, and links in every name of the temporary's pattern a
  // guessing attacker could plant are useless: the temporary is created O_EXCL|O_NOFOLLOW.
  fs::create_symlink(victim, path + ".tujit-tmp");
  fs::create_symlink(victim, (dir.path / ".out.npy.tujit-aaaaaaaa").string());
  REQUIRE_FALSE(io::write_file(path, std::string_view("npy data"), false));
  CHECK(slurp(path) == "npy data");
  CHECK(slurp(victim) == "precious");
}

TEST_CASE("writer: concurrent writers of one path each publish a whole file", "[io]") {
  TempDir dir("io_out_race");
  const std::string path = (dir.path / "out.bin").string();
  // Two writers of different sizes and contents; whoever renames last wins, but the file is
  // always one writer's complete bytes, never a mixture (the fixed temporary name mixed them).
  const std::string a(300000, 'a'), b(200000, 'b');
  for (int round = 0; round < 20; ++round) {
    std::optional<tujit::Diagnostic> ra, rb;
    std::thread ta([&] { ra = io::write_file(path, std::string_view(a), true); });
    std::thread tb([&] { rb = io::write_file(path, std::string_view(b), true); });
    ta.join();
    tb.join();
    CHECK_FALSE(ra);
    CHECK_FALSE(rb);
    const std::string got = slurp(path);
    CHECK((got == a || got == b));
  }
  CHECK(names_in(dir.path) == std::set<std::string>{"out.bin"});
}

TEST_CASE("writer: without --force, a file that appears during the work is not replaced", "[io]") {
  TempDir dir("io_out_appeared");
  const std::string path = (dir.path / "out.json").string();
  auto f = io::OutputFile::create(path, false);
  REQUIRE(f.ok());
  REQUIRE_FALSE(f->write(std::string_view("{}")));
  dir.file("out.json", "someone else's");
  auto d = f->commit();
  REQUIRE(d);
  CHECK(d->code == "E-IO-002");
  CHECK(slurp(path) == "someone else's");
  CHECK(names_in(dir.path) == std::set<std::string>{"out.json"});
}

TEST_CASE("writer: a full disk or failing device at every step names the real cause and leaves "
          "nothing behind",
          "[io]") {
  TempDir dir("io_out_fault");
  const std::string path = dir.file("out.npy", "old contents");
  struct Case {
    io::WriteStep step;
    int error;
    std::uint64_t after;
    const char* cause;
  };
  const Case cases[] = {
      {io::WriteStep::Create, EDQUOT, 0, "disk quota"},
      {io::WriteStep::Write, ENOSPC, 0, "no space left on the device"},
      {io::WriteStep::Write, ENOSPC, 4096, "no space left on the device"}, // fills up mid-file
      {io::WriteStep::Write, EFBIG, 100, "file-size limit"},
      {io::WriteStep::Sync, EIO, 0, "input/output error"},
      {io::WriteStep::Close, ENOSPC, 0, "no space left on the device"}, // NFS reports at close
      {io::WriteStep::Rename, EROFS, 0, "read-only file system"},
  };
  const std::string data(10000, 'x');
  for (const Case& c : cases) {
    INFO("step " << static_cast<int>(c.step) << ", errno " << c.error);
    std::optional<tujit::Diagnostic> d;
    {
      FaultScope fault({c.step, c.error, c.after});
      d = io::write_file(path, std::string_view(data), true);
    }
    REQUIRE(d);
    CHECK(d->code == "E-IO-004");
    CHECK(mentions(*d, c.cause));
    CHECK(mentions(*d, path));
    CHECK_FALSE(mentions(*d, "--force"));
    CHECK(slurp(path) == "old contents");
    CHECK(names_in(dir.path) == std::set<std::string>{"out.npy"});
  }
  // With the fault gone, the same write succeeds.
  REQUIRE_FALSE(io::write_file(path, std::string_view(data), true));
  CHECK(slurp(path) == data);
}

TEST_CASE("writer: a missing or unusable directory is named, before any work", "[io]") {
  TempDir dir("io_out_dir");
  const std::string missing = (dir.path / "no" / "such" / "out.csv").string();
  auto d = io::check_output_path(missing, false);
  REQUIRE(d);
  CHECK(d->code == "E-IO-004");
  CHECK(mentions(*d, "does not exist"));
  CHECK(mentions(*d, (dir.path / "no" / "such").string()));
  CHECK_FALSE(mentions(*d, "--force"));
  const std::string file = dir.file("plain", "x");
  auto under_file = io::check_output_path(file + "/out.csv", true);
  REQUIRE(under_file);
  CHECK(under_file->code == "E-IO-004");
  CHECK(mentions(*under_file, "is not a directory"));
}

TEST_CASE("writer: SIGTERM or SIGINT while a file is written removes its temporary", "[io]") {
  for (int sig : {SIGTERM, SIGINT}) {
    INFO("signal " << sig);
    TempDir dir("io_out_signal");
    const std::string path = (dir.path / "out.npy").string();
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      std::signal(sig, SIG_DFL); // the test framework's own handler would catch it
      auto f = io::OutputFile::create(path, false);
      if (!f || f->write(std::string_view("half of it"))) std::_Exit(10);
      if (!fs::exists(f->temporary())) std::_Exit(11);
      std::raise(sig); // the temporary's cleanup runs in the handler, then the process dies
      std::_Exit(12);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(names_in(dir.path).empty());
  }
}

TEST_CASE("interrupts: inside a GracefulStop the first signal only asks to stop", "[io]") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    std::signal(SIGINT, SIG_DFL); // the test framework's own handler would catch it
    {
      io::GracefulStop graceful;
      std::raise(SIGINT);
      if (io::stop_requested() != SIGINT) std::_Exit(20);
      std::raise(SIGINT); // a second one ends the process
    }
    std::_Exit(21);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGINT);
}
