#include "harness/cycles/kernel_cycles.h"

#include "ir/lang/stage_descriptor.h"
#include "ir/target/rngd.h"
#include "ir/verify/checked_kernel.h"
#include "ir/verify/vector_engine.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tujit::cycles {

std::string_view command_kind_name(CommandKind k) {
  switch (k) {
  case CommandKind::Contraction:
    return "contraction";
  case CommandKind::ChainPart:
    return "chain part";
  case CommandKind::DataPath:
    return "data path";
  case CommandKind::Dma:
    return "dma";
  case CommandKind::Switch:
    return "switch";
  }
  return "?";
}

namespace {

/// A stage whose verifier's result the models time and the kernel's check does not hold (the
/// checker refuses a kernel with such a stage before any model runs).
Diagnostic unverified(const ir::Stage& s) {
  return make_error("E-RUN-102", fmt::format("internal: `{}` reached the cycle models without its "
                                             "verifier's result",
                                             ir::to_string(s.op)));
}

// The kernel's commands in body order, each with its statement and stage indices: a statement's
// stages form one command, except that a DMA transfer is always a command of its own (it runs on
// the tdma context, docs/cycle-model.md §10).
std::vector<std::pair<std::size_t, std::vector<std::size_t>>> command_stages(const ir::Kernel& k) {
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> out;
  std::map<std::size_t, std::size_t> open; // statement → its command of non-DMA stages
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    const std::size_t chain = k.stages[i].chain;
    if (k.stages[i].op == ir::StageOp::DmReshape) continue; // moves nothing: no command
    if (ir::is_dma(k.stages[i].op)) {
      out.push_back({chain, {i}});
      continue;
    }
    auto it = open.find(chain);
    if (it == open.end()) {
      it = open.emplace(chain, out.size()).first;
      out.push_back({chain, {}});
    }
    out[it->second].second.push_back(i);
  }
  return out;
}

// "begin(b) → fetch → collect → to_trf": the statement's stages as the kernel writes them.
std::string describe(const ir::Kernel& k, const std::vector<std::size_t>& stages) {
  std::string s;
  const ir::Stage& first = k.stages[stages.front()];
  // The DM tensor the fetch reads: a binding a DMA or a commit wrote, or a parameter.
  const std::string* dm = &first.source;
  if (first.memory_producer && !k.stages[*first.memory_producer].bound_to.empty())
    dm = &k.stages[*first.memory_producer].bound_to;
  if (first.unit() == ir::StageUnit::FetchSequencer && !first.producer)
    s = fmt::format("begin({}) → ", *dm);
  else if (ir::is_dma(first.op))
    s = fmt::format("{} → ", first.producer ? k.stages[*first.producer].bound_to : first.source);
  for (std::size_t i = 0; i < stages.size(); ++i)
    s += (i ? " → " : "") + std::string(ir::stage_name(k.stages[stages[i]]));
  return s;
}

// Configuration cycles of a command (docs/cycle-model.md M15): one per engine it configures — the
// Fetch sequencer, the Fetch Adapter, Collect, the register-file store, and each contraction
// stage. The StoTRF / StoVRF short command configures one compact instruction.
std::uint64_t setup_cycles(const ir::Kernel& k, const std::vector<std::size_t>& stages,
                           bool short_command) {
  const std::uint64_t per = target::kRngd.command_setup_cycles_per_engine;
  if (short_command) return per;
  std::uint64_t engines = 0;
  bool adapter = false;
  for (std::size_t i : stages) {
    const bool is_adapter = ir::is_fetch_adapter(k.stages[i].op);
    if (is_adapter && adapter) continue; // lookup, cast, zero point: stages of one adapter
    adapter = adapter || is_adapter;
    ++engines;
  }
  return engines * per;
}

