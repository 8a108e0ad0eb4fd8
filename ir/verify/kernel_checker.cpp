#include "ir/verify/kernel_checker.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/collect.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/hardware_limits.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"
#include "ir/verify/vector_engine.h"
#include "ir/verify/vrf_reshape.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace tujit::ir::verify {

namespace {

/// Which type argument (index into Stage::type_args) a rule code names, or -1 for the call
/// itself. The order of type_args is the method's signature (mapping arguments only), e.g.
/// contract_outer <OT, OP, Lane, TrfElement>, contract_lane <OutTime, OutPacket>.
int argument_of(StageOp op, std::string_view code) {
  static const std::map<std::string_view, int> kTrf = {
      {"E-TRF-001", 0}, {"E-TRF-004", 0}, {"E-TRF-005", 1}};
  static const std::map<std::string_view, int> kVrf = {{"E-VRF-002", 0}};
  static const std::map<std::string_view, int> kCollect = {
      {"E-COLLECT-001", 1}, {"E-COLLECT-002", 1}, {"E-COLLECT-003", 0}};
  static const std::map<std::string_view, int> kOuter = {
      {"E-OUTER-003", 1}, {"E-OUTER-004", 1}, {"E-OUTER-005", 1}, {"E-OUTER-006", 0},
      {"E-OUTER-007", 0}, {"E-OUTER-009", 0}, {"E-OUTER-010", 1}, {"E-OUTER-011", 0},
      {"E-OUTER-012", 0}, {"E-OUTER-013", 0}, {"E-OUTER-017", 0}};
  static const std::map<std::string_view, int> kPacket = {
      {"E-PACKET-002", 0}, {"E-PACKET-003", 0}, {"E-PACKET-004", 0}};
  static const std::map<std::string_view, int> kTime = {
      {"E-TIME-001", 0}, {"E-TIME-002", 0}, {"E-TIME-003", 0}, {"E-TIME-004", 0}};
  static const std::map<std::string_view, int> kLane = {
      {"E-LANE-002", 1}, {"E-LANE-003", 1}, {"E-LANE-004", 0}, {"E-LANE-005", 0}};
  const std::map<std::string_view, int>* table = nullptr;
  switch (op) {
  case StageOp::ToTrf:
    table = &kTrf;
    break;
  case StageOp::ToVrf:
    table = &kVrf;
    break;
  case StageOp::Collect:
    table = &kCollect;
    break;
  case StageOp::ContractOuter:
    table = &kOuter;
    break;
  case StageOp::ContractPacket:
    table = &kPacket;
    break;
  case StageOp::ContractTime:
    table = &kTime;
    break;
  case StageOp::ContractLane:
    table = &kLane;
    break;
  default:
    return -1;
  }
  auto it = table->find(code);
  return it == table->end() ? -1 : it->second;
}

/// Moves a verifier's diagnostics into the stage, each pointed at its span.
template <class T>
void take(Result<T>&& r, const Stage& s, StageCheck& out) {
  for (Diagnostic d : std::move(r).take_diagnostics()) {
    if (!d.span) d.span = diagnostic_span(s, d);
    if (d.stage.empty()) d.stage = std::string(to_string(s.op));
    out.diagnostics.push_back(std::move(d));
  }
}

void check_params(const Kernel& k, KernelCheck& out) {
  for (const auto& p : k.params) {
    if (!p.tensor) continue;
    const TensorType& t = *p.tensor;
    auto at = [&](Slot s) { return t.get(s) ? t.get(s)->span : p.span; };
    if (t.has(Slot::Cluster) && t.has(Slot::Slice)) {
      if (auto d = check_spatial(spatial_of(t))) {
        d->span = at(d->code == "E-HW-001" ? Slot::Cluster : Slot::Slice);
        d->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
        out.param_diagnostics.push_back(std::move(*d));
      }
    }
    // A CollectTensor carries exactly one 32 B flit per packet (docs/contraction.md §3); a
    // ContractOuterTensor one or two flits of its storage type (§5.1).
    std::optional<Diagnostic> packet;
    if (t.kind == TensorKind::Collect && t.has(Slot::Packet))
      packet = check_packet_one_flit(t.dtype, t.mapping(Slot::Packet));
    else if (t.kind == TensorKind::ContractOuter && t.has(Slot::Packet))
      packet = check_packet_one_or_two_flits(t.storage.value_or(t.dtype), t.mapping(Slot::Packet));
    if (packet) {
      packet->span = at(Slot::Packet);
      packet->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
      out.param_diagnostics.push_back(std::move(*packet));
    }
    // A TrfTensor parameter is a register-file image like the one to_trf stores
    // (docs/contraction.md §4.2 rule 2).
    if (t.kind == TensorKind::Trf && t.has(Slot::Lane) && t.has(Slot::Element)) {
      if (auto d = check_trf_capacity(t.dtype, t.mapping(Slot::Lane), t.mapping(Slot::Element))) {
        d->span = at(Slot::Element);
        d->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
        out.param_diagnostics.push_back(std::move(*d));
      }
    }
    if (t.kind == TensorKind::Dm && t.has(Slot::Element)) {
      if (auto d = check_dm_capacity(t.dtype, t.mapping(Slot::Element))) {
        d->span = at(Slot::Element);
        d->notes.push_back(fmt::format("in the type of the parameter `{}`", p.name));
        out.param_diagnostics.push_back(std::move(*d));
      }
    }
  }
}

void check_fetch_cast(const Stage& s, StageCheck& out) {
  const ScalarType to = s.cast_to.value_or(s.output.dtype);
  if (is_fetch_cast(s.input.dtype, to)) return;
  Diagnostic d = rule_error(
      "E-FETCH-001", "fetch", "FetchCast",
      fmt::format("fetch_cast cannot turn a stream of {} into {}", name(s.input.dtype), name(to)),
      {explain_fetch_cast_refusal(s.input.dtype, to),
       "the Fetch Adapter casts i4/i8/i16 → i32 and 8-bit floats/bf16 → f32, or keeps the type "
       "(docs/scalars.md §5.1, docs/contraction.md §2.2)"});
  d.span = s.span;
  out.diagnostics.push_back(std::move(d));
}

void check_zero_point(const Stage& s, StageCheck& out) {
  const ScalarType to = s.cast_to.value_or(s.output.dtype);
  // A wrong type pair is the front end's E-TYPE-015; here only the value of the zero point.
  if (!s.zero_point || !is_zero_point_sub(s.input.dtype, to)) return;
  if (zero_point_in_range(s.input.dtype, to, *s.zero_point)) return;
  const auto range = integer_range(s.input.dtype);
  Diagnostic d = rule_error(
      "E-FETCH-002", "fetch", "ZeroPointOutOfRange",
      fmt::format("zero point {} is outside the range [{}, {}] of the {} stream", *s.zero_point,
                  range ? range->first : 0, range ? range->second : 0, name(s.input.dtype)),
      {explain_zero_point_refusal(s.input.dtype, to, *s.zero_point),
       "the zero point is a value of the source type (docs/contraction.md §2.2, docs/scalars.md "
       "§6)"});
  d.span = s.zero_point_span.length ? s.zero_point_span : s.span;
  out.diagnostics.push_back(std::move(d));
}

void check_fetch(const Stage& s, const Stage* next, StageCheck& out) {
  // The Fetch Sequencer reads the Begin tensor's DM layout `Time ⊗ Packet` as the fetched
  // stream (docs/datapath.md §4); a following fetch_cast caps one read's size (§5).
  auto buf = Mapping::pair(s.input.mapping(Slot::Time), s.input.mapping(Slot::Packet));
  if (!buf) {
    take(std::move(buf), s, out);
    return;
  }
  datapath::FetchInput fi{s.input.dtype,
                          *buf,
                          s.output.mapping(Slot::Time),
                          s.output.mapping(Slot::Packet),
                          s.context == ContextKind::Sub ? datapath::FetchContext::Sub
                                                        : datapath::FetchContext::Main,
                          std::nullopt};
  if (next != nullptr && next->chain == s.chain && next->op == StageOp::FetchCast)
    fi.cast_to = next->cast_to;
  auto r = datapath::verify_fetch(fi);
  if (r)
    out.derived = r->to_table();
  else
    take(std::move(r), s, out);
}

/// The sequencer of a MemTensor read / write (docs/datapath.md §4.2): its configuration, and
/// for a read the access size the Fetch Engine's rules give it.
void check_mem(const Stage& s, StageCheck& out) {
  const bool read = s.op == StageOp::MemRead;
  const TensorType& mem = read ? s.input : s.output;
  const TensorType& stream = read ? s.output : s.input;
  auto d = datapath::derive_sequencer(mem.mapping(Slot::Element), stream.mapping(Slot::Time),
                                      stream.mapping(Slot::Packet),
                                      read ? datapath::SeqMode::Read : datapath::SeqMode::Write);
  if (!d) {
    take(std::move(d), s, out);
    return;
  }
  if (!read) {
    const datapath::SequencerConfig& c = d->config;
    out.derived = DerivedTable{{"sequencer", c.to_string()},
                               {"entries", static_cast<std::uint64_t>(c.entries.size())},
                               {"packet_size", c.packet_size},
                               {"max_access_size", c.max_access_size},
                               {"written_positions", d->live_positions},
                               {"dropped_positions", c.stream_size() - d->live_positions},
                               {"buffer_size", d->buffer_size}};
    return;
  }
  auto f = datapath::check_fetch(*d, mem.dtype, datapath::FetchContext::Main);
  if (f)
    out.derived = f->to_table();
  else
    take(std::move(f), s, out);
}

void run_vector(const Kernel& k, std::size_t index, StageCheck& out) {
  const Stage& s = k.stages[index];
  const auto chain = vector_chain_to(k, index);
  if (chain.empty()) {
    out.notes.push_back("skipped: the Vector Engine call is not in a vector_init chain");
    out.skipped = true;
    return;
  }
  auto r = verify_vector_step(chain);
  if (r)
    out.derived = r->to_table(*s.vector);
  else
    take(std::move(r), s, out);
}

void run_stage(const Kernel& k, const Stage& s, const Stage* next, StageCheck& out) {
  const TensorType& in = s.input;
  const TensorType& o = s.output;
  switch (s.op) {
  case StageOp::Fetch:
    check_fetch(s, next, out);
    return;
  case StageOp::FetchCast:
    check_fetch_cast(s, out);
    return;
  case StageOp::FetchZeroPointSub:
    check_zero_point(s, out);
    return;
  case StageOp::Collect: {
    CollectInput ci{in.dtype, in.mapping(Slot::Time), in.mapping(Slot::Packet),
                    o.mapping(Slot::Time), o.mapping(Slot::Packet)};
    auto r = verify_collect(ci);
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::ToTrf: {
    ToTrfInput ti{in.dtype, in.mapping(Slot::Time), in.mapping(Slot::Packet), o.mapping(Slot::Lane),
                  o.mapping(Slot::Element)};
    auto r = verify_to_trf(ti);
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::ToVrf: {
    auto r = verify_to_vrf({o.dtype, o.mapping(Slot::Element)});
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::ContractOuter: {
    if (!s.trf) {
      out.notes.push_back("skipped: the TRF operand has no type");
      out.skipped = true;
      return;
    }
    const ContractOuterInput ci = contract_outer_input(in, *s.trf, o);
    auto r = verify_contract_outer(ci);
    if (r)
      out.derived = r->to_table(ci);
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::ContractPacket: {
    // The packet sizes count in the stream's storage type (docs/contraction.md §6); a declared
    // ContractOuterTensor carries it as its `Storage` argument.
    ContractPacketInput ci{in.storage.value_or(in.dtype), in.mapping(Slot::Packet),
                           o.mapping(Slot::Packet)};
    if (!in.storage)
      out.notes.push_back("storage type unknown: sizes counted in " + std::string(name(in.dtype)));
    auto r = verify_contract_packet(ci);
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::ContractTime: {
    auto r = verify_contract_time({in.mapping(Slot::Time), o.mapping(Slot::Time)});
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::Vector:
    run_vector(k, static_cast<std::size_t>(&s - k.stages.data()), out);
    return;
  case StageOp::VrfReshape: {
    auto r = verify_vrf_reshape(in, o);
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  case StageOp::MemRead:
  case StageOp::MemWrite:
    check_mem(s, out);
    return;
  case StageOp::ContractLane: {
    ContractLaneInput ci;
    ci.mode = s.lane_mode.value_or(LaneMode::Interleaved);
    ci.lane = in.mapping(Slot::Lane);
    ci.t2 = in.mapping(Slot::Time);
    ci.p2 = in.mapping(Slot::Packet);
    ci.t3 = o.mapping(Slot::Time);
    ci.p3 = o.mapping(Slot::Packet);
    // The Time Reducer "remembers OT" (docs/contraction.md §3). When the ContractTimeTensor is a
    // kernel parameter its producer is outside the file: we take T2 itself as the pre-reduce
    // time, i.e. assume nothing was reduced (InnerTime 1). That is the smallest slot demand
    // consistent with the declared type, so the buffer rule (§8 rule 7) can only pass here when
    // the real producer reduces nothing; the note says the value is assumed.
    if (in.pre_time) {
      ci.pre_reduce_time = in.pre_time->mapping;
    } else {
      ci.pre_reduce_time = ci.t2;
      out.notes.push_back("pre-reduce time unknown (the input is a parameter): assumed equal to "
                          "its Time, so InnerTime is 1");
    }
    auto r = verify_contract_lane(ci);
    if (r)
      out.derived = r->to_table();
    else
      take(std::move(r), s, out);
    return;
  }
  }
}

} // namespace

SourceSpan diagnostic_span(const Stage& stage, const Diagnostic& d) {
  const int i = argument_of(stage.op, d.code);
  if (i >= 0 && static_cast<std::size_t>(i) < stage.type_args.size()) {
    const SourceSpan sp = stage.type_args[static_cast<std::size_t>(i)].span;
    if (sp.length > 0) return sp;
  }
  return stage.span;
}

Diagnostics KernelCheck::all_diagnostics() const {
  Diagnostics all = param_diagnostics;
  for (const auto* list : {&stages, &driver_stages})
    for (const auto& s : *list) all.insert(all.end(), s.diagnostics.begin(), s.diagnostics.end());
  return all;
}

namespace {

// Verifies `stages` (a kernel body's or its driver's) in order. Skipping: a stage depends on the
// earlier stages of its chain, and contract_outer also on the chain that produced its TRF operand
// (`let trf = ….to_trf();`).
std::vector<StageCheck> check_stages(const Kernel& kernel, const std::vector<Stage>& stages) {
  std::vector<StageCheck> out;
  std::map<std::size_t, std::string> failed_chain; // chain → op that failed first
  std::map<std::string, std::size_t> chain_of;     // let name → chain
  for (std::size_t i = 0; i < stages.size(); ++i) {
    const Stage& s = stages[i];
    const Stage* next = i + 1 < stages.size() ? &stages[i + 1] : nullptr;
    StageCheck sc;
    sc.op = s.op;
    std::string blocked;
    if (auto it = failed_chain.find(s.chain); it != failed_chain.end()) {
      blocked =
          fmt::format("skipped: the earlier stage `{}` of this chain did not verify", it->second);
    } else if (s.op == StageOp::ContractOuter && !s.trf_name.empty()) {
      if (auto c = chain_of.find(s.trf_name); c != chain_of.end())
        if (auto f = failed_chain.find(c->second); f != failed_chain.end())
          blocked =
              fmt::format("skipped: the TRF operand `{}` failed at `{}`", s.trf_name, f->second);
    }
    if (!blocked.empty()) {
      sc.skipped = true;
      sc.notes.push_back(std::move(blocked));
    } else {
      run_stage(kernel, s, next, sc);
    }
    if (!sc.ok() && !failed_chain.count(s.chain))
      failed_chain[s.chain] = std::string(to_string(s.op));
    if (!s.bound_to.empty()) chain_of[s.bound_to] = s.chain;
    out.push_back(std::move(sc));
  }
  return out;
}

} // namespace

KernelCheck check_kernel(const SpecFile& file, const Kernel& kernel) {
  (void)file; // mappings are already resolved; the file is the diagnostics' source
  KernelCheck out;
  out.kernel = kernel.name;
  check_params(kernel, out);
  out.stages = check_stages(kernel, kernel.stages);
  out.driver_stages = check_stages(kernel, kernel.driver);
  return out;
}

} // namespace tujit::ir::verify
