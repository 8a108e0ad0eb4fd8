#include "ir/seq/run_operands.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace tujit::ir::seq {
namespace {

Diagnostic unsupported(std::string message, SourceSpan span) {
  Diagnostic d = make_error("E-RUN-110", std::move(message), span);
  d.stage = "run";
  return d;
}

const KernelParam* param_named(const Kernel& k, const std::string& name) {
  for (const auto& p : k.params)
    if (p.name == name && p.tensor) return &p;
  return nullptr;
}

/// The `fetch` that starts the chain ending at `last` (following producers), or nullptr.
const Stage* chain_fetch(const Kernel& k, const Stage& last) {
  const Stage* s = &last;
  while (s->unit() != StageUnit::FetchSequencer && s->producer) s = &k.stages[*s->producer];
  return s->unit() == StageUnit::FetchSequencer ? s : nullptr;
}

/// The DM tensor `fetch` reads from the DM tensor `memory_producer` wrote, when `to_dm` wrote it
/// from an HbmTensor parameter: that parameter read through the DM layout, the axes it does not
/// have made broadcasts (RunOperands::moved, docs/dma.md §1). nullptr when it reads a parameter.
Result<const KernelParam*> moved_memory(const Kernel& k, const Stage& fetch,
                                        std::optional<std::size_t> memory_producer,
                                        RunOperands& ops) {
  if (!memory_producer) return static_cast<const KernelParam*>(nullptr);
  const Stage& writer = k.stages[*memory_producer];
  if (writer.op == StageOp::DmReshape)
    return unsupported("tujit run: this fetch reads a reshape of a DM tensor that no earlier "
                       "command committed and no DMA moved from an HbmTensor parameter of a "
                       "whole kernel; tujit runs a reshape of such a value "
                       "(docs/kernel-language.md §6.2)",
                       writer.name_span);
  if (writer.op != StageOp::ToDm)
    return unsupported(fmt::format("this fetch reads a DmTensor that `{}` of an earlier "
                                   "command wrote: the kernel runs command by command "
                                   "(`tujit run`, `tujit compile`, docs/kernels.md §3), not as "
                                   "one program",
                                   to_string(writer.op)),
                       fetch.name_span);
  // An HBM → HBM `to_hbm` before it is a relayout of the same logical tensor (docs/dma.md §1):
  // the DM tensor holds the parameter it started from.
  const Stage* from = &writer;
  while (from->producer && k.stages[*from->producer].op == StageOp::ToHbm &&
         k.stages[*from->producer].input.kind == TensorKind::Hbm)
    from = &k.stages[*from->producer];
  const KernelParam* hbm = from->producer ? nullptr : param_named(k, from->source);
  if (hbm == nullptr || hbm->tensor->kind != TensorKind::Hbm)
    return unsupported(fmt::format("tujit run: `to_dm` moves `{}`, which is not an HbmTensor "
                                   "parameter of the kernel",
                                   writer.source),
                       writer.name_span);
  std::vector<std::string> broadcast;
  std::set<std::string> own;
  for (const Axis& a : hbm->tensor->mapping(Slot::Chip).axes()) own.insert(a.name);
  for (const Axis& a : hbm->tensor->mapping(Slot::Element).axes()) own.insert(a.name);
  TensorType layout = writer.output;
  for (std::size_t i = 0; i < kSlotCount; ++i) {
    if (!layout.slots[i]) continue;
    for (const Axis& a : layout.slots[i]->mapping.axes())
      if (!own.count(a.name)) broadcast.push_back(a.name);
  }
  for (std::size_t i = 0; i < kSlotCount && !broadcast.empty(); ++i) {
    if (!layout.slots[i]) continue;
    auto m = broadcast_axes(layout.slots[i]->mapping, broadcast);
    if (!m) return std::move(m).take_diagnostics();
    layout.slots[i]->mapping = std::move(*m);
  }
  auto moved = std::make_shared<KernelParam>(*hbm);
  moved->tensor = std::move(layout);
  ops.moved.push_back(moved);
  ops.moved_layouts.push_back(writer.output);
  return moved.get();
}

/// The DM tensor `fetch` reads as `source` (written by `memory_producer`): a DmTensor or
/// BeginTensor parameter, or an HbmTensor parameter `to_dm` moved (moved_memory). A refusal
/// points at `at`, the collect of the chain.
Result<const KernelParam*> fetched_memory(const Kernel& k, const Stage& fetch,
                                          const std::string& source,
                                          std::optional<std::size_t> memory_producer,
                                          const std::string& role, SourceSpan at,
                                          RunOperands& ops) {
  auto moved = moved_memory(k, fetch, memory_producer, ops);
  if (!moved || *moved != nullptr) return moved;
  const KernelParam* param = param_named(k, source);
  if (param == nullptr ||
      (param->tensor->kind != TensorKind::Dm && param->tensor->kind != TensorKind::Begin))
    return unsupported(fmt::format("tujit run: the {} is fetched from `{}`, which is not a "
                                   "DmTensor parameter of the kernel",
                                   role, source),
                       at);
  return param;
}

/// The pair a `begin_interleaved` fetch reads (docs/vector-engine.md §3.5): its two DM tensors as
/// one BeginTensor whose Time is the grouping axis, side 0 at I = 0 (RunOperands::Interleaved).
/// E-RUN-110 when the sides, as the run reads them, are not laid out alike.
Result<const KernelParam*> interleaved_pair(const Kernel& k, const Stage& fetch,
                                            const std::string& role, SourceSpan at,
                                            RunOperands& ops) {
  RunOperands::Interleaved pair;
  for (std::size_t i = 0; i < 2; ++i) {
    const Stage::InterleavedSide& side = fetch.interleaved[i];
    auto p = fetched_memory(k, fetch, side.source, side.memory_producer, role, at, ops);
    if (!p) return p;
    pair.sides[i] = *p;
  }
  const TensorType& a = *pair.sides[0]->tensor;
  const TensorType& b = *pair.sides[1]->tensor;
  bool same = a.dtype == b.dtype;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice, Slot::Element})
    same = same && same_mapping(a.mapping(s), b.mapping(s));
  if (!same)
    return unsupported(fmt::format("tujit run: the {} interleaves `{}` and `{}`, which the run "
                                   "reads through different layouts ({} and {})",
                                   role, pair.sides[0]->name, pair.sides[1]->name, to_string(a),
                                   to_string(b)),
                       fetch.name_span);
  // The fetch's buffer is the BeginTensor's Time ⊗ Packet: the grouping axis picks the side.
  TensorType t = fetch.input;
  for (Slot s : {Slot::Chip, Slot::Cluster, Slot::Slice})
    if (a.get(s)) t.set(s, *a.get(s));
  if (a.get(Slot::Element)) t.set(Slot::Packet, *a.get(Slot::Element));
  auto param = std::make_shared<KernelParam>(*pair.sides[0]);
  param->name = fetch.source;
  param->tensor = std::move(t);
  param->built_inside = false;
  pair.param = param;
  pair.axis = fetch.input.mapping(Slot::Time).axes().front().name;
  ops.interleaved.push_back(std::move(pair));
  return param.get();
}