// A data-path statement: its fetch (when it collects one), its sink and the flits the sink takes.
std::optional<DataPathCommand> data_path(const ir::verify::CheckedKernel& checked,
                                         const std::vector<std::size_t>& st) {
  const ir::Kernel& k = checked;
  const ir::Stage& last = k.stages[st.back()];
  DataPathCommand c;
  // The book's sequencer pseudo types (docs/datapath.md §4.2): a MemTensor read runs the Fetch
  // sequencer and hands on one packet per cycle; a write runs the write sequencer.
  if (last.unit() == ir::StageUnit::MemReader) {
    auto f = ir::seq::lower_mem_read(checked, st.back());
    if (!f) return std::nullopt;
    c.flits = f->collected_time();
    c.fetch = std::move(*f);
    return c;
  }
  if (last.unit() == ir::StageUnit::MemWriter) {
    auto w = ir::seq::lower_commit(checked, st.back());
    if (!w) return std::nullopt;
    c.sink = Stage::Commit;
    c.flits = w->time;
    c.commit = std::move(*w);
    return c;
  }
  const ir::Stage* collected = &last;
  if (ir::is_register_store(last.op)) {
    c.sink = *cycle_stage(last.unit());
    c.flits = last.input.mapping(ir::Slot::Time).size();
    const ir::TensorType& rf = last.output;
    c.register_bytes = (rf.mapping(ir::Slot::Lane).size() * rf.mapping(ir::Slot::Element).size() *
                            ir::wire_bits(rf.dtype) +
                        target::kRngd.bits_per_byte - 1) /
                       target::kRngd.bits_per_byte;
    if (c.sink == Stage::TrfStore) c.lanes = rf.mapping(ir::Slot::Lane).size();
    collected = last.producer ? &k.stages[*last.producer] : nullptr;
  } else if (last.vector && last.vector->kind == ir::VectorCallKind::Final) {
    // A Vector Engine pass's result, one flit per cycle (docs/cycle-model.md §7): the stream its
    // vector_init reads is fetched in the statement or is a parameter.
    c.flits = last.output.mapping(ir::Slot::Time).size();
    collected = nullptr;
    bool pair = false, reduce = false;
    for (const ir::Stage* s = &last; s->producer; s = &k.stages[*s->producer]) {
      pair = pair || (s->vector && s->vector->kind == ir::VectorCallKind::Unzip);
      reduce = reduce || (s->vector && s->vector->reduce.has_value());
      // The inter-slice reducer's result leaves one ring traversal of its group after the last
      // flit (furiosa-opt docs/src/computing-tensors/vector-engine/inter-slice-reducer.md
      // "Performance": "approximately one ring traversal of the reduction group").
      if (s->vector && s->vector->kind == ir::VectorCallKind::InterSliceReduce)
        if (auto g = ir::verify::inter_reduced_slices(s->input.mapping(ir::Slot::Slice),
                                                      s->output.mapping(ir::Slot::Slice)))
          c.ring_tail = g->size();
      if (s->vector && s->vector->kind == ir::VectorCallKind::Init) {
        // Pair mode enters both groups' flits, one per cycle at Way8, and leaves one for each
        // pair; the intra-slice reduce takes one flit per cycle and leaves one per reduction
        // group (docs/cycle-model.md §7): the pass takes the entering stream's flits.
        if (pair || reduce) c.flits = s->input.mapping(ir::Slot::Time).size();
        collected = &k.stages[*s->producer];
        break;
      }
    }
  } else if (last.unit() != ir::StageUnit::Collect) {
    return std::nullopt;
  } else {
    c.flits = last.output.mapping(ir::Slot::Time).size();
  }
  if (collected && collected->unit() == ir::StageUnit::Collect && collected->producer) {
    const auto at = static_cast<std::size_t>(collected - k.stages.data());
    auto f = ir::seq::lower_fetch(checked, at);
    if (!f) return std::nullopt;
    c.fetch = std::move(*f);
  } else if (last.unit() == ir::StageUnit::Collect) {
    return std::nullopt; // a collect of a parameter: nothing in the kernel fetches
  }
  return c;
}

