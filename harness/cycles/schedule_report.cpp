#include "harness/cycles/schedule_report.h"

#include "ir/lang/kernel.h"
#include "ir/lang/stage_descriptor.h"
#include "ir/target/rngd.h"
#include "runtime/io/output_file.h"

#include <fmt/format.h>

#include <map>
#include <vector>

namespace tujit::cycles {

namespace {

constexpr Track kTracks[] = {Track::Main, Track::Sub, Track::Tdma, Track::VectorEngine};

const Schedule& of(const KernelCycles& k, bool trace) {
  return trace ? k.trace_schedule : k.analytic_schedule;
}

nlohmann::ordered_json model_json(const KernelCycles& k, bool trace) {
  const Schedule& s = of(k, trace);
  nlohmann::ordered_json busy = nlohmann::ordered_json::object();
  for (Track t : kTracks) busy[std::string(track_name(t))] = s.busy[static_cast<std::size_t>(t)];
  return {{"makespan", s.makespan}, {"critical_path", s.critical_path}, {"busy", busy}};
}

nlohmann::ordered_json slot_json(const Schedule& s, std::size_t i) {
  const ScheduledCommand& c = s.commands[i];
  nlohmann::ordered_json j = {{"start", c.start}, {"end", c.end}};
  j["bound_by"] = c.binding ? nlohmann::ordered_json(*c.binding) : nlohmann::ordered_json();
  return j;
}

nlohmann::ordered_json holds_json(const ScheduleNode& n) {
  nlohmann::ordered_json h = nlohmann::ordered_json::array();
  for (Track t : n.holds) h.push_back(std::string(track_name(t)));
  return h;
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "0%" : fmt::format("{:.0f}%", 100.0 * double(part) / double(whole));
}

} // namespace

nlohmann::ordered_json schedule_json(const KernelCycles& k) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (const MemoryValue& v : k.graph.values) {
    nlohmann::ordered_json j = {
        {"memory", std::string(memory_name(v.memory))}, {"name", v.name}, {"bytes", v.bytes}};
    j["address"] = v.address ? nlohmann::ordered_json(*v.address) : nlohmann::ordered_json();
    j["writer"] = v.writer ? nlohmann::ordered_json(*v.writer) : nlohmann::ordered_json();
    j["readers"] = v.readers;
    j["returned"] = v.returned;
    values.push_back(std::move(j));
  }
  nlohmann::ordered_json cmds = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < k.graph.nodes.size(); ++i) {
    const ScheduleNode& n = k.graph.nodes[i];
    nlohmann::ordered_json waits = nlohmann::ordered_json::array();
    for (const Dependency& d : n.after)
      waits.push_back(
          {{"command", d.command}, {"why", std::string(wait_name(d.why))}, {"what", d.what}});
    cmds.push_back({{"index", i},
                    {"track", std::string(track_name(n.context))},
                    {"holds", holds_json(n)},
                    {"waits", std::move(waits)},
                    {"analytic", slot_json(k.analytic_schedule, i)},
                    {"trace", slot_json(k.trace_schedule, i)}});
  }
  return {{"values", std::move(values)},
          {"commands", std::move(cmds)},
          {"analytic", model_json(k, false)},
          {"trace", model_json(k, true)},
          {"notes", k.graph.notes}};
}

std::string schedule_text(const KernelCycles& k) {
  const Schedule& s = k.trace_schedule;
  std::string out = fmt::format(
      "schedule (trace model; docs/cycle-model.md §14): makespan {} cycles\n  busy:", s.makespan);
  for (Track t : kTracks) {
    const std::uint64_t b = s.busy[static_cast<std::size_t>(t)];
    if (b > 0) out += fmt::format(" {} {} ({})", track_name(t), b, percent(b, s.makespan));
  }
  out += "\n  critical path:\n";
  for (std::size_t i : s.critical_path) {
    const ScheduledCommand& c = s.commands[i];
    const ScheduleNode& n = k.graph.nodes[i];
    out += fmt::format("    #{} {} [{}, {}) {}", i + 1, track_name(n.context), c.start, c.end,
                       k.commands[i].what);
    if (c.binding) {
      const Dependency& d = n.after[*c.binding];
      out += fmt::format("  — after #{} ({}: {})", d.command + 1, wait_name(d.why), d.what);
    }
    out += "\n";
  }
  for (const MemoryValue& v : k.graph.values)
    if (v.address)
      out += fmt::format("  {} `{}`: {} B at {}\n", memory_name(v.memory), v.name, v.bytes,
                         *v.address);
  for (const std::string& note : k.graph.notes) out += "  note: " + note + "\n";
  return out;
}

