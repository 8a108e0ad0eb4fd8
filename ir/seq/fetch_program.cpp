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
  if (p.cast_to || p.zero_point)
    return "the Fetch Adapter changes the values (a short command copies bytes)";
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

/// The Fetch Engine's verdict on `fi`, its sequencer and read figures copied into `p`.
Result<datapath::FetchDerived> verify_into(const datapath::FetchInput& fi, FetchProgram& p) {
  auto fd = datapath::verify_fetch(fi);
  if (!fd) return fd;
  p.sequencer = fd->seq.config;
  p.read_size = fd->read_size;
  p.reads_per_packet = fd->reads_per_packet;
  p.fetch_cycles = fd->cycles;
  return fd;
}

} // namespace

Result<FetchProgram> lower_fetch(const Kernel& kernel, std::size_t collect_index) {
  if (collect_index >= kernel.stages.size() || kernel.stages[collect_index].op != StageOp::Collect)
    return lower_error("internal: lower_fetch needs a collect stage");
  const Stage& collect = kernel.stages[collect_index];
  // Walk the producer links back to the Fetch: collect ← [zero point] ← [cast] ← fetch.
  const Stage* cast = nullptr;
  const Stage* zero_point = nullptr;
  const Stage* fetch = nullptr;
  for (std::optional<std::size_t> at = collect.producer; at && !fetch;) {
    const Stage& s = kernel.stages[*at];
    switch (s.op) {
    case StageOp::FetchZeroPointSub:
      zero_point = &s;
      break;
    case StageOp::FetchCast:
      cast = &s;
      break;
    case StageOp::Fetch:
      fetch = &s;
      break;
    default:
      return lower_error(
          fmt::format("`{}` between fetch and collect is not simulated", to_string(s.op)),
          s.name_span);
    }
    at = s.producer;
  }
  if (fetch == nullptr)
    return lower_error("this collect does not read a `fetch` of the kernel: tujit runs "
                       "collect only on a stream fetched from a DmTensor parameter",
                       collect.name_span);
  const KernelParam* dm = dm_param(kernel, fetch->source);
  if (fetch->producer || dm == nullptr)
    return lower_error(
        fmt::format("the fetch does not read a DmTensor or BeginTensor parameter (it reads `{}`)",
                    fetch->source),
        fetch->name_span);

  FetchProgram p;
  p.kernel_name = kernel.name;
  p.source = dm->name;
  p.dm = *dm->tensor;
  p.fetched = fetch->output;
  p.collected = collect.output;
  p.context = fetch->context == ContextKind::Sub ? datapath::FetchContext::Sub
                                                 : datapath::FetchContext::Main;
  p.dm_type = fetch->input.dtype;
  p.stream_type = collect.input.dtype;
  if (cast && cast->cast_to && *cast->cast_to != p.dm_type) p.cast_to = cast->cast_to;
  if (zero_point) p.zero_point = zero_point->zero_point;

  // The Fetch Engine (docs/datapath.md §5): Buf = the Begin tensor's Time ⊗ Packet (= DM Element).
  auto buf = Mapping::pair(fetch->input.mapping(Slot::Time), fetch->input.mapping(Slot::Packet));
  if (!buf) return std::move(buf).take_diagnostics();
  datapath::FetchInput fi{p.dm_type,
                          *buf,
                          fetch->output.mapping(Slot::Time),
                          fetch->output.mapping(Slot::Packet),
                          p.context,
                          cast ? cast->cast_to : std::nullopt};
  auto fd = verify_into(fi, p);
  if (!fd) return std::move(fd).take_diagnostics();
  if (zero_point && (!zero_point->zero_point || !zero_point->cast_to ||
                     !zero_point_in_range(zero_point->input.dtype, *zero_point->cast_to,
                                          *zero_point->zero_point)))
    return lower_error("the zero point is missing or outside its source type's range",
                       zero_point->name_span, {"docs/scalars.md §6"});

  verify::CollectInput ci{collect.input.dtype, collect.input.mapping(Slot::Time),
                          collect.input.mapping(Slot::Packet), collect.output.mapping(Slot::Time),
                          collect.output.mapping(Slot::Packet)};
  auto cd = verify::verify_collect(ci);
  if (!cd) return std::move(cd).take_diagnostics();
  p.flits_per_packet = cd->flits_per_packet;
  p.flit_elements = cd->flit_elements;

  p.spatial = spatial_size(p.dm);
  p.buffer = buf->size();
  p.time = fetch->output.mapping(Slot::Time).size();
  p.packet = fetch->output.mapping(Slot::Packet).size();
  if (p.sequencer.stream_size() != p.time * p.packet || fd->seq.live_footprint > p.buffer ||
      p.flits_per_packet * p.flit_elements < p.packet || spatial_size(p.collected) != p.spatial ||
      p.collected.mapping(Slot::Time).size() != p.collected_time() ||
      p.collected.mapping(Slot::Packet).size() != p.flit_elements)
    return lower_error(
        "internal: the fetch and collect shapes do not line up", collect.name_span,
        {fmt::format("stream {} of {}·{}, footprint {} of {}, {} flits of {}",
                     p.sequencer.stream_size(), p.time, p.packet, p.sequencer.footprint(), p.buffer,
                     p.flits_per_packet, p.flit_elements)});

  // The consumer: the first stage that reads the collected stream.
  for (std::size_t i = collect_index + 1; i < kernel.stages.size(); ++i) {
    const Stage& s = kernel.stages[i];
    if (s.producer != collect_index) continue;
    if (s.op == StageOp::ToTrf) p.consumer = FetchConsumer::ToTrf;
    if (s.op == StageOp::ToVrf) p.consumer = FetchConsumer::ToVrf;
    break;
  }
  if (p.consumer != FetchConsumer::Stream) {
    p.short_command_refusal = short_command_refusal(p, *cd);
    if (p.short_command_refusal.empty())
      p.short_command = p.consumer == FetchConsumer::ToTrf ? "StoTRF" : "StoVRF";
  }
  return p;
}

