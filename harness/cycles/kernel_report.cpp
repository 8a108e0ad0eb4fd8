#include "harness/cycles/kernel_report.h"

#include <fmt/format.h>

#include <tuple>

namespace tujit::cycles {

namespace {

std::vector<Stage> datapath_stages(const DataPathCommand& c) {
  std::vector<Stage> out;
  if (c.fetch) out.push_back(Stage::Fetch);
  if (c.fetch && c.fetch->switch_engine) out.push_back(Stage::Switch);
  if (c.fetch && !c.short_command() && c.sink != Stage::Collect) out.push_back(Stage::Collect);
  out.push_back(c.sink);
  return out;
}

std::string_view context_name(ir::ContextKind k) {
  return k == ir::ContextKind::Sub ? "sub" : k == ir::ContextKind::Tdma ? "tdma" : "main";
}

std::string dma_text(const CommandCycles& c) {
  const ir::verify::DmaDerived& d = *c.dma;
  const DmaCycles& a = *c.dma_analytic;
  const DmaCycles& t = *c.dma_trace;
  std::string s = fmt::format(
      "  dma             {}: {} B in {} packets of {} B, {} requests of 256 B ({} partial HBM "
      "writes, {} unaligned HBM reads), {} DMNs, {} engines\n",
      ir::verify::to_string(d.route), d.bytes, d.packets, d.packet_bytes, d.requests,
      d.partial_hbm_writes, d.unaligned_hbm_reads, d.dmns, d.engines);
  s += fmt::format("  {:<16}{:>10}{:>12}\n", "", "analytic", "trace");
  for (auto [name, x, y] : {std::tuple{"start-up", a.startup, t.startup},
                            std::tuple{"requests", a.request_cycles, t.request_cycles},
                            std::tuple{"DM bandwidth", a.dm_cycles, t.dm_cycles},
                            std::tuple{"HBM bandwidth", a.hbm_cycles, t.hbm_cycles},
                            std::tuple{"total", a.total, t.total}})
    s += fmt::format("  {:<16}{:>10}{:>12}\n", name, x, y);
  s += fmt::format("  bound           {} (trace: {}){}\n", a.bound, t.bound,
                   t.closed_form ? "; trace: closed form" : "");
  return s;
}

nlohmann::ordered_json dma_json(const DmaCycles& d) {
  nlohmann::ordered_json j = {{"total", d.total},
                              {"startup", d.startup},
                              {"request_slots", d.requests},
                              {"request_cycles", d.request_cycles},
                              {"dm_cycles", d.dm_cycles},
                              {"hbm_cycles", d.hbm_cycles},
                              {"bound", std::string(d.bound)}};
  if (d.closed_form) j["closed_form"] = {{"steps", d.steps}, {"limit", kTraceStepLimit}};
  return j;
}

std::string transpose_text(const TransposeCycles& t) {
  return fmt::format("  transpose       {} cycle(s) of cast before it; {} iteration(s) of {} input "
                     "flits → {} rows, {} buffering: a burst of {} cycles; {} flits in, {} out\n",
                     t.latency_before, t.iterations, t.matrix_flits, t.out_rows,
                     t.double_buffered ? "double" : "single", t.burst, t.in_flits, t.out_flits);
}

std::string output_text(const OutputPathCycles& o) {
  std::string s = o.transpose ? transpose_text(*o.transpose) : "";
  if (!o.committed)
    return s +
           fmt::format("  output path     {} cycle(s) of Commit Adapter, no commit\n", o.latency);
  const ir::seq::CommitProgram& w = *o.commit.commit;
  return s + fmt::format("  output path     {} cycle(s) of cast / Commit Adapter, then the commit: "
                         "write sequencer {}, {} live of {} positions per packet, write size {} "
                         "element(s), {} writes (trace {}) for {} flits\n",
                         o.latency, w.sequencer.to_string(), w.valid, w.packet, w.write_size,
                         o.analytic.writes, o.trace.writes, o.flits);
}

std::uint64_t live_slices(const DataPathCommand& c) {
  if (!c.fetch) return 1;
  std::uint64_t n = 1;
  for (ir::Slot s : {ir::Slot::Chip, ir::Slot::Cluster, ir::Slot::Slice}) {
    const ir::Mapping& m = c.fetch->collected.mapping(s);
    std::uint64_t live = 0;
    for (std::uint64_t i = 0; i < m.size(); ++i) live += m.map(i).is_live() ? 1 : 0;
    n *= live;
  }
  return n;
}

std::string switch_text(const CommandCycles& c) {
  const ir::verify::SwitchDerived& d = *c.switch_engine;
  return fmt::format("  switch          {}: ring_size {} · |InTime| {} · flits_per_packet {} = {} "
                     "cycles ({} sub-rings; docs/switch.md §5)\n",
                     ir::to_string(d.kind), d.ring_size, d.time_size, d.flits_per_packet, d.cycles,
                     d.sub_rings);
}

nlohmann::ordered_json switch_json(const ir::verify::SwitchDerived& d) {
  return {{"total", d.cycles},        {"config", std::string(ir::to_string(d.kind))},
          {"ring_size", d.ring_size}, {"sub_rings", d.sub_rings},
          {"time_size", d.time_size}, {"flits_per_packet", d.flits_per_packet}};
}

std::string datapath_text(const CommandCycles& c) {
  const DataPathCycles& a = *c.path_analytic;
  const DataPathCycles& t = *c.path_trace;
  const DataPathCommand& p = *c.path;
  std::string s =
      fmt::format("  {:<16}{:>10}{:>12}{:>10}\n", "stage", "analytic", "trace busy", "stall");
  for (Stage st : datapath_stages(p)) {
    const auto i = static_cast<std::size_t>(st);
    s += fmt::format("  {:<16}{:>10}{:>12}{:>10}\n", stage_name(st), a.stages[i].busy,
                     t.stages[i].busy, t.stages[i].stall);
  }
  s += fmt::format("  {:<16}{:>10}{:>12}    agreement {:.2f}%\n", "total", a.total, t.total,
                   100.0 * (1.0 - relative_deviation(a.total, t.total)));
  s += fmt::format("  bottleneck      {} (trace: {})\n", stage_name(a.bottleneck),
                   stage_name(t.bottleneck));
  if (p.fetch)
    s += fmt::format("  fetch           {} context, read size {} elements ({} B), {} reads per "
                     "packet of {} flit{}: {} DM reads, one per cycle; Fetch Adapter +{}\n",
                     p.fetch->context == ir::datapath::FetchContext::Sub ? "sub" : "main",
                     p.fetch->read_size, p.fetch->read_size * ir::wire_bits(p.fetch->dm_type) / 8,
                     p.fetch->reads_per_packet, p.fetch->flits_per_packet,
                     p.fetch->flits_per_packet == 1 ? "" : "s", a.reads, a.adapter_latency);
  else if (p.commit)
    s += fmt::format("  commit          write sequencer {}: {} live of {} positions per packet, "
                     "contiguous run {}, write size {} element(s); {} writes, one per cycle, "
                     "the stream's packets one per cycle\n",
                     p.commit->sequencer.to_string(), p.commit->valid, p.commit->packet,
                     p.commit->access, p.commit->write_size, a.writes);
  else
    s += "  source          a CollectTensor parameter: one flit per cycle\n";
  if (a.trf)
    s += fmt::format("  TRF placement   {}: {} of the {} rows per bank the region gives each of "
                     "the {} lanes (trace {}); flits per bank {} / {} (trace {} / {})\n",
                     a.trf->region, a.trf->rows_per_lane, a.trf->row_capacity, p.lanes,
                     t.trf->rows_per_lane, a.trf->bank_flits[0], a.trf->bank_flits[1],
                     t.trf->bank_flits[0], t.trf->bank_flits[1]);
  if (t.closed_form)
    s += fmt::format("  trace           closed form: the walk would take {} steps, more than the "
                     "{} the trace walks (docs/cycle-model.md §3.1)\n",
                     t.steps, kTraceStepLimit);
  return s;
}

nlohmann::ordered_json slot_json(const CommandSlot& s) {
  return {{"start", s.start}, {"end", s.end}};
}

} // namespace

nlohmann::ordered_json datapath_json(const DataPathCycles& d, const DataPathCommand& c,
                                     bool trace) {
  nlohmann::ordered_json stages;
  for (Stage s : datapath_stages(c)) {
    const StageTrace& st = d.stages[static_cast<std::size_t>(s)];
    if (trace)
      stages[std::string(stage_name(s))] = {
          {"busy", st.busy}, {"stall", st.stall}, {"first", st.first}, {"last", st.last}};
    else
      stages[std::string(stage_name(s))] = st.busy;
  }
  nlohmann::ordered_json j = {{"total", d.total},
                              {"stages", stages},
                              {"bottleneck", std::string(stage_name(d.bottleneck))}};
  if (c.fetch)
    j["fetch"] = {{"context", c.fetch->context == ir::datapath::FetchContext::Sub ? "sub" : "main"},
                  {"read_size", c.fetch->read_size},
                  {"reads_per_packet", c.fetch->reads_per_packet},
                  {"flits_per_packet", c.fetch->flits_per_packet},
                  {"reads", d.reads},
                  {"adapter_latency", d.adapter_latency}};
  if (c.commit)
    j["commit"] = {{"sequencer", c.commit->sequencer.to_string()},
                   {"valid", c.commit->valid},
                   {"contiguous_run", c.commit->access},
                   {"write_size", c.commit->write_size},
                   {"writes", d.writes}};
  if (d.trf)
    j["trf"] = {{"region", d.trf->region},
                {"rows_per_lane", d.trf->rows_per_lane},
                {"row_capacity", d.trf->row_capacity},
                {"bank_flits", d.trf->bank_flits}};
  if (!d.complete) j["incomplete"] = true;
  if (d.closed_form) j["closed_form"] = {{"steps", d.steps}, {"limit", kTraceStepLimit}};
  return j;
}

nlohmann::ordered_json kernel_cycles_json(const KernelCycles& k) {
  const CommandCycles& m = k.commands[k.main];
  nlohmann::ordered_json doc;
  if (m.chain) {
    doc = cycle_report_json(*m.chain);
  } else if (m.switch_engine) {
    doc = {{"slices", 1},
           {"simulated_slices", 1},
           {"analytic", switch_json(*m.switch_engine)},
           {"trace", switch_json(*m.switch_engine)},
           {"agreement", 1.0}};
  } else if (m.dma) {
    doc = {{"slices", 1},
           {"simulated_slices", 1},
           {"analytic", dma_json(*m.dma_analytic)},
           {"trace", dma_json(*m.dma_trace)},
           {"agreement", 1.0 - relative_deviation(m.analytic, m.trace)}};
  } else {
    doc = {{"slices", live_slices(*m.path)},
           {"simulated_slices", 1},
           {"analytic", datapath_json(*m.path_analytic, *m.path, false)},
           {"trace", datapath_json(*m.path_trace, *m.path, true)},
           {"agreement", 1.0 - relative_deviation(m.analytic, m.trace)}};
  }
  nlohmann::ordered_json cmds = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < k.commands.size(); ++i) {
    const CommandCycles& c = k.commands[i];
    nlohmann::ordered_json j = {
        {"index", i},
        {"statement", c.statement},
        {"context", std::string(context_name(c.context))},
        {"form", std::string(command_kind_name(c.kind))},
        {"command", c.what},
        {"setup", c.setup},
        {"after", c.after},
        {"analytic", {{"cycles", c.analytic}, {"slot", slot_json(c.analytic_slot)}}},
        {"trace", {{"cycles", c.trace}, {"slot", slot_json(c.trace_slot)}}}};
    if (c.trace_closed_form) j["trace"]["closed_form"] = {{"steps", c.trace_steps}};
    if (c.path && i != k.main) {
      j["analytic"]["model"] = datapath_json(*c.path_analytic, *c.path, false);
      j["trace"]["model"] = datapath_json(*c.path_trace, *c.path, true);
    }
    if (c.dma) {
      j["analytic"]["model"] = dma_json(*c.dma_analytic);
      j["trace"]["model"] = dma_json(*c.dma_trace);
      j["dma"] = {{"route", std::string(ir::verify::to_string(c.dma->route))},
                  {"bytes", c.dma->bytes},
                  {"packets", c.dma->packets},
                  {"packet_bytes", c.dma->packet_bytes},
                  {"requests", c.dma->requests},
                  {"partial_hbm_writes", c.dma->partial_hbm_writes},
                  {"unaligned_hbm_reads", c.dma->unaligned_hbm_reads},
                  {"dmns", c.dma->dmns},
                  {"engines", c.dma->engines}};
    }
    if (c.output) {
      const OutputPathCycles& o = *c.output;
      j["output_path"] = {{"latency", o.latency}, {"flits", o.flits}};
      if (o.transpose)
        j["output_path"]["transpose"] = {
            {"latency_before", o.transpose->latency_before},
            {"in_flits", o.transpose->in_flits},
            {"out_flits", o.transpose->out_flits},
            {"iterations", o.transpose->iterations},
            {"matrix_flits", o.transpose->matrix_flits},
            {"out_rows", o.transpose->out_rows},
            {"buffering", o.transpose->double_buffered ? "double" : "single"},
            {"burst", o.transpose->burst}};
      if (o.committed) {
        j["output_path"]["analytic"] = datapath_json(o.analytic, o.commit, false);
        j["output_path"]["trace"] = datapath_json(o.trace, o.commit, true);
      }
    }
    cmds.push_back(std::move(j));
  }
  doc["commands"] = std::move(cmds);
  doc["schedule"] = {{"analytic", {{"total", k.analytic_total}, {"period", k.analytic_period}}},
                     {"trace", {{"total", k.trace_total}, {"period", k.trace_period}}},
                     {"agreement", k.agreement},
                     {"double_buffered", k.double_buffered}};
  return doc;
}