/// The DM tensor the fetch chain ending at `collect` reads, as fetched_memory (or the pair of an
/// interleaved fetch, interleaved_pair).
Result<const KernelParam*> collected_source(const Kernel& k, const Stage& collect,
                                            const std::string& role, RunOperands& ops) {
  const Stage* fetch = chain_fetch(k, collect);
  if (fetch == nullptr) // no fetch in the kernel: `collect` reads a parameter
    return fetched_memory(k, collect, collect.source, std::nullopt, role, collect.name_span, ops);
  if (!fetch->interleaved.empty()) return interleaved_pair(k, *fetch, role, collect.name_span, ops);
  return fetched_memory(k, *fetch, fetch->source, fetch->memory_producer, role, collect.name_span,
                        ops);
}

/// Where a stage's input stream comes from: a CollectTensor parameter, or a Collect stage that
/// fetched a DmTensor parameter (or a DM tensor `to_dm` wrote, or two interleaved,
/// collected_source). `role` names the operand in diagnostics.
Status stream_source(const Kernel& k, const Stage& reader, const std::string& role,
                     const KernelParam*& param, std::optional<std::size_t>& collect,
                     RunOperands& ops) {
  if (reader.producer) {
    const Stage& made_by = k.stages[*reader.producer];
    if (made_by.unit() != StageUnit::Collect)
      return unsupported(fmt::format("tujit run: the {} is made by `{}`, which tujit does not "
                                     "feed to `{}`",
                                     role, to_string(made_by.op), to_string(reader.op)),
                         made_by.name_span);
    collect = *reader.producer;
    auto fetched = collected_source(k, made_by, role, ops);
    if (!fetched) return std::move(fetched).take_diagnostics();
    param = *fetched;
    return {};
  }
  param = param_named(k, reader.source);
  if (param == nullptr || param->tensor->kind != TensorKind::Collect)
    return unsupported(fmt::format("tujit run: the {} `{}` is not a CollectTensor parameter, nor "
                                   "collected in the kernel from a DmTensor",
                                   role, reader.source),
                       reader.name_span);
  return {};
}