namespace {

// The engine tracks of the Chrome trace, in display order; an engine a context owns (the Fetch
// and Commit Engines of main and sub) is named with it.
std::string engine_of(const ir::Stage& s, Track context) {
  const std::string ctx(track_name(context));
  switch (s.unit()) {
  case ir::StageUnit::FetchSequencer:
  case ir::StageUnit::FetchAdapter:
  case ir::StageUnit::Collect:
  case ir::StageUnit::MemReader:
    return "Fetch Engine (" + ctx + ")";
  case ir::StageUnit::ContractOuter:
  case ir::StageUnit::PacketReducer:
  case ir::StageUnit::TimeReducer:
  case ir::StageUnit::LaneFolder:
    return "Contraction Engine";
  case ir::StageUnit::TrfStore:
    return "TRF store";
  case ir::StageUnit::VrfStore:
    return "VRF store";
  case ir::StageUnit::VectorEngine:
    return "Vector Engine";
  case ir::StageUnit::CastEngine:
    return "Cast Engine";
  case ir::StageUnit::TransposeEngine:
    return "Transpose Engine";
  case ir::StageUnit::SwitchEngine:
    return "Switch Engine";
  case ir::StageUnit::CommitAdapter:
  case ir::StageUnit::CommitEngine:
  case ir::StageUnit::MemWriter:
    return "Commit Engine (" + ctx + ")";
  case ir::StageUnit::Dma:
    return "DMA Engine";
  case ir::StageUnit::None:
    break;
  }
  return {};
}

double micros(std::uint64_t cycles) {
  return double(cycles) * 1e6 / double(target::kRngd.clock_hz);
}

class ChromeTrace {
public:
  ChromeTrace(const ir::Kernel& kernel, const KernelCycles& k) : kernel_(kernel), k_(k) {}

  nlohmann::ordered_json build() {
    for (bool trace : {false, true}) add_model(trace);
    return {{"traceEvents", std::move(events_)},
            {"displayTimeUnit", "ns"},
            {"otherData",
             {{"kernel", k_.kernel},
              {"clock_hz", target::kRngd.clock_hz},
              {"source", "tujit cycles --trace (docs/cycle-model.md §14)"}}}};
  }

private:
  int tid(int pid, const std::string& track) {
    auto [it, fresh] = tids_.emplace(std::pair(pid, track), int(tids_.size()) + 1);
    if (fresh) {
      events_.push_back({{"name", "thread_name"},
                         {"ph", "M"},
                         {"pid", pid},
                         {"tid", it->second},
                         {"args", {{"name", track}}}});
      events_.push_back({{"name", "thread_sort_index"},
                         {"ph", "M"},
                         {"pid", pid},
                         {"tid", it->second},
                         {"args", {{"sort_index", it->second}}}});
    }
    return it->second;
  }

  void slice(int pid, const std::string& track, const std::string& name, const char* cat,
             std::uint64_t start, std::uint64_t cycles, nlohmann::ordered_json args) {
    events_.push_back({{"name", name},
                       {"cat", cat},
                       {"ph", "X"},
                       {"pid", pid},
                       {"tid", tid(pid, track)},
                       {"ts", micros(start)},
                       {"dur", micros(cycles)},
                       {"args", std::move(args)}});
  }

  void add_model(bool trace) {
    const int pid = trace ? 2 : 1;
    events_.push_back(
        {{"name", "process_name"},
         {"ph", "M"},
         {"pid", pid},
         {"args",
          {{"name", fmt::format("{}: {} model", k_.kernel, trace ? "trace" : "analytic")}}}});
    const Schedule& s = of(k_, trace);
    for (Track t : {Track::Main, Track::Sub, Track::Tdma}) tid(pid, std::string(track_name(t)));
    for (std::size_t i = 0; i < k_.commands.size(); ++i) add_command(pid, s, i, trace);
    for (std::size_t i = 0; i < k_.commands.size(); ++i) add_flows(pid, s, i);
  }

