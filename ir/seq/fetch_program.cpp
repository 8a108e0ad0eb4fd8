#include "ir/seq/fetch_program.h"

#include "ir/seq/field_hash.h"
#include "ir/seq/lower_support.h"
#include "ir/verify/collect.h"

#include <fmt/format.h>

namespace tujit::ir::seq {
namespace {

std::uint64_t spatial_size(const TensorType& t) {
  return t.mapping(Slot::Chip).size() * t.mapping(Slot::Cluster).size() *
         t.mapping(Slot::Slice).size();
}

/// The parameter named `name` that a fetch can read: a DmTensor (through `begin(x.view())`) or a
/// BeginTensor (the same DM data already presented as Time ⊗ Packet); nullptr otherwise.
const KernelParam* dm_param(const Kernel& k, const std::string& name) {
  for (const auto& p : k.params)
    if (p.name == name && p.tensor &&
        (p.tensor->kind == TensorKind::Dm || p.tensor->kind == TensorKind::Begin))
      return &p;
  return nullptr;
}

/// docs/contraction.md §4.4 / docs/datapath.md §8.1: the short commands copy a fully contiguous DM
/// region straight into the register file. Empty when it applies, else why not.
std::string short_command_refusal(const FetchProgram& p, const verify::CollectDerived& collect) {
  if (p.lookup_to || p.cast_to || p.zero_point)
    return "the Fetch Adapter changes the values (a short command copies bytes)";
  if (p.switch_engine) return "the Switch Engine moves the packets across slices";
  if (collect.pad_bytes != 0)
    return fmt::format("Collect pads each packet with {} B (a short command copies whole flits)",
                       collect.pad_bytes);
  // One contiguous, in-order run: the merged table is a single stride-1 entry (or nothing).
  const auto merged = datapath::merge_contiguous(p.sequencer.entries, ~std::uint64_t{0});
  const bool contiguous = merged.empty() || (merged.size() == 1 && merged[0].stride == 1);
  if (!contiguous)
    return fmt::format("the fetch does not read one contiguous run in order ({})",
                       datapath::entries_text(merged));
  return {};
}

/// The Fetch Engine's derivation (docs/datapath.md §5): its sequencer and read figures copied
/// into `p`.
void take_fetch(const datapath::FetchDerived& fd, FetchProgram& p) {
  p.sequencer = fd.seq.config;
  p.read_size = fd.read_size;
  p.reads_per_packet = fd.reads_per_packet;
  p.fetch_cycles = fd.cycles;
}

/// The stages of one data-path chain, recognised by their units: collect ← [adapter] ← fetch.
struct FetchChain {
  const Stage* fetch = nullptr;
  // The Fetch Adapter's stages (docs/scalars.md §5.1): a table lookup, a cast, a zero-point
  // subtraction; the verifiers held them to that order, each at most once.
  const Stage* lookup = nullptr;
  const Stage* cast = nullptr;
  const Stage* zero_point = nullptr;
  std::optional<std::size_t> switch_engine; // the Switch Engine before Collect (docs/switch.md)
  const Stage* collect = nullptr;
  /// The DM tensor the fetch reads: a DmTensor or BeginTensor parameter, or one an earlier
  /// command wrote (a `to_dm`, docs/kernels.md §2), by name and type.
  std::string dm_name;
  const TensorType* dm_type = nullptr;
};

/// Walks the producer links back from the Collect stage `collect_index` to its Fetch:
/// collect ← [switch] ← [zero point] ← [cast] ← [table lookup] ← fetch.
Result<FetchChain> find_fetch_chain(const Kernel& kernel, std::size_t collect_index) {
  if (collect_index >= kernel.stages.size() ||
      kernel.stages[collect_index].unit() != StageUnit::Collect)
    return lower_error("internal: lower_fetch needs a collect stage");
  FetchChain c;
  c.collect = &kernel.stages[collect_index];
  for (std::optional<std::size_t> at = c.collect->producer; at && !c.fetch;) {
    const Stage& s = kernel.stages[*at];
    if (s.unit() == StageUnit::FetchSequencer)
      c.fetch = &s;
    else if (s.unit() == StageUnit::FetchAdapter)
      (s.op == StageOp::FetchTableLookup ? c.lookup
       : s.op == StageOp::FetchCast      ? c.cast
                                         : c.zero_point) = &s;
    else if (s.unit() == StageUnit::SwitchEngine && !c.switch_engine)
      c.switch_engine = *at;
    else
      return lower_error(
          fmt::format("`{}` between fetch and collect is not simulated", to_string(s.op)),
          s.name_span);
    at = s.producer;
  }
  if (c.fetch == nullptr)
    return lower_error("this collect does not read a `fetch` of the kernel: tujit runs "
                       "collect only on a stream fetched from a DmTensor parameter",
                       c.collect->name_span);
  // `begin_interleaved`: the pair of DM tensors, as the BeginTensor presents them (Time is the
  // grouping axis, docs/vector-engine.md §3.5); the run names them `a+b`.
  if (c.fetch->memory_producer || !c.fetch->interleaved.empty()) {
    c.dm_name = c.fetch->source;
    c.dm_type = c.fetch->memory_producer ? &kernel.stages[*c.fetch->memory_producer].output
                                         : &c.fetch->input;
    return c;
  }
  const KernelParam* dm = dm_param(kernel, c.fetch->source);
  if (dm != nullptr) {
    c.dm_name = dm->name;
    c.dm_type = &*dm->tensor;
  }
  if (c.fetch->producer || dm == nullptr)
    return lower_error(
        fmt::format("the fetch does not read a DmTensor or BeginTensor parameter (it reads `{}`)",
                    c.fetch->source),
        c.fetch->name_span);
  return c;
}

/// The Fetch Engine and the Fetch Adapter (docs/datapath.md §5, docs/contraction.md §2.2): the
/// sequencer and read figures, the table lookup, the cast, the zero point (checked against its
/// source type's range, docs/scalars.md §6).
Result<datapath::FetchDerived> lower_fetch_engine(const verify::CheckedKernel& ck,
                                                  const FetchChain& c, FetchProgram& p) {
  const Stage& fetch = *c.fetch;
  p.context = fetch.context == ContextKind::Sub ? datapath::FetchContext::Sub
                                                : datapath::FetchContext::Main;
  p.dm_type = fetch.input.dtype;
  p.stream_type = c.collect->input.dtype;
  const Stage* cast = c.cast;
  const Stage* zero_point = c.zero_point;
  if (c.lookup) p.lookup_to = c.lookup->cast_to;
  if (cast && cast->cast_to && *cast->cast_to != p.cast_source()) p.cast_to = cast->cast_to;
  if (zero_point) p.zero_point = zero_point->zero_point;

  // Buf = the Begin tensor's Time ⊗ Packet (= DM Element).
  auto buf = Mapping::pair(fetch.input.mapping(Slot::Time), fetch.input.mapping(Slot::Packet));
  if (!buf) return std::move(buf).take_diagnostics();
  p.buffer = buf->size();
  auto fd = verified<datapath::FetchDerived>(ck, fetch);
  if (!fd) return fd;
  take_fetch(*fd, p);
  if (zero_point && (!zero_point->zero_point || !zero_point->cast_to ||
                     !zero_point_in_range(zero_point->input.dtype, *zero_point->cast_to,
                                          *zero_point->zero_point)))
    return lower_error("the zero point is missing or outside its source type's range",
                       zero_point->name_span, {"docs/scalars.md §6"});
  return fd;
}

/// Collect's flits (docs/datapath.md §8), and the check that the fetch and collect shapes line up.
Status lower_collect(const verify::CheckedKernel& ck, const Stage& collect,
                     const datapath::FetchDerived& fd, FetchProgram& p,
                     verify::CollectDerived& cd) {
  auto derived = verified<verify::CollectDerived>(ck, collect);
  if (!derived) return std::move(derived).take_diagnostics();
  cd = *derived;
  p.flits_per_packet = cd.flits_per_packet;
  p.flit_elements = cd.flit_elements;
  if (p.sequencer.stream_size() != p.time * p.packet || fd.seq.live_footprint > p.buffer ||
      p.flits_per_packet * p.flit_elements < p.packet || spatial_size(p.collected) != p.spatial ||
      p.collected.mapping(Slot::Time).size() != p.collected_time() ||
      p.collected.mapping(Slot::Packet).size() != p.flit_elements)
    return lower_error(
        "internal: the fetch and collect shapes do not line up", collect.name_span,
        {fmt::format("stream {} of {}·{}, footprint {} of {}, {} flits of {}",
                     p.sequencer.stream_size(), p.time, p.packet, p.sequencer.footprint(), p.buffer,
                     p.flits_per_packet, p.flit_elements)});
  return {};
}

/// The first stage that reads the collected stream, when it is a register-file store, and
/// whether that store takes the StoTRF / StoVRF short command.
void lower_consumer(const Kernel& kernel, std::size_t collect_index,
                    const verify::CollectDerived& cd, FetchProgram& p) {
  for (std::size_t i = collect_index + 1; i < kernel.stages.size(); ++i) {
    const Stage& s = kernel.stages[i];
    if (s.producer != collect_index) continue;
    if (s.unit() == StageUnit::TrfStore) p.consumer = FetchConsumer::ToTrf;
    if (s.unit() == StageUnit::VrfStore) p.consumer = FetchConsumer::ToVrf;
    break;
  }
  if (p.consumer == FetchConsumer::Stream) return;
  p.short_command_refusal = short_command_refusal(p, cd);
  if (p.short_command_refusal.empty())
    p.short_command = p.consumer == FetchConsumer::ToTrf ? "StoTRF" : "StoVRF";
}

} // namespace

Status verify(const FetchProgram& p) {
  const auto invalid = [&](std::string what) {
    return run_error("E-RUN-102",
                     fmt::format("internal: the fetch of `{}` {}", p.source, std::move(what)));
  };
  if (p.spatial == 0 || p.buffer == 0 || p.time == 0 || p.packet == 0 || p.read_size == 0 ||
      p.flit_elements == 0 || p.flits_per_packet == 0)
    return invalid("has an empty dimension");
  if (p.sequencer.stream_size() != p.time * p.packet || p.sequencer.packet_size != p.packet)
    return invalid(fmt::format("walks {} positions of packets of {}, not {} × {}",
                               p.sequencer.stream_size(), p.sequencer.packet_size, p.time,
                               p.packet));
  // docs/datapath.md §5: a packet is read in whole accesses, one per cycle.
  if (p.packet % p.read_size != 0 || p.reads_per_packet != p.packet / p.read_size ||
      p.fetch_cycles != p.time * p.reads_per_packet)
    return invalid(fmt::format("reads packets of {} in {} reads of {} over {} cycles", p.packet,
                               p.reads_per_packet, p.read_size, p.fetch_cycles));
  // docs/datapath.md §8: a packet fills its flits, the last one partly at most.
  if (p.flits_per_packet * p.flit_elements < p.packet ||
      (p.flits_per_packet - 1) * p.flit_elements >= p.packet)
    return invalid(fmt::format("puts packets of {} into {} flits of {}", p.packet,
                               p.flits_per_packet, p.flit_elements));
  // docs/scalars.md §4.5: a decode table of the main context's Fetch Unit.
  if (p.lookup_to &&
      (!is_table_lookup(p.dm_type, *p.lookup_to) || p.context != datapath::FetchContext::Main))
    return invalid(fmt::format("looks {} up in a {} table it does not have", name(p.dm_type),
                               name(*p.lookup_to)));
  // docs/datapath.md §6: the Fetch Adapter decides the stream's scalar.
  const bool zero_point_type = p.stream_type == ScalarType::I5 || p.stream_type == ScalarType::I9;
  if (p.zero_point ? !zero_point_type : p.stream_type != p.adapted_type())
    return invalid(fmt::format("turns {} into a {} stream", name(p.dm_type), name(p.stream_type)));
  if (p.short_command && (p.consumer == FetchConsumer::Stream || p.lookup_to || p.cast_to ||
                          p.zero_point || p.switch_engine))
    return invalid("takes a short command it cannot take");
  if (p.switch_engine && (p.switch_engine->input.mapping(Slot::Time).size() != p.time ||
                          p.switch_engine->input.mapping(Slot::Packet).size() != p.packet))
    return invalid("switches a stream of another shape than it fetches");
  return {};
}

Result<FetchProgram> lower_fetch(const verify::CheckedKernel& ck, std::size_t collect_index) {
  const Kernel& kernel = ck;
  auto chain = find_fetch_chain(kernel, collect_index);
  if (!chain) return std::move(chain).take_diagnostics();
  FetchProgram p;
  p.kernel_name = kernel.name;
  p.stage = collect_index;
  p.source = chain->dm_name;
  p.dm = *chain->dm_type;
  p.fetched = chain->fetch->output;
  p.collected = chain->collect->output;
  p.spatial = spatial_size(p.dm);
  p.time = p.fetched.mapping(Slot::Time).size();
  p.packet = p.fetched.mapping(Slot::Packet).size();
  auto fd = lower_fetch_engine(ck, *chain, p);
  if (!fd) return std::move(fd).take_diagnostics();
  if (chain->switch_engine) {
    auto sw = lower_switch(ck, *chain->switch_engine);
    if (!sw) return std::move(sw).take_diagnostics();
    p.switch_engine = std::move(*sw);
  }
  verify::CollectDerived cd;
  if (auto r = lower_collect(ck, *chain->collect, *fd, p, cd); !r)
    return std::move(r).take_diagnostics();
  lower_consumer(kernel, collect_index, cd, p);
  if (auto ok = verify(p); !ok) return ok.diagnostics();
  return p;
}

Result<FetchProgram> lower_mem_read(const verify::CheckedKernel& ck, std::size_t read_index) {
  const Kernel& kernel = ck;
  if (read_index >= kernel.stages.size() ||
      kernel.stages[read_index].unit() != StageUnit::MemReader)
    return lower_error("internal: lower_mem_read needs a read stage");
  const Stage& read = kernel.stages[read_index];
  const KernelParam* mem = nullptr;
  for (const auto& prm : kernel.params)
    if (prm.name == read.source && prm.tensor && prm.tensor->kind == TensorKind::Mem) mem = &prm;
  if (read.producer || mem == nullptr)
    return lower_error(
        fmt::format("this read does not read a MemTensor parameter (it reads `{}`)", read.source),
        read.name_span);
  FetchProgram p;
  p.kernel_name = kernel.name;
  p.stage = read_index;
  p.source = mem->name;
  p.dm = *mem->tensor;
  p.fetched = read.output;
  p.collected = read.output;
  p.dm_type = p.stream_type = read.input.dtype;
  auto fd = verified<datapath::FetchDerived>(ck, read);
  if (!fd) return std::move(fd).take_diagnostics();
  take_fetch(*fd, p);
  p.buffer = read.input.mapping(Slot::Element).size();
  p.time = read.output.mapping(Slot::Time).size();
  p.packet = read.output.mapping(Slot::Packet).size();
  // The stream as read: one "flit" per packet of exactly its elements (no Collect follows).
  p.flits_per_packet = 1;
  p.flit_elements = p.packet;
  if (auto ok = verify(p); !ok) return ok.diagnostics();
  return p;
}

Result<std::vector<FetchProgram>> lower_fetches(const verify::CheckedKernel& kernel) {
  return lower_each<FetchProgram>(
      kernel, [](const Stage& s) { return s.unit() == StageUnit::Collect && s.producer; },
      lower_fetch);
}

std::string to_text(const FetchProgram& p) {
  std::string s = fmt::format("fetch {} of `{}`: DM {} cells of {} per slice × {} slices\n",
                              p.context == datapath::FetchContext::Main ? "main" : "sub", p.source,
                              p.buffer, name(p.dm_type), p.spatial);
  s += fmt::format("  sequencer {}  ({} × {} positions)\n", p.sequencer.to_string(), p.time,
                   p.packet);
  s += fmt::format("  read_size {} elements, {} reads per packet, {} cycles\n", p.read_size,
                   p.reads_per_packet, p.fetch_cycles);
  if (p.lookup_to)
    s += fmt::format("  fetch_table_lookup {} → {}{}\n", name(p.dm_type), name(*p.lookup_to),
                     is_paired_table_lookup(p.dm_type, *p.lookup_to) ? " (paired)" : "");
  if (p.cast_to)
    s += fmt::format("  fetch_cast {} → {}\n", name(p.cast_source()), name(*p.cast_to));
  if (p.zero_point)
    s += fmt::format("  fetch_zero_point_sub {} → {}, zp {}\n", name(p.adapted_type()),
                     name(p.stream_type), *p.zero_point);
  if (p.switch_engine)
    s += fmt::format("  switch {}: ring_size {}, {} cycles → Slice {}, Time {}\n",
                     to_string(p.switch_engine->kind), p.switch_engine->ring_size,
                     p.switch_engine->cycles,
                     p.switch_engine->output.mapping(Slot::Slice).to_string(),
                     p.switch_engine->output.mapping(Slot::Time).to_string());
  s += fmt::format("  collect: {} flit{} of {} × {} per packet → stream [{}][{}]\n",
                   p.flits_per_packet, p.flits_per_packet == 1 ? "" : "s", p.flit_elements,
                   name(p.stream_type), p.collected_time(), p.flit_elements);
  if (p.consumer != FetchConsumer::Stream)
    s += p.short_command ? fmt::format("  store: {} (contiguous DM region)\n", *p.short_command)
                         : fmt::format("  store: fetch → collect → {} ({})\n",
                                       p.consumer == FetchConsumer::ToTrf ? "to_trf" : "to_vrf",
                                       p.short_command_refusal);
  return s;
}

std::uint64_t fingerprint(const FetchProgram& p) {
  return field_fingerprint(p);
}

} // namespace tujit::ir::seq