/// The `&vrf` operands of the pass ending at `final_index`, in call order: a VrfTensor parameter
/// or the source of the to_vrf that stored it (docs/vector-engine.md §3.2).
Status find_vrf_operands(const Kernel& k, std::size_t final_index, RunOperands& ops) {
  std::vector<RunOperands::VrfOperand> found;
  for (std::optional<std::size_t> at = final_index; at; at = k.stages[*at].producer) {
    const Stage& s = k.stages[*at];
    if (!s.vector) break;
    if (!s.vrf) continue;
    RunOperands::VrfOperand o;
    o.call = &s;
    if (!s.vrf_producer) {
      o.param = param_named(k, s.vrf_source);
      if (o.param == nullptr || o.param->tensor->kind != TensorKind::Vrf)
        return unsupported(fmt::format("tujit run: the VRF operand `{}` is neither a VrfTensor "
                                       "parameter nor made by `.to_vrf()` in the kernel",
                                       s.vrf_name),
                           s.vrf_span);
    } else {
      const Stage& store = k.stages[*s.vrf_producer];
      if (store.unit() != StageUnit::VrfStore)
        return unsupported(fmt::format("tujit run: the VRF operand `{}` is made by `{}`",
                                       s.vrf_name, to_string(store.op)),
                           s.vrf_span);
      o.store = &store;
      if (auto r = stream_source(k, store, "VRF operand's source", o.param, o.collect, ops); !r)
        return r;
    }
    found.push_back(o);
  }
  ops.vrf.assign(found.rbegin(), found.rend());
  return {};
}

/// A store or result read through a Vector Engine pass: the pass's vector_final, and the stream
/// its vector_init reads (a collected stream, or a ContractTensor parameter as in the book's
/// `relu`, furiosa-opt docs/src/computing-tensors/vector-engine/index.md).
Status pass_source(const Kernel& k, std::size_t final_index, RunOperands& ops) {
  ops.vector_final = final_index;
  if (auto r = find_vrf_operands(k, final_index, ops); !r) return r;
  for (std::optional<std::size_t> at = final_index; at; at = k.stages[*at].producer) {
    const Stage& s = k.stages[*at];
    if (!s.vector || s.vector->kind != VectorCallKind::Init) continue;
    const KernelParam* param = s.producer ? nullptr : param_named(k, s.source);
    if (param != nullptr && param->tensor->kind == TensorKind::Contract) {
      ops.stream = param;
      return {};
    }
    return stream_source(k, s, "stream of the Vector Engine pass", ops.stream, ops.stream_collect,
                         ops);
  }
  return unsupported("tujit run: this vector_final does not end a vector_init chain",
                     k.stages[final_index].name_span);
}

