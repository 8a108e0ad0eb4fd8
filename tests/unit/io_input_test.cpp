// The one input reader (ir/support/input_file.h) and the commands that read through it: a
// directory, FIFO or device is refused at once with exit 2, sizes are checked before reading,
// and a .npy header is validated before its data is read. Inputs that used to hang (a FIFO
// without a writer) run in a child process with an alarm, so a regression fails instead of
// hanging the suite.
#include "ir/support/input_file.h"
#include "runtime/npy/npy.h"
#include "tests/support/cli_capture.h"

#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <functional>

namespace fs = std::filesystem;
using namespace tujit;
using tujit::testing::in_child;
using tujit::testing::run_tujit;
using tujit::testing::source_path;
using tujit::testing::TempDir;

namespace {

std::string code_of(const Result<std::string>& r) {
  return r ? std::string("ok") : r.diagnostics().front().code;
}

} // namespace

TEST_CASE("reader: directories, FIFOs and devices are refused at once (E-IO-005)", "[io]") {
  TempDir dir("io_in_special");
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string zero_link = (dir.path / "zero.npy").string();
  fs::create_symlink("/dev/zero", zero_link);
  for (const std::string& path : {dir.path.string(), fifo, std::string("/dev/zero"), zero_link}) {
    INFO(path);
    // A FIFO without a writer blocked the old reader forever: the alarm turns that into 142.
    const int status = in_child([&] {
      auto r = read_input_file(path, 1 << 20, "test input");
      return r ? 1 : r.diagnostics().front().code == "E-IO-005" ? 0 : 2;
    });
    CHECK(status == 0);
  }
  CHECK(code_of(read_input_file((dir.path / "missing").string(), 10, "x")) == "E-IO-001");
}

TEST_CASE("reader: the size is checked before reading, and read exactly", "[io]") {
  TempDir dir("io_in_size");
  const std::string path = dir.file("ten.txt", "0123456789");
  auto all = read_input_file(path, 10, "test input");
  REQUIRE(all.ok());
  CHECK(*all == "0123456789");
  auto big = read_input_file(path, 9, "test input");
  REQUIRE_FALSE(big.ok());
  CHECK(big.diagnostics().front().code == "E-LIMIT-004");
  CHECK(big.diagnostics().front().message.find("10 bytes") != std::string::npos);
}

TEST_CASE("npy: the header is validated and the size checked before the data is read", "[io]") {
  TempDir dir("io_in_npy");
  // A valid header claiming 2^30 f8 elements (8 GiB) on a file of a few bytes: refused from the
  // header and the file size, without allocating the claimed data.
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1073741824,), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xFF);
  bytes += static_cast<char>(header.size() >> 8);
  bytes += header + "tiny";
  const std::string path = dir.file("huge.npy", bytes);
  runtime::NpyLimits limits;
  limits.max_elements = std::uint64_t{1} << 31;
  auto r = runtime::read_npy_file(path, limits);
  REQUIRE_FALSE(r.ok());
  CHECK(r.diagnostics().front().code == "E-NPY-001");
  CHECK(r.diagnostics().front().message.find("truncated data: 4 bytes") != std::string::npos);
  // Not an npy file at all: refused from its first bytes.
  auto text = runtime::read_npy_file(dir.file("text.npy", "just some text, not an array"));
  REQUIRE_FALSE(text.ok());
  CHECK(text.diagnostics().front().message.find("magic") != std::string::npos);
  // A tiny but valid file still reads.
  auto empty_shape = std::string("\x93NUMPY\x01\x00", 8);
  std::string h2 = "{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }";
  while ((10 + h2.size() + 1) % 64 != 0) h2 += ' ';
  h2 += '\n';
  empty_shape += static_cast<char>(h2.size());
  empty_shape += '\0';
  empty_shape += h2 + "abc";
  auto small = runtime::read_npy_file(dir.file("small.npy", empty_shape));
  REQUIRE(small.ok());
  CHECK(small->data == std::vector<std::uint8_t>{'a', 'b', 'c'});
}

TEST_CASE("commands: a directory, FIFO or device as an input file is exit 2 at once", "[io]") {
  TempDir dir("io_in_cli");
  const std::string fifo = (dir.path / "fifo.rs").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string spec = source_path("specs/bmatmul_m_in_time.rs");
  struct Line {
    std::vector<std::string> args;
    const char* code;
  };
  const std::vector<Line> lines = {
      // was exit 1, "no kernel in this file"; `check` walks a directory for *.rs files
      {{"check", dir.path.string()}, "E-CHECK-004"},
      {{"explain", dir.path.string()}, "E-IO-005"},
      {{"check", "/dev/zero"}, "E-IO-005"}, // was 8.4 GB read in 20 s
      {{"check", fifo}, "E-IO-005"},        // was blocked forever
      {{"explain", fifo}, "E-IO-005"},
      {{"run", spec, "--input", "input=" + dir.path.string()}, "E-IO-005"}, // was exit 3
      {{"run", spec, "--input", "input=/dev/zero"}, "E-IO-005"},
      {{"bench", "--merge", dir.path.string(), "--json", (dir.path / "m.json").string()},
       "E-IO-005"}, // was exit 3 (basic_filebuf::underflow)
      {{"bench", "--sweep", fifo}, "E-IO-005"},
  };
  for (const auto& [args, code] : lines) {
    std::string shown;
    for (const auto& a : args) shown += a + " ";
    INFO(shown);
    const int status = in_child([&] {
      const auto r = run_tujit(args);
      return r.status == 2 && r.err.find(code) != std::string::npos ? 0 : 1;
    });
    CHECK(status == 0);
  }
}