Result<FetchProgram> lower_mem_read(const Kernel& kernel, std::size_t read_index) {
  if (read_index >= kernel.stages.size() || kernel.stages[read_index].op != StageOp::MemRead)
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
  p.source = mem->name;
  p.dm = *mem->tensor;
  p.fetched = read.output;
  p.collected = read.output;
  p.dm_type = p.stream_type = read.input.dtype;
  const Mapping& buf = read.input.mapping(Slot::Element);
  datapath::FetchInput fi{p.dm_type,
                          buf,
                          read.output.mapping(Slot::Time),
                          read.output.mapping(Slot::Packet),
                          datapath::FetchContext::Main,
                          std::nullopt};
  if (auto fd = verify_into(fi, p); !fd) return std::move(fd).take_diagnostics();
  p.buffer = buf.size();
  p.time = fi.time.size();
  p.packet = fi.packet.size();
  // The stream as read: one "flit" per packet of exactly its elements (no Collect follows).
  p.flits_per_packet = 1;
  p.flit_elements = p.packet;
  return p;
}

Result<std::vector<FetchProgram>> lower_fetches(const Kernel& kernel) {
  return lower_each<FetchProgram>(
      kernel, [](const Stage& s) { return s.op == StageOp::Collect && s.producer; }, lower_fetch);
}

std::string to_text(const FetchProgram& p) {
  std::string s = fmt::format("fetch {} of `{}`: DM {} cells of {} per slice × {} slices\n",
                              p.context == datapath::FetchContext::Main ? "main" : "sub", p.source,
                              p.buffer, name(p.dm_type), p.spatial);
  s += fmt::format("  sequencer {}  ({} × {} positions)\n", p.sequencer.to_string(), p.time,
                   p.packet);
  s += fmt::format("  read_size {} elements, {} reads per packet, {} cycles\n", p.read_size,
                   p.reads_per_packet, p.fetch_cycles);
  if (p.cast_to) s += fmt::format("  fetch_cast {} → {}\n", name(p.dm_type), name(*p.cast_to));
  if (p.zero_point)
    s += fmt::format("  fetch_zero_point_sub {} → {}, zp {}\n", name(p.dm_type),
                     name(p.stream_type), *p.zero_point);
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