/// The Vector Engine pass that reads the contraction chain's output (docs/vector-engine.md §4.1),
/// and a to_vrf of its result: the stages whose producer is `lane`, then `vector_init`'s chain.
Status pass_after_chain(const Kernel& k, RunOperands& ops) {
  const auto index = [&](const Stage* s) { return static_cast<std::size_t>(s - k.stages.data()); };
  std::size_t at = index(ops.lane);
  for (bool moved = true; moved;) {
    moved = false;
    for (const Stage& s : k.stages) {
      if (s.producer != at || !s.vector) continue;
      at = index(&s);
      moved = s.vector->kind != VectorCallKind::Final;
      if (!moved) ops.vector_final = at;
      break;
    }
  }
  if (!ops.vector_final) return {};
  for (const Stage& s : k.stages)
    if (s.producer == *ops.vector_final && s.unit() == StageUnit::VrfStore) ops.store = &s;
  return find_vrf_operands(k, *ops.vector_final, ops);
}

/// The book's sequencer pseudo types (furiosa-opt docs/src/moving-tensors/sequencer.md): a
/// MemTensor parameter read as the kernel's stream (run like a fetch of one slice), or a
/// StreamTensor parameter written into a MemTensor (the output is the buffer after the write).
Status mem_source(const Kernel& k, const Stage& last, RunOperands& ops) {
  ops.stream = param_named(k, last.source);
  if (last.unit() == StageUnit::MemReader) {
    ops.shape = RunShape::Collect;
    ops.stream_collect = static_cast<std::size_t>(&last - k.stages.data());
    if (last.producer || ops.stream == nullptr || ops.stream->tensor->kind != TensorKind::Mem)
      return unsupported(fmt::format("tujit run: `read` reads `{}`, which is not a MemTensor "
                                     "parameter",
                                     last.source),
                         last.name_span);
    return {};
  }
  ops.shape = RunShape::Write;
  ops.write = &last;
  if (last.producer || ops.stream == nullptr || ops.stream->tensor->kind != TensorKind::Stream ||
      param_named(k, last.target) == nullptr)
    return unsupported("tujit run: `write` writes a StreamTensor parameter into a MemTensor "
                       "parameter",
                       last.name_span);
  return {};
}

Status find_trf(const Kernel& k, RunOperands& ops) {
  const Stage& outer = *ops.outer;
  if (!outer.trf_producer) {
    ops.trf = param_named(k, outer.trf_source);
    if (ops.trf == nullptr || ops.trf->tensor->kind != TensorKind::Trf)
      return unsupported(fmt::format("tujit run: the TRF operand `{}` is neither a TrfTensor "
                                     "parameter nor made by `.to_trf()` in the kernel",
                                     outer.trf_name),
                         outer.trf_span);
    return {};
  }
  const Stage& store = k.stages[*outer.trf_producer];
  if (store.unit() != StageUnit::TrfStore)
    return unsupported(fmt::format("tujit run: the TRF operand `{}` is made by `{}`",
                                   outer.trf_name, to_string(store.op)),
                       outer.trf_span);
  ops.trf_store = &store;
  return stream_source(k, store, "TRF source", ops.trf, ops.trf_collect, ops);
}

/// The last stage before the DMA transfers that end the kernel (the returned tensor's commit, in a
/// whole kernel); nullopt when the kernel is all DMA.
std::optional<std::size_t> before_dma(const Kernel& k) {
  std::optional<std::size_t> at = k.stages.size() - 1;
  while (at && is_dma(k.stages[*at].op)) at = k.stages[*at].producer;
  return at;
}

/// The stage a whole kernel's result leaves the engines from: follow the returned tensor back
/// through its DMA transfers and the output path (to_hbm ← commit ← [commit_cast] ← commit_trim ←
/// [transpose] ← [cast] ← the engines' stream). Nullopt when the kernel does not return through a
/// commit. A command of a kernel split into commands (kernel_commands.h) returns the DmTensor of
/// its commit.
std::optional<std::size_t> engine_result(const Kernel& k) {
  if (!k.returned || k.stages.empty()) return std::nullopt;
  const bool committed =
      k.returned->kind == TensorKind::Dm && k.stages.back().op == StageOp::Commit;
  if (k.returned->kind != TensorKind::Hbm && !committed) return std::nullopt;
  std::optional<std::size_t> at = before_dma(k);
  while (at && is_output_path(k.stages[*at].op)) at = k.stages[*at].producer;
  if (!at || at == k.stages.size() - 1) return std::nullopt;
  return at;
}

