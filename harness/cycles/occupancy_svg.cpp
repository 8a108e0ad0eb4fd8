#include "harness/cycles/occupancy_svg.h"

#include "runtime/io/output_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tujit::cycles {

namespace {

constexpr double kWidth = 960, kLeft = 90, kRight = 20, kPanel = 180, kGap = 50, kTop = 50;

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

} // namespace

std::string occupancy_svg(const KernelCycles& k) {
  std::vector<MemoryKind> panels;
  for (MemoryKind m : {MemoryKind::Dm, MemoryKind::Trf, MemoryKind::Vrf})
    for (const MemoryValue& v : k.graph.values)
      if (v.memory == m && v.address) {
        panels.push_back(m);
        break;
      }
  const double height = kTop + double(panels.size()) * (kPanel + kGap) + 20;
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">)"
      "\n"
      R"(<text x="{}" y="22" font-size="15">{}: memory occupancy (trace model, {} cycles; docs/cycle-model.md §14.2)</text>)"
      "\n",
      kWidth, height, kLeft, escape(k.kernel), k.trace_schedule.makespan);
  double y = kTop + 10;
  for (MemoryKind m : panels) {
    out += panel(k, m, y);
    y += kPanel + kGap;
  }
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
