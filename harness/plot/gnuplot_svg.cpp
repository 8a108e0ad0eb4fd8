#include "harness/plot/gnuplot_svg.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

extern char** environ;

namespace tujit::plot {

namespace {

namespace fs = std::filesystem;

// Runs `gnuplot script` with stdout and stderr into `log`; its exit status, -1 if it cannot start.
int run_gnuplot(const std::string& gnuplot, const std::string& script, const std::string& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> args = {gnuplot, script};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, gnuplot.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
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
  std::error_code ec;
  if (!overwrite && fs::exists(path, ec))
    return make_error("E-IO-002", fmt::format("'{}' exists already; not overwritten", path),
                      std::nullopt, {"pass --force to overwrite it, or choose another path"});
  const auto gnuplot = find_gnuplot();
  if (!gnuplot)
    return fail(fmt::format("{} needs gnuplot, which was not found", option),
                {"install it (Debian: apt-get install gnuplot-nox, or scripts/install-deps.sh), "
                 "or point $TUJIT_GNUPLOT at it"});
  std::string tmpl = (fs::temp_directory_path(ec) / "tujit-plot-XXXXXX").string();
  if (ec || ::mkdtemp(tmpl.data()) == nullptr)
    return fail("cannot create a temporary directory for gnuplot's input");
  const fs::path dir = tmpl, script = dir / "plot.gp", log = dir / "log";
  const fs::path target = fs::absolute(path, ec);
  const fs::path partial = target.string() + fmt::format(".tmp-{}", ::getpid());
  const auto cleanup = [&] {
    std::error_code ignore;
    fs::remove_all(dir, ignore);
    fs::remove(partial, ignore);
  };
  for (const auto& [name, text] : job.data_files) {
    std::ofstream f(dir / name);
    f << text;
    if (!f) {
      cleanup();
      return fail("cannot write gnuplot's input files");
    }
  }
  {
    std::ofstream s(script);
    s << job.script(dir.string(), partial.string());
    if (!s) {
      cleanup();
      return fail("cannot write gnuplot's script");
    }
  }
  const int rc = run_gnuplot(*gnuplot, script.string(), log.string());
  if (rc != 0 || !fs::exists(partial, ec)) {
    std::ifstream in(log);
    std::ostringstream out;
    out << in.rdbuf();
    std::string text = out.str();
    if (text.size() > 2000) text.resize(2000);
    cleanup();
    if (!fs::exists(target.parent_path(), ec))
      return make_error("E-IO-002", fmt::format("cannot write '{}': no such directory", path));
    if (rc < 0) return fail(fmt::format("cannot start gnuplot ({})", *gnuplot));
    return fail(fmt::format("gnuplot ({}) failed with status {}", *gnuplot, rc), {text});
  }
  fs::rename(partial, target, ec);
  if (ec) {
    cleanup();
    return make_error("E-IO-002", fmt::format("cannot write '{}': {}", path, ec.message()));
  }
  cleanup();
  return {};
}

} // namespace tujit::plot