/// A whole kernel's output path after the engines' result (docs/output-path.md), and the view the
/// engines write through: the result's type with the packet positions the trim drops made padding.
Status output_path(const Kernel& k, RunOperands& ops) {
  const auto index = [&](const Stage* s) { return static_cast<std::size_t>(s - k.stages.data()); };
  std::size_t at = 0;
  if (ops.vector_final)
    at = *ops.vector_final;
  else if (ops.lane)
    at = index(ops.lane);
  else if (ops.stream_collect)
    at = *ops.stream_collect;
  else
    return {};
  const auto next = [&](std::initializer_list<StageOp> ops_) -> const Stage* {
    for (const Stage& s : k.stages)
      if (s.producer == at && std::find(ops_.begin(), ops_.end(), s.op) != ops_.end()) {
        at = index(&s);
        return &s;
      }
    return nullptr;
  };
  const TensorType engines = k.stages[at].output;
  ops.cast = next({StageOp::Cast});
  ops.transpose = next({StageOp::Transpose});
  ops.trim = next({StageOp::CommitTrim});
  if (ops.trim == nullptr) return {};
  ops.commit_cast = next({StageOp::CommitCast, StageOp::CommitCastRelu});
  ops.commit = next({StageOp::Commit});
  if (ops.commit == nullptr) return {};
  // A transpose relays the stream out (docs/transpose.md §4): the engines write through its
  // layout, in their own element type (the output path's cast converts every element in place).
  TensorType layout = ops.transpose != nullptr ? ops.transpose->output : engines;
  layout.dtype = engines.dtype;
  // The cast keeps every element at its packet position and the trim keeps the first valid_size
  // (E-CAST-004, E-COMMIT-003): the engines' packet, cut or padded to its own size, is the trimmed
  // packet when the two agree on the positions they share.
  const Mapping& packet = layout.mapping(Slot::Packet);
  const Mapping& kept = ops.trim->output.mapping(Slot::Packet);
  const std::uint64_t n = packet.size();
  auto view_packet = kept.size() > n   ? Mapping::resize(kept, n)
                     : kept.size() < n ? Mapping::padding(kept, n, PaddingKind::Top)
                                       : Result<Mapping>(kept);
  if (!view_packet) return std::move(view_packet).take_diagnostics();
  for (std::uint64_t p = 0; p < std::min(n, kept.size()); ++p) {
    const Cell a = packet.map(p), b = kept.map(p);
    if (a.is_live() && (!b.is_live() || !cell_equivalent(a, b)))
      return unsupported(fmt::format("tujit run: the engines' packet {} and the trimmed packet {} "
                                     "hold different elements at position {}",
                                     packet.to_string(), kept.to_string(), p),
                         ops.trim->name_span);
  }
  TensorType view = layout;
  view.set(Slot::Packet, SpannedMapping{*view_packet, ops.trim->span});
  ops.output_view = std::move(view);
  return {};
}

} // namespace

Result<std::vector<std::size_t>> contraction_path(const Kernel& k, std::size_t first,
                                                  std::size_t last) {
  const auto fail = [&](std::string why) {
    return run_error("E-RUN-101",
                     fmt::format("kernel `{}`: stages {} … {} are not one contraction chain",
                                 k.name, first, last),
                     {std::move(why)});
  };
  if (first > last || last >= k.stages.size()) return fail("no such stage range");
  std::vector<std::size_t> path{last};
  while (path.back() != first) {
    const Stage& st = k.stages[path.back()];
    if (!st.producer || *st.producer < first)
      return fail(fmt::format("`{}` (stage {}) does not read the output of a stage in the range",
                              to_string(st.op), path.back()));
    path.push_back(*st.producer);
  }
  std::reverse(path.begin(), path.end());
  for (std::size_t i = 0; i < path.size(); ++i) {
    const StageOp op = k.stages[path[i]].op;
    if (!is_contraction(op))
      return fail(fmt::format("`{}` is not a contraction stage", to_string(op)));
    // Consecutive steps: each stage is called on the kind of tensor the one before it gives.
    const StageOp before = i > 0 ? k.stages[path[i - 1]].op : op;
    if (i > 0 && descriptor(op).input != descriptor(before).output)
      return fail(fmt::format("`{}` follows `{}`", to_string(op), to_string(before)));
  }
  return path;
}