  void add_command(int pid, const Schedule& s, std::size_t i, bool trace) {
    const CommandCycles& c = k_.commands[i];
    const ScheduledCommand& at = s.commands[i];
    const ScheduleNode& n = k_.graph.nodes[i];
    const std::string name = fmt::format("#{} {}", i + 1, c.what);
    nlohmann::ordered_json args = {{"command", i + 1},
                                   {"statement", c.statement + 1},
                                   {"form", std::string(command_kind_name(c.kind))},
                                   {"setup_cycles", c.setup},
                                   {"cycles", trace ? c.trace : c.analytic},
                                   {"start_cycle", at.start},
                                   {"end_cycle", at.end}};
    if (at.binding) {
      const Dependency& d = n.after[*at.binding];
      args["waited_for"] = fmt::format("#{} ({}: {})", d.command + 1, wait_name(d.why), d.what);
    }
    slice(pid, std::string(track_name(n.context)), name, "command", at.start, at.end - at.start,
          args);
    for (Track t : n.holds)
      if (t != Track::VectorEngine) // a context it holds besides its own (engines come below)
        slice(pid, std::string(track_name(t)), name, "command", at.start, at.end - at.start,
              {{"command", i + 1}, {"held_for", std::string(track_name(n.context))}});
    // Each engine the command drives, busy for its pipeline cycles (the stages of one command
    // overlap: docs/cycle-model.md §1.2).
    std::vector<std::string> engines;
    for (std::size_t st : c.stages) {
      std::string e = engine_of(kernel_.stages[st], n.context);
      if (!e.empty() && std::find(engines.begin(), engines.end(), e) == engines.end())
        engines.push_back(std::move(e));
    }
    for (const std::string& e : engines)
      slice(pid, e, name, "engine", at.start + c.setup, at.end - at.start - c.setup,
            {{"command", i + 1}});
  }

  // Data and engine dependencies as flow arrows from the producer's last cycle to the
  // consumer's start, on their context tracks (program order within a context needs none).
  void add_flows(int pid, const Schedule& s, std::size_t i) {
    const ScheduleNode& n = k_.graph.nodes[i];
    for (const Dependency& d : n.after) {
      if (d.why == WaitKind::Context) continue;
      const ScheduledCommand& from = s.commands[d.command];
      const std::uint64_t at = from.end > from.start ? from.end - 1 : from.start;
      const int id = ++flows_;
      const std::string name = fmt::format("{}: {}", wait_name(d.why), d.what);
      events_.push_back(
          {{"name", name},
           {"cat", "dependency"},
           {"ph", "s"},
           {"id", id},
           {"pid", pid},
           {"tid", tid(pid, std::string(track_name(k_.graph.nodes[d.command].context)))},
           {"ts", micros(at)}});
      events_.push_back({{"name", name},
                         {"cat", "dependency"},
                         {"ph", "f"},
                         {"bp", "e"},
                         {"id", id},
                         {"pid", pid},
                         {"tid", tid(pid, std::string(track_name(n.context)))},
                         {"ts", micros(s.commands[i].start)}});
    }
  }

  const ir::Kernel& kernel_;
  const KernelCycles& k_;
  nlohmann::ordered_json events_ = nlohmann::ordered_json::array();
  std::map<std::pair<int, std::string>, int> tids_;
  int flows_ = 0;
};

} // namespace

nlohmann::ordered_json chrome_trace_json(const ir::Kernel& kernel, const KernelCycles& k) {
  return ChromeTrace(kernel, k).build();
}

Status write_chrome_trace(const ir::Kernel& kernel, const KernelCycles& k, const std::string& path,
                          bool overwrite) {
  if (auto d =
          runtime::io::write_file(path, chrome_trace_json(kernel, k).dump(1) + "\n", overwrite))
    return *d;
  return {};
}

} // namespace tujit::cycles
