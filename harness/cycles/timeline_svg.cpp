#include "harness/cycles/timeline_svg.h"

#include "harness/plot/gnuplot_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tujit::cycles {

namespace {

using plot::gp_string;

constexpr const char* kBusyColour = "0x2ca02c";  // green: the stage works
constexpr const char* kStallColour = "0xd62728"; // red: the stage waits
// Above this many runs the plot shows each stage's dominant state per bin instead.
constexpr std::size_t kMaxSegments = 20000;
constexpr std::uint64_t kBins = 2000;

// The stages the trace saw work or wait, in pipeline order.
std::vector<Stage> rows_of(const CycleReport& r) {
  std::vector<Stage> rows;
  for (Stage s : {Stage::Fetch, Stage::Switch, Stage::Collect, Stage::TrfRead, Stage::ContractOuter,
                  Stage::ContractPacket, Stage::ContractTime, Stage::ContractLane, Stage::TrfStore,
                  Stage::VrfStore}) {
    const auto& st = r.trace.stages[static_cast<std::size_t>(s)];
    if (st.busy + st.stall > 0) rows.push_back(s);
  }
  return rows;
}

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

} // namespace

TimelinePlot timeline_plot(const CycleReport& r, const std::string& kernel,
                           const std::string& data_path) {
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
      fmt::arg("height", 140 + 48 * rows.size()),
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

Status write_timeline_svg(const CycleReport& r, const std::string& kernel, const std::string& path,
                          bool overwrite) {
  plot::GnuplotJob job;
  job.data_files["timeline.dat"] = timeline_plot(r, kernel, "").data;
  job.script = [&](const std::string& dir) {
    return timeline_plot(r, kernel, dir + "/timeline.dat").script;
  };
  return plot::write_gnuplot_svg(job, path, overwrite, "E-CYCLES-002", "--timeline", "cycles");
}

} // namespace tujit::cycles