Result<ContractionStages> find_contraction_stages(const Kernel& k) {
  std::vector<std::uint8_t> consumed(k.stages.size(), 0);
  // A chain ends at a contraction stage no other contraction stage reads (a Vector Engine pass
  // may read it: docs/vector-engine.md §4.1).
  for (const auto& st : k.stages)
    if (st.producer && *st.producer < consumed.size() && is_contraction(st.op))
      consumed[*st.producer] = 1;
  for (std::size_t i = k.stages.size(); i-- > 0;) {
    if (!is_contraction(k.stages[i].op) || consumed[i]) continue;
    std::size_t first = i;
    while (k.stages[first].unit() != StageUnit::ContractOuter && k.stages[first].producer &&
           is_contraction(k.stages[*k.stages[first].producer].op))
      first = *k.stages[first].producer;
    auto path = contraction_path(k, first, i);
    if (!path) return path.diagnostics();
    return ContractionStages{first, i, std::move(*path)};
  }
  return run_error("E-RUN-101", fmt::format("kernel `{}` has no contraction stage to run", k.name),
                   {"the stage executor runs contract_outer, contract_packet, contract_time and "
                    "contract_lane (docs/contraction.md §5–§8)"});
}

const TensorType& RunOperands::stream_type(const Kernel& kernel) const {
  if (stream_collect) return kernel.stages[*stream_collect].output;
  return *stream->tensor;
}

const TensorType& RunOperands::output_type(const Kernel& kernel) const {
  if (output_view) return *output_view;
  switch (shape) {
  case RunShape::Contraction:
    if (store) return store->output;
    return vector_final ? kernel.stages[*vector_final].output : lane->output;
  case RunShape::Store:
    return store->output;
  case RunShape::Partial:
    return kernel.stages[partial_last].output;
  case RunShape::Collect:
    if (vector_final) return kernel.stages[*vector_final].output;
    break;
  case RunShape::Write:
    return write->output;
  }
  return stream_type(kernel);
}

ScalarType RunOperands::output_dtype(ScalarType engines) const {
  if (commit_cast) return commit_cast->output.dtype;
  if (cast) return cast->output.dtype;
  return engines;
}

const TensorType* RunOperands::moved_layout(const KernelParam* p) const {
  for (std::size_t i = 0; i < moved.size() && i < moved_layouts.size(); ++i)
    if (moved[i].get() == p) return &moved_layouts[i];
  return nullptr;
}

/// A whole kernel's result leaves through the commit `ops` found: else the kernel has commands
/// the run must take one by one (kernel_commands.h), and its first chain is not its result.
Status returns_commit(const Kernel& k, const RunOperands& ops) {
  if (!k.returned || k.returned->kind != TensorKind::Hbm || k.stages.empty()) return {};
  const std::optional<std::size_t> at = before_dma(k);
  if (ops.commit == nullptr || (at && &k.stages[*at] == ops.commit)) return {};
  return unsupported(fmt::format("kernel `{}` returns the result of a later command than the "
                                 "one this program runs; its commands run one by one "
                                 "(`tujit run`, docs/kernels.md §3)",
                                 k.name),
                     k.name_span);
}