// The data-path models of `path` into `c`.
void time_data_path(CommandCycles& c, DataPathCommand path, bool timeline) {
  c.kind = CommandKind::DataPath;
  c.path_analytic = datapath_analytic(path);
  c.path_trace = datapath_trace(path, timeline);
  c.analytic = c.path_analytic->total;
  c.trace = c.path_trace->total;
  c.trace_closed_form = c.path_trace->closed_form;
  c.trace_steps = c.path_trace->steps;
  c.path = std::move(path);
}

// A DMA transfer (docs/cycle-model.md §10): its start-up is part of the model, so no set-up.
Result<CommandCycles> time_dma(const ir::verify::CheckedKernel& checked, std::size_t stage,
                               CommandCycles c) {
  const ir::Kernel& k = checked;
  const ir::Stage& s = k.stages[stage];
  const auto* d = checked.derived<ir::verify::DmaDerived>(s);
  if (d == nullptr) return unverified(s);
  c.kind = CommandKind::Dma;
  c.context = ir::ContextKind::Tdma;
  c.dma_analytic = dma_analytic(*d);
  c.dma_trace = dma_trace(*d);
  c.analytic = c.dma_analytic->total;
  c.trace = c.dma_trace->total;
  c.trace_closed_form = c.dma_trace->closed_form;
  c.trace_steps = c.dma_trace->steps;
  c.dma = *d;
  return c;
}

// The Transpose Engine stage `s` of an output path, `before` cycles of Cast Engine ahead of it
// (docs/cycle-model.md §12).
Result<TransposeCycles> transpose_cycles(const ir::verify::CheckedKernel& checked,
                                         const ir::Stage& s, std::uint64_t before) {
  const auto* d = checked.derived<ir::verify::TransposeDerived>(s);
  if (d == nullptr) return unverified(s);
  TransposeCycles t;
  t.latency_before = before;
  t.in_flits = s.input.mapping(ir::Slot::Time).size();
  t.out_flits = s.output.mapping(ir::Slot::Time).size();
  t.out_rows = d->out_rows;
  t.iterations = d->iterations;
  t.matrix_flits = d->in_flits;
  t.double_buffered = d->double_buffered;
  t.burst = d->cycles;
  return t;
}

// The output path `stages` (cast, transpose, Commit Adapter, commit) of a command; the commit is
// lowered in its own stage's context.
Result<OutputPathCycles> output_path(const ir::verify::CheckedKernel& checked,
                                     const std::vector<std::size_t>& stages) {
  const ir::Kernel& k = checked;
  OutputPathCycles o;
  for (std::size_t i : stages) {
    const ir::Stage& s = k.stages[i];
    if (s.unit() == ir::StageUnit::TransposeEngine) {
      auto t = transpose_cycles(checked, s, o.latency);
      if (!t) return std::move(t).take_diagnostics();
      o.transpose = *t;
      o.latency = 0;
      o.flits = t->out_flits;
      continue;
    }
    if (s.unit() != ir::StageUnit::CommitEngine) {
      ++o.latency;
      continue;
    }
    auto walk = ir::seq::lower_commit(checked, i);
    if (!walk) return std::move(walk).take_diagnostics();
    o.flits = walk->time;
    o.committed = true;
    o.commit.sink = Stage::Commit;
    o.commit.flits = o.flits;
    o.commit.commit = std::move(*walk);
  }
  if (o.committed) {
    o.analytic = datapath_analytic(o.commit);
    o.trace = datapath_trace(o.commit);
  }
  return o;
}

// A command's cycles with its output path behind it (docs/cycle-model.md §11, §12): the engines
// hand on their last flits one per cycle up to `engines` [MODEL]. The Transpose Engine's burst
// starts with the first of them, after the casts before it (the last matrix's output follows the
// last flit within the burst); the commit starts `latency` cycles after the first flit it takes
// and ends when its walk does.
std::uint64_t behind(std::uint64_t engines, const OutputPathCycles& o, std::uint64_t commit) {
  std::uint64_t end = engines;
  if (o.transpose) {
    const TransposeCycles& t = *o.transpose;
    end += t.latency_before;
    end = (end > t.in_flits ? end - t.in_flits : 0) + t.burst;
  }
  if (!o.committed) return end + o.latency;
  const std::uint64_t first = end > o.flits ? end - o.flits : 0;
  return std::max(end + o.latency, first + o.latency + commit);
}

