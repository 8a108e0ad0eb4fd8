#include "harness/plot/gnuplot_svg.h"

#include "ir/support/input_file.h"
#include "runtime/io/output_file.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <vector>

extern char** environ;

namespace tujit::plot {

namespace {

namespace fs = std::filesystem;

/// What a gnuplot run produced.
struct Drawn {
  int status = -1;                 // exit status; -1: it could not start; 128: killed
  std::optional<Diagnostic> write; // the picture could not be written
  std::string tail;                // the last bytes of the picture
};

/// Runs `gnuplot script` with stdout into `out` (through a pipe) and stderr into `log`.
Drawn run_gnuplot(const std::string& gnuplot, const std::string& script, const std::string& log,
                  runtime::io::OutputFile& out) {
  Drawn d;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return d;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> args = {gnuplot, script};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (rc != 0) {
    ::close(pipe_fds[0]);
    return d;
  }
  std::vector<std::uint8_t> buf(1 << 16);
  for (;;) {
    const ssize_t n = ::read(pipe_fds[0], buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::span<const std::uint8_t> got(buf.data(), static_cast<std::size_t>(n));
    d.tail.append(reinterpret_cast<const char*>(got.data()), got.size());
    if (d.tail.size() > 64) d.tail.erase(0, d.tail.size() - 64);
    if (auto e = out.write(got)) {
      d.write = std::move(e);
      break; // closing the pipe ends gnuplot (SIGPIPE)
    }
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return d;
  d.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  return d;
}

/// The start of gnuplot's error output, for the diagnostic's notes.
std::string log_text(const fs::path& log) {
  auto f = InputFile::open(log.string());
  if (!f) return {};
  std::string text(std::min<std::uint64_t>(f->size(), 2000), '\0');
  if (f->read(text.data(), text.size())) return {};
  return text;
}

} // namespace

std::optional<std::string> find_gnuplot() {
  if (const char* e = std::getenv("TUJIT_GNUPLOT"); e != nullptr && *e != '\0') {
    if (::access(e, X_OK) == 0) return std::string(e);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return std::nullopt;
}

std::string gp_string(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

Status write_gnuplot_svg(const GnuplotJob& job, const std::string& path, bool overwrite,
                         const std::string& error_code, const std::string& option,
                         const std::string& stage) {
  const auto fail = [&](std::string message, std::vector<std::string> notes = {}) {
    Diagnostic d = make_error(error_code, std::move(message), std::nullopt, std::move(notes));
    d.stage = stage;
    return d;
  };
  if (auto d = runtime::io::check_output_path(path, overwrite)) return *d;
  const auto gnuplot = find_gnuplot();
  if (!gnuplot)
    return fail(fmt::format("{} needs gnuplot, which was not found", option),
                {"install it (Debian: apt-get install gnuplot-nox, or scripts/install-deps.sh), "
                 "or point $TUJIT_GNUPLOT at it"});
  std::error_code ec;
  std::string tmpl = (fs::temp_directory_path(ec) / "tujit-plot-XXXXXX").string();
  if (ec || ::mkdtemp(tmpl.data()) == nullptr)
    return fail("cannot create a temporary directory for gnuplot's input");
  const fs::path dir = tmpl, script = dir / "plot.gp", log = dir / "log";
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ignore;
      fs::remove_all(dir, ignore);
    }
  } cleanup{dir};
  for (const auto& [name, text] : job.data_files)
    if (auto d = runtime::io::write_file((dir / name).string(), text, false)) return *d;
  if (auto d = runtime::io::write_file(script.string(), job.script(dir.string()), false)) return *d;

  auto out = runtime::io::OutputFile::create(path, overwrite);
  if (!out) return std::move(out).take_diagnostics();
  Drawn drawn = run_gnuplot(*gnuplot, script.string(), log.string(), *out);
  if (drawn.write) return *drawn.write;
  if (drawn.status < 0) return fail(fmt::format("cannot start gnuplot ({})", *gnuplot));
  if (drawn.status != 0)
    return fail(fmt::format("gnuplot ({}) failed with status {}", *gnuplot, drawn.status),
                {log_text(log)});
  // gnuplot ends every SVG with </svg>; a picture without it is cut short.
  if (out->bytes_written() == 0 || drawn.tail.find("</svg>") == std::string::npos)
    return fail(fmt::format("gnuplot ({}) exited 0 but drew {}", *gnuplot,
                            out->bytes_written() == 0 ? "nothing"
                                                      : "an incomplete SVG (no </svg> at the end)"),
                {log_text(log), fmt::format("'{}' was not written", path)});
  if (auto d = out->commit()) return *d;
  return {};
}

} // namespace tujit::plot