namespace {

/// A kernel whose stages are DMA transfers only, one after the other from an HbmTensor parameter:
/// sets `ops` for the move of that parameter (RunOperands::transfers); leaves it alone otherwise.
Status transfers_only(const Kernel& kernel, RunOperands& ops) {
  if (kernel.stages.empty()) return {};
  for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
    const Stage& s = kernel.stages[i];
    if (!is_dma(s.op)) return {};
    // Each transfer moves the one before it (the first, a parameter).
    if (i > 0 && s.producer != i - 1) return {};
  }
  const Stage& first = kernel.stages.front();
  const KernelParam* source = first.producer ? nullptr : param_named(kernel, first.source);
  if (source == nullptr || source->tensor->kind != TensorKind::Hbm)
    return unsupported(fmt::format("tujit run: the kernel's transfers start from `{}`, which is "
                                   "not an HbmTensor parameter",
                                   first.source),
                       first.name_span);
  ops.shape = RunShape::Collect;
  ops.transfers = &kernel.stages.back();
  ops.stream = source;
  ops.output_view = *source->tensor;
  return {};
}

/// A run takes one result: the returned tensor, or the one output parameter the body's last
/// statement writes with `to_hbm_view` (docs/kernels.md §4).
Status one_result(const Kernel& k) {
  std::vector<const Stage*> writes;
  for (const Stage& s : k.stages)
    if (s.op == StageOp::ToHbm && !s.target.empty()) writes.push_back(&s);
  if (writes.empty() || (writes.size() == 1 && writes.front() == &k.stages.back() && k.returned))
    return {};
  std::string why;
  if (writes.size() > 1) {
    why = fmt::format("writes {} output parameters (`{}`", writes.size(), writes.front()->target);
    for (std::size_t i = 1; i < writes.size(); ++i) why += fmt::format(", `{}`", writes[i]->target);
    why += ")";
  } else if (k.returned) {
    why = fmt::format("writes the output parameter `{}` and also returns a tensor",
                      writes.front()->target);
  } else {
    why = fmt::format("writes the output parameter `{}` before its last statement",
                      writes.front()->target);
  }
  return unsupported(fmt::format("tujit run: kernel `{}` {}; a run takes one result, the returned "
                                 "tensor or the output parameter the last statement writes",
                                 k.name, why),
                     writes.back()->name_span);
}

} // namespace

