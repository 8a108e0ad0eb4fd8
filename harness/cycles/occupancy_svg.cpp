#include "harness/cycles/occupancy_svg.h"

#include "runtime/io/output_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tujit::cycles {

namespace {

constexpr double kWidth = 960, kLeft = 90, kRight = 20, kPanel = 180, kGap = 50, kTop = 50;
constexpr double kTrackRow = 26; // one row per track of the schedule

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '&':
      out += "&amp;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

const char* colour(MemoryKind m) {
  switch (m) {
  case MemoryKind::Trf:
    return "#ff7f0e";
  case MemoryKind::Vrf:
    return "#2ca02c";
  default:
    return "#1f77b4";
  }
}

// One memory's panel at height `y`: the address axis spans the bytes the kernel uses (the
// capacity line shows when it is within twice that), the time axis the makespan.
std::string panel(const KernelCycles& k, MemoryKind m, double y) {
  const Schedule& s = k.trace_schedule;
  std::uint64_t top = 1;
  for (const MemoryValue& v : k.graph.values)
    if (v.memory == m && v.address) top = std::max(top, *v.address + v.bytes);
  const std::uint64_t cap = memory_capacity(m);
  const std::uint64_t span = cap <= 2 * top ? cap : top;
  const double plot = kWidth - kLeft - kRight;
  const double makespan = double(std::max<std::uint64_t>(s.makespan, 1));
  auto x_of = [&](std::uint64_t c) { return kLeft + plot * double(c) / makespan; };
  auto y_of = [&](std::uint64_t a) { return y + kPanel * double(a) / double(span); };
  std::string out = fmt::format(
      R"(<text x="{}" y="{}" font-weight="bold">{} (per slice, {} B of {} B shown)</text>)"
      "\n"
      R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/>)"
      "\n"
      R"(<text x="{}" y="{}" text-anchor="end">0</text><text x="{}" y="{}" text-anchor="end">{}</text>)"
      "\n",
      kLeft, y - 8, memory_name(m), span, cap, kLeft, y, plot, kPanel, kLeft - 6, y + 12, kLeft - 6,
      y + kPanel, span);
  for (const MemoryValue& v : k.graph.values) {
    if (v.memory != m || !v.address) continue;
    const Lifetime l = lifetime(v, s);
    const double x0 = x_of(l.start), x1 = std::max(x_of(l.end), x0 + 1);
    const double y0 = y_of(*v.address), y1 = std::max(y_of(*v.address + v.bytes), y0 + 1);
    out += fmt::format(
        R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}" fill-opacity="0.55" stroke="{}"><title>{} `{}`: {} B at {}, cycles [{}, {})</title></rect>)"
        "\n",
        x0, y0, x1 - x0, y1 - y0, colour(m), colour(m), memory_name(m), escape(v.name), v.bytes,
        *v.address, l.start, l.end);
    if (y1 - y0 >= 11)
      out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11">{}</text>)"
                         "\n",
                         x0 + 3, y0 + 11, escape(v.name));
  }
  return out;
}

const char* colour(Track t) {
  switch (t) {
  case Track::Sub:
    return "#e377c2";
  case Track::Tdma:
    return "#9467bd";
  case Track::VectorEngine:
    return "#8c564b";
  default:
    return "#d62728";
  }
}

// The schedule's tracks at height `y` (docs/cycle-model.md §14.3): main, sub, tdma and the Vector
// Engine, each command a box over its trace-model cycles on every track it holds, numbered as in
// the command table; the critical path's boxes are outlined in black.
std::string tracks(const KernelCycles& k, double y) {
  const Schedule& s = k.trace_schedule;
  const double plot = kWidth - kLeft - kRight;
  const double makespan = double(std::max<std::uint64_t>(s.makespan, 1));
  auto x_of = [&](std::uint64_t c) { return kLeft + plot * double(c) / makespan; };
  std::string out = fmt::format(
      R"(<text x="{}" y="{}" font-weight="bold">Schedule (command numbers as in the command table; critical path outlined)</text>)"
      "\n",
      kLeft, y - 8);
  for (std::size_t t = 0; t < kTrackCount; ++t) {
    const auto track = static_cast<Track>(t);
    const double row = y + double(t) * kTrackRow;
    out += fmt::format(
        R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#999"/><text x="{}" y="{}" text-anchor="end">{}</text>)"
        "\n",
        kLeft, row, plot, kTrackRow, kLeft - 6, row + 17, track_name(track));
    for (std::size_t i = 0; i < k.commands.size(); ++i) {
      if (!k.graph.nodes[i].holds_track(track)) continue;
      const ScheduledCommand& c = s.commands[i];
      const bool critical =
          std::find(s.critical_path.begin(), s.critical_path.end(), i) != s.critical_path.end();
      const double x0 = x_of(c.start), x1 = std::max(x_of(c.end), x0 + 1);
      out += fmt::format(
          R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" fill-opacity="0.45" stroke="{}" stroke-width="{}"><title>#{} {}: {}, cycles [{}, {})</title></rect>)"
          "\n",
          x0, row + 3, x1 - x0, kTrackRow - 6, colour(track), critical ? "#000" : colour(track),
          critical ? 1.5 : 1, i + 1, track_name(track), escape(k.commands[i].what), c.start, c.end);
      const std::string label = fmt::format("{}", i + 1);
      if (x1 - x0 >= 7.0 * double(label.size()) + 4)
        out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="11">{}</text>)"
                           "\n",
                           x0 + 3, row + 17, label);
    }
  }
  return out;
}

} // namespace

std::string occupancy_svg(const KernelCycles& k) {
  std::vector<MemoryKind> panels;
  for (MemoryKind m : {MemoryKind::Dm, MemoryKind::Trf, MemoryKind::Vrf})
    for (const MemoryValue& v : k.graph.values)
      if (v.memory == m && v.address) {
        panels.push_back(m);
        break;
      }
  const double track_panel = double(kTrackCount) * kTrackRow;
  const double height = kTop + double(panels.size()) * (kPanel + kGap) + track_panel + kGap + 20;
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">)"
      "\n"
      R"(<text x="{}" y="22" font-size="15">{}: memory occupancy and schedule (trace model, {} cycles; docs/cycle-model.md §14)</text>)"
      "\n",
      kWidth, height, kLeft, escape(k.kernel), k.trace_schedule.makespan);
  double y = kTop + 10;
  for (MemoryKind m : panels) {
    out += panel(k, m, y);
    y += kPanel + kGap;
  }
  out += tracks(k, y);
  y += track_panel + kGap;
  out += fmt::format(
      R"(<text x="{}" y="{}">cycle 0</text><text x="{}" y="{}" text-anchor="end">cycle {}</text>)"
      "\n</svg>\n",
      kLeft, y - kGap + 16, kWidth - kRight, y - kGap + 16, k.trace_schedule.makespan);
  return out;
}

Status write_occupancy_svg(const KernelCycles& k, const std::string& path, bool overwrite) {
  if (auto d = runtime::io::write_file(path, occupancy_svg(k), overwrite)) return *d;
  return {};
}

} // namespace tujit::cycles