// Both models of one command; nullopt when it has no form the models time.
Result<std::optional<CommandCycles>> time_command(const ir::verify::CheckedKernel& checked,
                                                  std::size_t statement,
                                                  const std::vector<std::size_t>& stages,
                                                  bool timeline) {
  const ir::Kernel& k = checked;
  CommandCycles c;
  c.statement = statement;
  c.stages = stages;
  c.what = describe(k, stages);
  if (ir::is_dma(k.stages[stages.front()].op)) {
    auto d = time_dma(checked, stages.front(), std::move(c));
    if (!d) return std::move(d).take_diagnostics();
    return std::optional<CommandCycles>(std::move(*d));
  }
  c.context = k.stages[stages.front()].context == ir::ContextKind::Sub ? ir::ContextKind::Sub
                                                                       : ir::ContextKind::Main;
  std::vector<std::size_t> engines, out;
  for (std::size_t i : stages) (ir::is_output_path(k.stages[i].op) ? out : engines).push_back(i);
  const auto transposes = [&](std::size_t i) {
    return k.stages[i].unit() == ir::StageUnit::TransposeEngine;
  };
  const bool transposed = std::any_of(out.begin(), out.end(), transposes);
  if (!out.empty() && (transposed || k.stages[out.back()].unit() == ir::StageUnit::CommitEngine)) {
    auto o = output_path(checked, out);
    if (!o) return std::move(o).take_diagnostics();
    c.output = std::move(*o);
  }
  if (engines.empty() && !transposed) { // the commit of a stream parameter: its flits one per cycle
    if (!c.output) return std::optional<CommandCycles>();
    c.setup = setup_cycles(k, stages, false);
    time_data_path(c, c.output->commit, timeline);
    c.output.reset();
    return std::optional<CommandCycles>(std::move(c));
  }
  if (engines.empty()) {
    // A stream parameter's flits, one per cycle, into the Transpose Engine (§12).
    DataPathCommand source;
    source.flits = c.output->transpose->in_flits;
    c.setup = setup_cycles(k, stages, false);
    time_data_path(c, std::move(source), timeline);
  } else if (auto contraction = contraction_stages(k, statement); !contraction.empty()) {
    auto part = chain_part(checked, contraction);
    if (!part) return std::move(part).take_diagnostics();
    c.kind = part->complete ? CommandKind::Contraction : CommandKind::ChainPart;
    c.chain = cycle_report(part->program, part->options, timeline);
    c.analytic = c.chain->analytic.total;
    c.trace = c.chain->trace.total;
    c.trace_closed_form = c.chain->trace.closed_form;
    c.trace_steps = c.chain->trace.steps;
    c.part = std::move(*part);
    c.setup = setup_cycles(k, stages, false);
  } else if (engines.size() == 1 && out.empty() &&
             k.stages[engines.front()].unit() == ir::StageUnit::SwitchEngine) {
    // A stream parameter through the Switch Engine: the book's estimate, both models alike
    // (docs/cycle-model.md §13).
    const ir::Stage& s = k.stages[engines.front()];
    if (!s.switch_config) return std::optional<CommandCycles>();
    const auto* d = checked.derived<ir::verify::SwitchDerived>(s);
    if (d == nullptr) return unverified(s);
    c.kind = CommandKind::Switch;
    c.setup = setup_cycles(k, stages, false);
    c.analytic = c.trace = d->cycles;
    c.switch_engine = *d;
  } else {
    auto path = data_path(checked, engines);
    if (!path) return std::optional<CommandCycles>();
    if (path->short_command())
      c.what += fmt::format(" ({} short command)", *path->fetch->short_command);
    c.setup = setup_cycles(k, stages, path->short_command());
    time_data_path(c, std::move(*path), timeline);
  }
  if (c.output) {
    c.analytic = behind(c.analytic, *c.output, c.output->analytic.total);
    c.trace = behind(c.trace, *c.output, c.output->trace.total);
  }
  return std::optional<CommandCycles>(std::move(c));
}

