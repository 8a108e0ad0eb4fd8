#include "harness/cycles/schedule.h"

#include "ir/target/rngd.h"

#include <algorithm>

namespace tujit::cycles {

std::string_view track_name(Track t) {
  switch (t) {
  case Track::Main:
    return "main";
  case Track::Sub:
    return "sub";
  case Track::Tdma:
    return "tdma";
  case Track::VectorEngine:
    return "Vector Engine";
  }
  return "?";
}

std::string_view memory_name(MemoryKind m) {
  switch (m) {
  case MemoryKind::Hbm:
    return "HBM";
  case MemoryKind::Dm:
    return "DM";
  case MemoryKind::Trf:
    return "TRF";
  case MemoryKind::Vrf:
    return "VRF";
  }
  return "?";
}

std::uint64_t memory_capacity(MemoryKind m) {
  switch (m) {
  case MemoryKind::Trf:
    return target::kRngd.trf_capacity_bytes;
  case MemoryKind::Vrf:
    return target::kRngd.vrf_bytes;
  default:
    return target::kRngd.dm_bytes_per_slice;
  }
}

std::string_view wait_name(WaitKind w) {
  switch (w) {
  case WaitKind::Context:
    return "context";
  case WaitKind::Engine:
    return "engine";
  case WaitKind::ReadAfterWrite:
    return "read after write";
  case WaitKind::WriteAfterRead:
    return "write after read";
  case WaitKind::WriteAfterWrite:
    return "write after write";
  }
  return "?";
}

bool ScheduleNode::holds_track(Track t) const {
  return context == t || std::find(holds.begin(), holds.end(), t) != holds.end();
}

Schedule schedule(const ScheduleGraph& graph, std::span<const std::uint64_t> durations) {
  Schedule s;
  s.commands.resize(graph.nodes.size());
  for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
    const ScheduleNode& n = graph.nodes[i];
    ScheduledCommand& c = s.commands[i];
    // Every constraint points back in program order, so its end is known. The first constraint
    // reaching the latest end is the binding one (ties keep the earlier, e.g. the context).
    for (std::size_t e = 0; e < n.after.size(); ++e) {
      const std::uint64_t ready = s.commands[n.after[e].command].end;
      if (ready > c.start || (!c.binding && ready == c.start && ready > 0)) {
        c.start = ready;
        c.binding = e;
      }
    }
    c.end = c.start + durations[i];
    s.busy[static_cast<std::size_t>(n.context)] += durations[i];
    for (Track t : n.holds) s.busy[static_cast<std::size_t>(t)] += durations[i];
    s.makespan = std::max(s.makespan, c.end);
  }
  // The critical path ends at the last command to finish (the later in program order on a tie).
  std::optional<std::size_t> at;
  for (std::size_t i = 0; i < s.commands.size(); ++i)
    if (!at || s.commands[i].end >= s.commands[*at].end) at = i;
  while (at) {
    s.critical_path.push_back(*at);
    const ScheduledCommand& c = s.commands[*at];
    at = c.binding ? std::optional(graph.nodes[*at].after[*c.binding].command) : std::nullopt;
  }
  std::reverse(s.critical_path.begin(), s.critical_path.end());
  return s;
}

Lifetime lifetime(const MemoryValue& v, const Schedule& s) {
  Lifetime l;
  if (v.writer) {
    l.start = s.commands[*v.writer].start;
    l.end = s.commands[*v.writer].end;
  }
  for (std::size_t r : v.readers) l.end = std::max(l.end, s.commands[r].end);
  if (v.returned) l.end = s.makespan;
  return l;
}

} // namespace tujit::cycles
