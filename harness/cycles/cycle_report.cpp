#include "harness/cycles/cycle_report.h"

#include <fmt/format.h>

#include <algorithm>

namespace tujit::cycles {

namespace {

std::uint64_t count_live(const std::vector<std::uint8_t>& v, std::uint64_t size_if_empty) {
  if (v.empty()) return size_if_empty;
  return static_cast<std::uint64_t>(std::count(v.begin(), v.end(), 1));
}

} // namespace

std::vector<Stage> reported_stages(const CycleOptions& o) {
  std::vector<Stage> out;
  if (o.first == Stage::ContractOuter) out = {Stage::Fetch, Stage::TrfRead};
  for (Stage s :
       {Stage::ContractOuter, Stage::ContractPacket, Stage::ContractTime, Stage::ContractLane})
    if (runs_stage(o, s)) out.push_back(s);
  if (o.concurrent_store) out.push_back(Stage::TrfStore);
  return out;
}

CycleReport cycle_report(const ir::seq::ContractionProgram& program, const CycleOptions& options,
                         bool record_timeline) {
  CycleReport r;
  r.analytic = analytic_cycles(program, options);
  r.trace = trace_cycles(program, options, record_timeline);
  r.live_slices = count_live(program.spatial_live, program.spatial);
  r.agreement = 1.0 - relative_deviation(r.analytic.total, r.trace.total);
  r.options = options;
  return r;
}

nlohmann::ordered_json analytic_json(const AnalyticCycles& a, const CycleOptions& o) {
  nlohmann::ordered_json stages;
  for (Stage s : reported_stages(o))
    stages[std::string(stage_name(s))] = a.stage_cycles[static_cast<std::size_t>(s)];
  nlohmann::ordered_json j = {
      {"total", a.total},
      {"stages", stages},
      {"bottleneck", std::string(stage_name(a.bottleneck))},
      {"mac_utilization", a.mac_utilization},
      {"mac_utilization_overall", a.mac_utilization_overall},
      {"output_bus_utilization", a.output_bus_utilization},
      {"latency",
       {{"fetch_adapter", a.fetch_latency},
        {"pack_fill", a.fill},
        {"tree", a.tree_latency},
        {"first_output", a.first_output},
        {"drain", a.drain}}},
      {"cycles_per_packet", a.cycles_per_packet},
      {"slots", {{"needed", a.slots_needed}, {"capacity", a.slot_capacity}}},
      {"trf", {{"reads", a.trf_reads}, {"misses", a.trf_misses}, {"wide", a.wide_read}}}};
  if (a.fetch_read_size != 0)
    j["fetch"] = {{"read_size", a.fetch_read_size},
                  {"reads_per_packet", a.fetch_reads_per_packet},
                  {"flits_per_packet", a.fetch_flits_per_packet},
                  {"reads", a.fetch_reads}};
  if (a.store)
    j["trf_store"] = {{"flits", a.store_flits},
                      {"blocked", a.store_blocked},
                      {"cycles", a.store_cycles},
                      {"period", a.period}};
  return j;
}

nlohmann::ordered_json trace_json(const TraceCycles& t, const CycleOptions& o) {
  nlohmann::ordered_json stages;
  for (Stage s : reported_stages(o)) {
    const StageTrace& st = t.stages[static_cast<std::size_t>(s)];
    stages[std::string(stage_name(s))] = {
        {"busy", st.busy}, {"stall", st.stall}, {"first", st.first}, {"last", st.last}};
  }
  nlohmann::ordered_json j = {
      {"total", t.total},
      {"stages", stages},
      {"bottleneck", std::string(stage_name(t.bottleneck))},
      {"trf_cache_hits", t.trf_hits},
      {"trf_cache_misses", t.trf_misses},
      {"trf_bank_conflicts", t.trf_bank_conflicts},
      {"mac_wait_stream", t.mac_wait_stream},
      {"mac_wait_slot", t.mac_wait_slot},
      {"slots", {{"max_in_use", t.max_slots_in_use}, {"capacity", t.slot_capacity}}}};
  if (t.store) j["trf_store"] = {{"cycles", t.store_cycles}, {"period", t.period}};
  if (!t.complete) j["incomplete"] = true;
  if (t.closed_form) j["closed_form"] = {{"steps", t.steps}, {"limit", kTraceStepLimit}};
  return j;
}

nlohmann::ordered_json cycle_report_json(const CycleReport& r) {
  return {{"slices", r.live_slices},
          {"simulated_slices", 1},
          {"analytic", analytic_json(r.analytic, r.options)},
          {"trace", trace_json(r.trace, r.options)},
          {"agreement", r.agreement}};
}

nlohmann::ordered_json cycle_summary_json(const ir::seq::ContractionProgram& program,
                                          const CycleOptions& options) {
  return cycle_report_json(cycle_report(program, options));
}

std::string cycle_summary_text(const CycleReport& r) {
  const AnalyticCycles& a = r.analytic;
  const TraceCycles& t = r.trace;
  std::string s = fmt::format(
      "cycles (one slice traced; the {} live slices run the same program in lock-step)\n",
      r.live_slices);
  s += fmt::format("  {:<16}{:>10}{:>12}{:>10}\n", "stage", "analytic", "trace busy", "stall");
  for (Stage st : reported_stages(r.options)) {
    const auto& ts = t.stages[static_cast<std::size_t>(st)];
    s += fmt::format("  {:<16}{:>10}{:>12}{:>10}\n", stage_name(st),
                     a.stage_cycles[static_cast<std::size_t>(st)], ts.busy, ts.stall);
  }
  s += fmt::format("  {:<16}{:>10}{:>12}    agreement {:.2f}%\n", "total", a.total, t.total,
                   100.0 * r.agreement);
  s += fmt::format("  bottleneck      {} (trace: {})\n", stage_name(a.bottleneck),
                   stage_name(t.bottleneck));
  s += fmt::format("  latency         fetch adapter {}, pack fill {}, tree {}, first output at "
                   "{}, drain {}\n",
                   a.fetch_latency, a.fill, a.tree_latency, a.first_output, a.drain);
  if (a.fetch_read_size != 0)
    s += fmt::format("  stream fetch    read size {} elements, {} reads per packet of {} flits: {} "
                     "DM reads, one per cycle\n",
                     a.fetch_read_size, a.fetch_reads_per_packet, a.fetch_flits_per_packet,
                     a.fetch_reads);
  const bool outer = r.options.first == Stage::ContractOuter;
  if (outer)
    s += fmt::format("  MAC utilisation {:.2f}% per packet cycle, {:.2f}% over the run\n",
                     100.0 * a.mac_utilization, 100.0 * a.mac_utilization_overall);
  if (a.output_bus_utilization > 0)
    s += fmt::format("  output bus      {:.2f}% of the 8-element flits carry live outputs\n",
                     100.0 * a.output_bus_utilization);
  if (r.options.last == Stage::ContractLane && runs_stage(r.options, Stage::ContractTime))
    s += fmt::format("  slots           InnerTime {} of {} (trace: at most {} in use, MAC waited "
                     "{} cycles for a slot, {} for the stream)\n",
                     a.slots_needed, a.slot_capacity, t.max_slots_in_use, t.mac_wait_slot,
                     t.mac_wait_stream);
  if (outer)
    s += fmt::format("  TRF reads       {} {} reads: {} hits, {} misses (analytic estimate {} "
                     "misses)\n",
                     a.trf_reads, a.wide_read ? "wide" : "narrow", t.trf_hits, t.trf_misses,
                     a.trf_misses);
  if (a.store)
    s += fmt::format("  TRF store       next operand into the other half: {} flits, {} cycles "
                     "(trace {}, {} bank conflicts); period {} (trace {})\n",
                     a.store_flits, a.store_cycles, t.store_cycles, t.trf_bank_conflicts, a.period,
                     t.period);
  if (t.closed_form)
    s += fmt::format("  trace           closed form: the walk would take {} steps, more than the "
                     "{} the trace walks (docs/cycle-model.md §3.1)\n",
                     t.steps, kTraceStepLimit);
  return s;
}

std::string cycle_summary_text(const ir::seq::ContractionProgram& program,
                               const CycleOptions& options) {
  return cycle_summary_text(cycle_report(program, options));
}

} // namespace tujit::cycles