// One model's schedule of the graph (docs/cycle-model.md §9, §14), its times copied into the
// commands' slots.
Schedule schedule_model(KernelCycles& kc, bool trace) {
  std::vector<std::uint64_t> durations;
  for (const CommandCycles& c : kc.commands)
    durations.push_back(c.setup + (trace ? c.trace : c.analytic));
  Schedule s = schedule(kc.graph, durations);
  for (std::size_t i = 0; i < kc.commands.size(); ++i) {
    CommandSlot& slot = trace ? kc.commands[i].trace_slot : kc.commands[i].analytic_slot;
    slot = {s.commands[i].start, s.commands[i].end};
  }
  return s;
}

// Steady state of a repeated kernel whose contraction reads a TRF that a store of another context
// refills (the chain's concurrent store, M10): per pass, each context does its own commands, and
// the store runs next to the contraction with the bank contention the chain's model counts.
void double_buffer(KernelCycles& kc) {
  const CommandCycles& main = kc.commands[kc.main];
  if (!main.chain || !main.chain->analytic.store || kc.commands.size() != 2) return;
  const CommandCycles& store = kc.commands[1 - kc.main];
  if (store.context == main.context || store.kind != CommandKind::DataPath) return;
  kc.double_buffered = true;
  kc.analytic_period = std::max(main.setup + main.chain->analytic.total,
                                store.setup + main.chain->analytic.store_cycles);
  kc.trace_period =
      std::max(main.setup + main.chain->trace.total, store.setup + main.chain->trace.store_cycles);
}

} // namespace

Result<KernelCycles> kernel_cycles(const ir::verify::CheckedKernel& checked, bool record_timeline) {
  const ir::Kernel& kernel = checked;
  KernelCycles kc;
  kc.kernel = kernel.name;
  for (const auto& [statement, stages] : command_stages(kernel)) {
    auto c = time_command(checked, statement, stages, record_timeline);
    if (!c) return std::move(c).take_diagnostics();
    if (*c) kc.commands.push_back(std::move(**c));
  }
  if (kc.commands.empty()) {
    Diagnostic d = make_error(
        "E-CYCLES-001",
        fmt::format("kernel `{}` has no command the cycle models time", kernel.name),
        kernel.name_span,
        {"the models time contraction chains (or parts of one), fetch → collect commands, "
         "register-file stores, commits and DMA transfers (docs/cycle-model.md §9); a statement "
         "that ends at a fetch, before Collect, moves nothing a later engine reads"});
    d.stage = "cycles";
    return d;
  }
  kc.graph = schedule_graph(kernel, kc.commands);
  for (std::size_t i = 0; i < kc.commands.size(); ++i)
    for (const Dependency& d : kc.graph.nodes[i].after)
      if (d.why == WaitKind::ReadAfterWrite &&
          std::find(kc.commands[i].after.begin(), kc.commands[i].after.end(), d.command) ==
              kc.commands[i].after.end())
        kc.commands[i].after.push_back(d.command);
  kc.main = kc.commands.size() - 1;
  for (std::size_t i = kc.commands.size(); i-- > 0;) // the last data-path command, if any
    if (kc.commands[i].path) {
      kc.main = i;
      break;
    }
  for (std::size_t i = 0; i < kc.commands.size(); ++i)
    if (kc.commands[i].chain) kc.main = i;
  kc.analytic_schedule = schedule_model(kc, false);
  kc.trace_schedule = schedule_model(kc, true);
  kc.analytic_total = kc.analytic_period = kc.analytic_schedule.makespan;
  kc.trace_total = kc.trace_period = kc.trace_schedule.makespan;
  double_buffer(kc);
  kc.agreement = 1.0 - relative_deviation(kc.analytic_total, kc.trace_total);
  return kc;
}

std::uint64_t budget_cycles(const KernelCycles& k) {
  return k.commands[k.main].analytic;
}

} // namespace tujit::cycles