std::string kernel_cycles_text(const KernelCycles& k) {
  std::string s = fmt::format("commands (one slice; set-up + pipeline cycles; docs/cycle-model.md "
                              "§9)\n  {:<3}{:<8}{:<12}{:>7}{:>10}{:>10}   {}\n",
                              "#", "context", "form", "set-up", "analytic", "trace", "command");
  for (std::size_t i = 0; i < k.commands.size(); ++i) {
    const CommandCycles& c = k.commands[i];
    s += fmt::format("  {:<3}{:<8}{:<12}{:>7}{:>10}{:>10}   {}{}\n", i + 1, context_name(c.context),
                     command_kind_name(c.kind), c.setup, c.analytic, c.trace, c.what,
                     c.trace_closed_form ? " [trace: closed form]" : "");
  }
  s += fmt::format("  kernel: {} cycles analytic, {} trace (agreement {:.2f}%)", k.analytic_total,
                   k.trace_total, 100.0 * k.agreement);
  if (k.double_buffered)
    s += fmt::format("; repeated with the TRF double-buffered: a pass every {} cycles (trace {})",
                     k.analytic_period, k.trace_period);
  s += "\n";
  for (std::size_t i = 0; i < k.commands.size(); ++i) {
    const CommandCycles& c = k.commands[i];
    s += fmt::format("command {}: {}\n", i + 1, c.what);
    s += c.chain           ? cycle_summary_text(*c.chain)
         : c.dma           ? dma_text(c)
         : c.switch_engine ? switch_text(c)
                           : datapath_text(c);
    if (c.output) s += output_text(*c.output);
  }
  return s;
}

CycleReport timeline_report(const KernelCycles& k) {
  const CommandCycles& m = k.commands[k.main];
  if (m.chain) return *m.chain;
  CycleReport r;
  r.analytic.total = m.analytic;
  r.trace.total = r.trace.period = m.trace;
  if (!m.path) return r; // a DMA transfer: no stage of a slice to draw
  r.trace.stages = m.path_trace->stages;
  r.trace.timeline = m.path_trace->timeline;
  r.trace.bottleneck = m.path_trace->bottleneck;
  r.live_slices = live_slices(*m.path);
  return r;
}

} // namespace tujit::cycles
