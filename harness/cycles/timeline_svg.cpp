#include "harness/cycles/timeline_svg.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <system_error>
#include <vector>

extern char** environ;

namespace tujit::cycles {

namespace {

namespace fs = std::filesystem;

constexpr const char* kBusyColour = "0x2ca02c";  // green: the stage works
constexpr const char* kStallColour = "0xd62728"; // red: the stage waits
// Above this many runs the plot shows each stage's dominant state per bin instead.
constexpr std::size_t kMaxSegments = 20000;
constexpr std::uint64_t kBins = 2000;

std::vector<Stage> rows_of(const CycleReport& r) {
  std::vector<Stage> rows = {Stage::Fetch,          Stage::TrfRead,      Stage::ContractOuter,
                             Stage::ContractPacket, Stage::ContractTime, Stage::ContractLane};
  if (r.trace.store) rows.push_back(Stage::TrfStore);
  return rows;
}

std::string gp_string(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// A gnuplot string of two lines (the "\n" escape works inside double quotes).
std::string two_line_title(const std::string& first, const std::string& second) {
  std::string q = gp_string(first);
  q.pop_back();
  return q + "\\n" + gp_string(second).substr(1);
}

std::string segments_data(const CycleReport& r, const std::vector<Stage>& rows) {
  const auto row_of = [&rows](Stage s) {
    const auto it = std::find(rows.begin(), rows.end(), s);
    return static_cast<std::size_t>(rows.end() - it) - 1; // first stage on top
  };
  std::string out;
  const auto& segs = r.trace.timeline;
  if (segs.size() <= kMaxSegments) {
    for (const auto& s : segs)
      out += fmt::format("{} {} {} {}\n", s.begin, row_of(s.stage), s.end,
                         s.busy ? kBusyColour : kStallColour);
    return out;
  }
  // Binned: per stage and bin, the cycles busy and stalled; draw the larger.
  const std::uint64_t total = std::max<std::uint64_t>(1, r.trace.period);
  const std::uint64_t width = (total + kBins - 1) / kBins;
  std::vector<std::vector<std::uint64_t>> busy(kStageCount, std::vector<std::uint64_t>(kBins + 1)),
      stall(kStageCount, std::vector<std::uint64_t>(kBins + 1));
  for (const auto& s : segs) {
    auto& v = s.busy ? busy : stall;
    for (std::uint64_t c = s.begin; c < s.end;) {
      const std::uint64_t bin = c / width, next = std::min(s.end, (bin + 1) * width);
      v[static_cast<std::size_t>(s.stage)][bin] += next - c;
      c = next;
    }
  }
  for (Stage st : rows)
    for (std::uint64_t b = 0; b <= kBins; ++b) {
      const auto i = static_cast<std::size_t>(st);
      if (busy[i][b] + stall[i][b] == 0) continue;
      out += fmt::format("{} {} {} {}\n", b * width, row_of(st), (b + 1) * width,
                         busy[i][b] >= stall[i][b] ? kBusyColour : kStallColour);
    }
  return out;
}

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

Diagnostic gnuplot_error(std::string message, std::vector<std::string> notes = {}) {
  Diagnostic d = make_error("E-CYCLES-002", std::move(message), std::nullopt, std::move(notes));
  d.stage = "cycles";
  return d;
}

// Runs `gnuplot script`, its output into `log`; the exit status, or -1 when it cannot start.
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

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TimelinePlot timeline_plot(const CycleReport& r, const std::string& kernel,
                           const std::string& data_path, const std::string& svg_path) {
  const auto rows = rows_of(r);
  std::string tics;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Stage s = rows[i];
    const auto& st = r.trace.stages[static_cast<std::size_t>(s)];
    std::string label = fmt::format("{} ({} busy, {} stall)", stage_name(s), st.busy, st.stall);
    if (s == r.trace.bottleneck) label += "  << bottleneck";
    tics += fmt::format("{}{} {}", i ? ", " : "", gp_string(label), rows.size() - 1 - i);
  }
  const std::uint64_t total = std::max<std::uint64_t>(1, r.trace.period);
  TimelinePlot plot;
  plot.data = segments_data(r, rows);
  plot.script = fmt::format(
      "set terminal svg size 1200,{height} dynamic noenhanced font \"sans,12\" background rgb "
      "\"white\"\n"
      "set output {out}\n"
      "set title {title}\n"
      "set xlabel \"cycle\"\n"
      "set xrange [0:{total}]\n"
      "set yrange [-0.6:{ymax}]\n"
      "set ytics ({tics})\n"
      "set grid xtics\n"
      "set style fill solid 1.0 noborder\n"
      "set key outside top center horizontal\n"
      "plot {data} using (($1+$3)/2):2:(($3-$1)/2):(0.38):4 with boxxyerror fc rgb variable "
      "notitle, \\\n"
      "  NaN with boxes fc rgb \"#2ca02c\" title \"busy\", \\\n"
      "  NaN with boxes fc rgb \"#d62728\" title \"stall (waiting)\"\n",
      fmt::arg("height", 140 + 48 * rows.size()), fmt::arg("out", gp_string(svg_path)),
      fmt::arg("title", two_line_title(fmt::format("{}: {} cycles (analytic {}), bottleneck {}",
                                                   kernel, r.trace.total, r.analytic.total,
                                                   stage_name(r.trace.bottleneck)),
                                       fmt::format("one slice traced; the {} live slices run "
                                                   "the same program in lock-step",
                                                   r.live_slices))),
      fmt::arg("total", total), fmt::arg("ymax", static_cast<double>(rows.size()) - 0.4),
      fmt::arg("tics", tics), fmt::arg("data", gp_string(data_path)));
  return plot;
}

Result<bool> write_timeline_svg(const CycleReport& r, const std::string& kernel,
                                const std::string& path) {
  const auto gnuplot = find_gnuplot();
  if (!gnuplot)
    return gnuplot_error("--timeline needs gnuplot, which was not found",
                         {"install it (Debian: apt-get install gnuplot-nox, or "
                          "scripts/install-deps.sh), or point $TUJIT_GNUPLOT at it"});
  std::error_code ec;
  std::string tmpl = (fs::temp_directory_path(ec) / "tujit-timeline-XXXXXX").string();
  if (ec || ::mkdtemp(tmpl.data()) == nullptr)
    return gnuplot_error("cannot create a temporary directory for gnuplot's input");
  const fs::path dir = tmpl;
  const fs::path data = dir / "timeline.dat", script = dir / "timeline.gp", log = dir / "log";
  const fs::path target = fs::absolute(path, ec);
  const fs::path partial = target.string() + fmt::format(".tmp-{}", ::getpid());
  const auto cleanup = [&] {
    std::error_code ignore;
    fs::remove_all(dir, ignore);
    fs::remove(partial, ignore);
  };
  const TimelinePlot plot = timeline_plot(r, kernel, data.string(), partial.string());
  {
    std::ofstream d(data), s(script);
    d << plot.data;
    s << plot.script;
    if (!d || !s) {
      cleanup();
      return gnuplot_error("cannot write gnuplot's input files");
    }
  }
  const int rc = run_gnuplot(*gnuplot, script.string(), log.string());
  if (rc != 0) {
    std::string out = read_text(log);
    if (out.size() > 2000) out.resize(2000);
    cleanup();
    if (rc < 0) return gnuplot_error(fmt::format("cannot start gnuplot ({})", *gnuplot));
    if (!fs::exists(target.parent_path())) {
      Diagnostic d =
          make_error("E-IO-002", fmt::format("cannot write '{}': no such directory", path));
      return d;
    }
    return gnuplot_error(fmt::format("gnuplot ({}) failed with status {}", *gnuplot, rc), {out});
  }
  fs::rename(partial, target, ec);
  if (ec) {
    cleanup();
    return make_error("E-IO-002", fmt::format("cannot write '{}': {}", path, ec.message()));
  }
  cleanup();
  return true;
}

} // namespace tujit::cycles