Result<RunOperands> find_run_operands(const Kernel& kernel) {
  RunOperands ops;
  if (auto r = one_result(kernel); !r) return std::move(r).take_diagnostics();
  if (auto chain = find_contraction_chain(kernel)) {
    ops.outer = chain->outer;
    ops.lane = chain->lane;
    ops.shape = RunShape::Contraction;
    if (auto r = pass_after_chain(kernel, ops); !r) return std::move(r).take_diagnostics();
    if (auto r = stream_source(kernel, *ops.outer, "stream", ops.stream, ops.stream_collect, ops);
        !r)
      return std::move(r).take_diagnostics();
    if (auto r = find_trf(kernel, ops); !r) return std::move(r).take_diagnostics();
    if (auto r = output_path(kernel, ops); !r) return std::move(r).take_diagnostics();
    if (auto r = returns_commit(kernel, ops); !r) return std::move(r).take_diagnostics();
    return ops;
  }
  // Part of a chain: the Sequencer IR runs the part (ir/seq/contraction_program.h).
  if (auto span = find_contraction_stages(kernel)) {
    ops.shape = RunShape::Partial;
    ops.partial_first = span->first;
    ops.partial_last = span->last;
    const Stage& first = kernel.stages[span->first];
    if (first.unit() == StageUnit::ContractOuter) {
      ops.outer = &first;
      if (auto r = stream_source(kernel, first, "stream", ops.stream, ops.stream_collect, ops); !r)
        return std::move(r).take_diagnostics();
      if (auto r = find_trf(kernel, ops); !r) return std::move(r).take_diagnostics();
      return ops;
    }
    ops.stream = param_named(kernel, first.source);
    if (first.producer || ops.stream == nullptr)
      return unsupported(fmt::format("tujit run: `{}` reads `{}`, which is not a parameter of "
                                     "the kernel",
                                     to_string(first.op), first.source),
                         first.name_span);
    return ops;
  }
  // No contraction: a kernel that loads a register file, or fetches a stream, returns that; a
  // whole kernel returns what its output path commits of such a stream.
  const std::optional<std::size_t> result = engine_result(kernel);
  const Stage* last = result                  ? &kernel.stages[*result]
                      : kernel.stages.empty() ? nullptr
                                              : &kernel.stages.back();
  // A kernel that ends with a switch (the book's Switch Engine examples) returns the switched
  // stream of a FetchTensor parameter (docs/switch.md §4).
  if (last && last->unit() == StageUnit::SwitchEngine) {
    ops.shape = RunShape::Collect;
    ops.switch_engine = last;
    ops.output_view = last->output;
    ops.stream = last->producer ? nullptr : param_named(kernel, last->source);
    if (ops.stream == nullptr || ops.stream->tensor->kind != TensorKind::Fetch)
      return unsupported(fmt::format("tujit run: `switch` reads `{}`, which is not a FetchTensor "
                                     "parameter; tujit runs a switch there or between a fetch "
                                     "and its collect",
                                     last->source),
                         last->name_span);
    return ops;
  }
  // A kernel that ends with a transpose (the book's Transpose Engine examples) returns the
  // transposed stream of a collect, a Vector Engine pass or a CollectTensor parameter.
  if (last && last->unit() == StageUnit::TransposeEngine) {
    ops.transpose = last;
    ops.output_view = last->output;
    if (!last->producer) {
      ops.shape = RunShape::Collect;
      ops.stream = param_named(kernel, last->source);
      if (ops.stream == nullptr || ops.stream->tensor->kind != TensorKind::Collect)
        return unsupported(fmt::format("tujit run: `transpose` reads `{}`, which is not a "
                                       "CollectTensor parameter nor collected in the kernel",
                                       last->source),
                           last->name_span);
      return ops;
    }
    last = &kernel.stages[*last->producer];
    if (last->unit() == StageUnit::CastEngine && last->producer) {
      ops.cast = last; // converts every element in place (docs/output-path.md §1)
      last = &kernel.stages[*last->producer];
    }
    ops.output_view->dtype = last->output.dtype; // the engines write their own element type
  }
  if (last && is_register_store(last->op)) {
    ops.shape = RunShape::Store;
    ops.store = last;
    const bool after_pass = last->producer && kernel.stages[*last->producer].vector;
    auto r = after_pass ? pass_source(kernel, *last->producer, ops)
                        : stream_source(kernel, *last, "stored stream", ops.stream,
                                        ops.stream_collect, ops);
    if (!r) return std::move(r).take_diagnostics();
    return ops;
  }
  if (last && last->vector && last->vector->kind == VectorCallKind::Final) {
    ops.shape = RunShape::Collect;
    if (auto r = pass_source(kernel, static_cast<std::size_t>(last - kernel.stages.data()), ops);
        !r)
      return std::move(r).take_diagnostics();
    if (auto r = output_path(kernel, ops); !r) return std::move(r).take_diagnostics();
    return ops;
  }
  if (last && (last->unit() == StageUnit::MemReader || last->unit() == StageUnit::MemWriter)) {
    if (auto r = mem_source(kernel, *last, ops); !r) return std::move(r).take_diagnostics();
    return ops;
  }
  if (last && last->unit() == StageUnit::Collect && last->producer) {
    ops.shape = RunShape::Collect;
    ops.stream_collect = static_cast<std::size_t>(last - kernel.stages.data());
    auto fetched = collected_source(kernel, *last, "collected stream", ops);
    if (!fetched) return std::move(fetched).take_diagnostics();
    ops.stream = *fetched;
    if (auto r = output_path(kernel, ops); !r) return std::move(r).take_diagnostics();
    return ops;
  }
  if (auto r = transfers_only(kernel, ops); !r || ops.transfers) {
    if (!r) return std::move(r).take_diagnostics();
    return ops;
  }
  Diagnostic d = make_error(
      "E-RUN-101",
      fmt::format("tujit run: kernel '{}' has nothing tujit can run: no contract_outer … "
                  "contract_lane chain, it does not end with a to_trf / to_vrf store, a "
                  "collect, a transpose, a switch, a vector_final or a MemTensor read / write, "
                  "and it is not a run of DMA transfers from an HbmTensor parameter",
                  kernel.name),
      kernel.name_span);
  d.stage = "run";
  return d;
}

} // namespace tujit::ir::seq
