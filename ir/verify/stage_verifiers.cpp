#include "ir/verify/stage_verifiers.h"

#include "ir/datapath/fetch_engine.h"
#include "ir/target/rngd.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/collect.h"
#include "ir/verify/contract_lane.h"
#include "ir/verify/contract_packet.h"
#include "ir/verify/contract_time.h"
#include "ir/verify/dm_reshape.h"
#include "ir/verify/dma.h"
#include "ir/verify/outer_stage.h"
#include "ir/verify/output_path.h"
#include "ir/verify/switch.h"
#include "ir/verify/to_trf.h"
#include "ir/verify/to_vrf.h"
#include "ir/verify/transpose.h"
#include "ir/verify/vector_engine.h"
#include "ir/verify/vrf_operand.h"
#include "ir/verify/vrf_reshape.h"

#include <fmt/format.h>

#include <array>
#include <optional>
#include <string_view>

namespace tujit::ir::verify {

namespace {

/// Moves a verifier's diagnostics into the stage, each pointed at its span.
template <class T>
void take(Result<T>&& r, const Stage& s, StageCheck& out) {
  for (Diagnostic d : std::move(r).take_diagnostics()) {
    if (!d.span) d.span = diagnostic_span(s, d);
    if (d.stage.empty()) d.stage = std::string(to_string(s.op));
    out.diagnostics.push_back(std::move(d));
  }
}

/// The derived parameters of a verifier that passed, or its diagnostics.
template <class T, class... Args>
void report(Result<T>&& r, const Stage& s, StageCheck& out, const Args&... table_args) {
  if (!r) {
    take(std::move(r), s, out);
    return;
  }
  out.derived = r->to_table(table_args...);
  out.facts = std::move(*r);
}

/// A Fetch Engine derivation: its table and typed value, or its diagnostics.
void fetch_report(Result<datapath::FetchDerived>&& r, const Stage& s, StageCheck& out) {
  if (!r) {
    take(std::move(r), s, out);
    return;
  }
  out.derived = fetch_table(*r);
  out.facts = std::move(*r);
}

/// docs/scalars.md §5.1: the Fetch Adapter's stages run in a fixed order (table lookup, type cast,
/// zero-point subtraction), each at most once; a stage may read the fetch or an earlier stage
/// only. True when the stage keeps that order.
bool check_adapter_order(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  if (!s.producer || *s.producer >= site.stages.size()) return true;
  const Stage& before = site.stages[*s.producer];
  const auto at = fetch_adapter_position(s.op), prior = fetch_adapter_position(before.op);
  if (!at || !prior || *prior < *at) return true;
  Diagnostic d = rule_error(
      "E-FETCH-004", "fetch", "AdapterOrder",
      fmt::format("`{}` follows `{}`: the Fetch Adapter runs its stages in a fixed order, each "
                  "at most once",
                  to_string(s.op), to_string(before.op)),
      {"the order is table lookup, type cast, zero-point subtraction (docs/scalars.md §5.1; "
       "furiosa-opt docs/src/computing-tensors/fetch-adapter.md)",
       s.op == before.op
           ? fmt::format("fix: call `{}` once", to_string(s.op))
           : fmt::format("fix: call `{}` before `{}`", to_string(s.op), to_string(before.op))});
  d.span = s.name_span.length ? s.name_span : s.span;
  out.diagnostics.push_back(std::move(d));
  return false;
}

/// fetch_table_lookup (docs/scalars.md §4.5): one of the four decode tables; the stream keeps its
/// Time and Packet, so a packet holds as many elements after as before, in more bytes.
void check_table_lookup(const StageSite& site, StageCheck& out) {
  if (!check_adapter_order(site, out)) return;
  const Stage& s = site.stage();
  const ScalarType in = s.input.dtype;
  const ScalarType to = s.cast_to.value_or(s.output.dtype);
  if (!is_table_lookup(in, to)) {
    Diagnostic d =
        rule_error("E-FETCH-003", "fetch", "TableLookup",
                   fmt::format("fetch_table_lookup has no table from {} to {}", name(in), name(to)),
                   {explain_table_lookup_refusal(in, to),
                    "the table is chosen by the stream's type and the requested one (furiosa-opt "
                    "docs/src/computing-tensors/fetch-adapter.md \"Table Lookup\")"});
    d.span = s.output.dtype_span.length ? s.output.dtype_span : s.span;
    out.diagnostics.push_back(std::move(d));
    return;
  }
  const std::uint64_t packet = s.input.mapping(Slot::Packet).size();
  const bool paired = is_paired_table_lookup(in, to);
  out.derived = DerivedTable{{"table", fmt::format("{} → {}", name(in), name(to))},
                             {"paired", paired},
                             // The sequencer walks byte-aligned keys: every table is indexed by a
                             // whole byte, which holds two keys of a paired table.
                             {"table_entries", std::uint64_t{1} << target::kRngd.bits_per_byte},
                             {"values_per_key_byte", std::uint64_t{paired ? 2u : 1u}},
                             {"packet_elements", packet},
                             {"packet_bits_in", packet * wire_bits(in)},
                             {"packet_bits_out", packet * wire_bits(to)}};
}

void check_fetch_cast(const StageSite& site, StageCheck& out) {
  if (!check_adapter_order(site, out)) return;
  const Stage& s = site.stage();
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

void check_zero_point(const StageSite& site, StageCheck& out) {
  if (!check_adapter_order(site, out)) return;
  const Stage& s = site.stage();
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

/// The target types of the Fetch Adapter stages that read the fetch at `site` one after the other
/// (a following fetch_table_lookup and fetch_cast): each caps one read's size (docs/datapath.md
/// §5).
void adapter_targets(const StageSite& site, datapath::FetchInput& fi) {
  std::size_t at = site.index;
  for (std::size_t j = at + 1; j < site.stages.size(); ++j) {
    const Stage& s = site.stages[j];
    if (s.producer != at || !is_fetch_adapter(s.op)) break;
    if (s.op == StageOp::FetchTableLookup) fi.lookup_to = s.cast_to;
    if (s.op == StageOp::FetchCast) fi.cast_to = s.cast_to;
    at = j;
  }
}

void check_fetch(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  // The Fetch Sequencer reads the Begin tensor's DM layout `Time ⊗ Packet` as the fetched
  // stream (docs/datapath.md §4); a following table lookup or fetch_cast caps one read's size
  // (§5).
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
                          std::nullopt,
                          std::nullopt};
  adapter_targets(site, fi);
  fetch_report(datapath::verify_fetch(fi), s, out);
}

/// The sequencer of a MemTensor read / write (docs/datapath.md §4.2): its configuration, and
/// for a read the access size the Fetch Engine's rules give it.
void check_mem(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
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
    out.facts = std::move(*d);
    return;
  }
  fetch_report(datapath::check_fetch(*d, mem.dtype, datapath::FetchContext::Main), s, out);
}

void check_collect(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  const TensorType& in = s.input;
  const TensorType& o = s.output;
  report(verify_collect({in.dtype, in.mapping(Slot::Time), in.mapping(Slot::Packet),
                         o.mapping(Slot::Time), o.mapping(Slot::Packet)}),
         s, out);
}

void check_to_trf(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  const TensorType& in = s.input;
  const TensorType& o = s.output;
  report(verify_to_trf({in.dtype, in.mapping(Slot::Time), in.mapping(Slot::Packet),
                        o.mapping(Slot::Lane), o.mapping(Slot::Element)}),
         s, out);
}

void check_to_vrf(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_to_vrf({s.output.dtype, s.output.mapping(Slot::Element)}), s, out);
}

void check_contract_outer(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  if (!s.trf) {
    out.notes.push_back("skipped: the TRF operand has no type");
    out.skipped = true;
    return;
  }
  const ContractOuterInput ci = contract_outer_input(s.input, *s.trf, s.output);
  report(verify_contract_outer(ci), s, out, ci);
}

void check_contract_packet(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  const TensorType& in = s.input;
  // The packet sizes count in the stream's storage type (docs/contraction.md §6); a declared
  // ContractOuterTensor carries it as its `Storage` argument.
  if (!in.storage)
    out.notes.push_back("storage type unknown: sizes counted in " + std::string(name(in.dtype)));
  report(verify_contract_packet({in.storage.value_or(in.dtype), in.mapping(Slot::Packet),
                                 s.output.mapping(Slot::Packet)}),
         s, out);
}

void check_contract_time(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_contract_time({s.input.mapping(Slot::Time), s.output.mapping(Slot::Time)}), s, out);
}

void check_contract_lane(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  // Without the remembered OT (a ContractTimeTensor parameter) the buffer rule (§8 rule 7) is
  // checked against the smallest demand consistent with the declared type; the note says so.
  if (!s.input.pre_time)
    out.notes.push_back("pre-reduce time unknown (the input is a parameter): assumed equal to "
                        "its Time, so InnerTime is 1");
  report(verify_contract_lane(
             contract_lane_input(s.input, s.output, s.lane_mode.value_or(LaneMode::Interleaved))),
         s, out);
}

void check_vector(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  const auto chain = vector_chain_to(site.stages, site.index);
  if (chain.empty()) {
    out.notes.push_back("skipped: the Vector Engine call is not in a vector_init chain");
    out.skipped = true;
    return;
  }
  Result<VectorState> state = verify_vector_step(chain);
  std::optional<VrfOperandDerived> read;
  if (state && s.vrf) {
    // docs/vector-engine.md §3.2: every live element finds its VRF element.
    auto r = verify_vrf_operand({s.input.mapping(Slot::Time), s.input.mapping(Slot::Packet),
                                 s.vrf->mapping(Slot::Element)});
    if (r) {
      read = std::move(*r);
    } else {
      Diagnostics ds = std::move(r).take_diagnostics();
      for (Diagnostic& d : ds) d.span = s.vrf_span;
      state = std::move(ds);
    }
  }
  if (!state) {
    take(std::move(state), s, out);
    return;
  }
  out.derived = state->to_table(*s.vector);
  if (read) out.derived.merge(read->to_table());
  out.facts = VectorFacts{std::move(*state), std::move(read)};
}

void check_vrf_reshape(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_vrf_reshape(s.input, s.output), s, out);
}

void check_dm_reshape(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_dm_reshape(s.input, s.output), s, out);
}

void check_dma(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_dma({s.input, s.output}), s, out);
}

void check_cast(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_cast({s.input.dtype, s.output.dtype, s.input.mapping(Slot::Packet),
                      s.output.mapping(Slot::Packet)}),
         s, out);
}

void check_transpose(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(
      verify_transpose({s.input.dtype, s.input.mapping(Slot::Time), s.input.mapping(Slot::Packet),
                        s.output.mapping(Slot::Time), s.output.mapping(Slot::Packet)}),
      s, out);
}

void check_switch(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  if (!s.switch_config) {
    out.notes.push_back("skipped: the switch has no configuration");
    out.skipped = true;
    return;
  }
  report(verify_switch({*s.switch_config, s.input.dtype, s.input.mapping(Slot::Slice),
                        s.input.mapping(Slot::Time), s.input.mapping(Slot::Packet),
                        s.output.mapping(Slot::Slice), s.output.mapping(Slot::Time)}),
         s, out);
}

void check_commit_trim(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_commit_trim(
             {s.input.dtype, s.input.mapping(Slot::Packet), s.output.mapping(Slot::Packet)}),
         s, out);
}

void check_commit_cast(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_commit_cast({s.input.dtype, s.output.dtype, s.input.mapping(Slot::Packet),
                             s.op == StageOp::CommitCastRelu}),
         s, out);
}

void check_commit(const StageSite& site, StageCheck& out) {
  const Stage& s = site.stage();
  report(verify_commit({s.input.dtype, s.input.mapping(Slot::Time), s.input.mapping(Slot::Packet),
                        s.output.mapping(Slot::Element), s.context}),
         s, out);
}

// The type argument each rule names (docs/errors.md), by the method's mapping arguments:
// to_trf <Lane, Element>, to_vrf <Element>, collect <Time, Packet>, contract_outer <OutTime,
// OutPacket, Lane, TrfElement>, contract_packet <OutPacket>, contract_time <OutTime>,
// contract_lane <OutTime, OutPacket>.
constexpr ArgumentRule kTrfArgs[] = {{"E-TRF-001", 0}, {"E-TRF-004", 0}, {"E-TRF-005", 1}};
constexpr ArgumentRule kVrfArgs[] = {{"E-VRF-002", 0}};
constexpr ArgumentRule kCollectArgs[] = {
    {"E-COLLECT-001", 1}, {"E-COLLECT-002", 1}, {"E-COLLECT-003", 0}};
constexpr ArgumentRule kOuterArgs[] = {{"E-OUTER-003", 1}, {"E-OUTER-004", 1}, {"E-OUTER-005", 1},
                                       {"E-OUTER-006", 0}, {"E-OUTER-007", 0}, {"E-OUTER-009", 0},
                                       {"E-OUTER-010", 1}, {"E-OUTER-011", 0}, {"E-OUTER-012", 0},
                                       {"E-OUTER-013", 0}, {"E-OUTER-017", 0}};
constexpr ArgumentRule kPacketArgs[] = {
    {"E-PACKET-002", 0}, {"E-PACKET-003", 0}, {"E-PACKET-004", 0}};
constexpr ArgumentRule kTimeArgs[] = {
    {"E-TIME-001", 0}, {"E-TIME-002", 0}, {"E-TIME-003", 0}, {"E-TIME-004", 0}};
constexpr ArgumentRule kLaneArgs[] = {
    {"E-LANE-002", 1}, {"E-LANE-003", 1}, {"E-LANE-004", 0}, {"E-LANE-005", 0}};
// to_dm <Cluster, Slice, Element>, to_hbm <Element>, cast <OutPacket>, transpose <OutTime,
// OutPacket>, commit_trim <OutPacket>, commit <Element>.
constexpr ArgumentRule kToDmArgs[] = {{"E-DMA-001", 2}, {"E-DMA-002", 2}};
constexpr ArgumentRule kToHbmArgs[] = {{"E-DMA-001", 0}};
constexpr ArgumentRule kCastArgs[] = {{"E-CAST-003", 0}, {"E-CAST-004", 0}};
constexpr ArgumentRule kTransposeArgs[] = {
    {"E-TRANSPOSE-003", 1}, {"E-TRANSPOSE-005", 1}, {"E-TRANSPOSE-006", 1}, {"E-TRANSPOSE-008", 0},
    {"E-TRANSPOSE-009", 0}, {"E-TRANSPOSE-010", 0}, {"E-TRANSPOSE-011", 0}};
// switch <OutSlice, OutTime>.
constexpr ArgumentRule kSwitchArgs[] = {
    {"E-SWITCH-003", 0}, {"E-SWITCH-006", 0}, {"E-SWITCH-008", 0}, {"E-SWITCH-011", 0},
    {"E-SWITCH-012", 0}, {"E-SWITCH-013", 0}, {"E-SWITCH-007", 1}, {"E-SWITCH-014", 1},
    {"E-SWITCH-015", 1}, {"E-SWITCH-016", 1}};
constexpr ArgumentRule kTrimArgs[] = {{"E-COMMIT-002", 0}, {"E-COMMIT-003", 0}};
constexpr ArgumentRule kCommitArgs[] = {
    {"E-COMMIT-006", 0}, {"E-FETCH-017", 0}, {"E-FETCH-018", 0}, {"E-FETCH-019", 0}};

// In StageOp order (checked below).
constexpr StageVerifier kVerifiers[] = {
    {StageOp::Fetch, &check_fetch, {}},
    {StageOp::FetchTableLookup, &check_table_lookup, {}},
    {StageOp::FetchCast, &check_fetch_cast, {}},
    {StageOp::FetchZeroPointSub, &check_zero_point, {}},
    {StageOp::Switch, &check_switch, kSwitchArgs},
    {StageOp::Collect, &check_collect, kCollectArgs},
    {StageOp::ToTrf, &check_to_trf, kTrfArgs},
    {StageOp::ToVrf, &check_to_vrf, kVrfArgs},
    {StageOp::ContractOuter, &check_contract_outer, kOuterArgs},
    {StageOp::ContractPacket, &check_contract_packet, kPacketArgs},
    {StageOp::ContractTime, &check_contract_time, kTimeArgs},
    {StageOp::ContractLane, &check_contract_lane, kLaneArgs},
    {StageOp::Vector, &check_vector, {}},
    {StageOp::VrfReshape, &check_vrf_reshape, {}},
    {StageOp::DmReshape, &check_dm_reshape, {}},
    {StageOp::MemRead, &check_mem, {}},
    {StageOp::MemWrite, &check_mem, {}},
    {StageOp::ToDm, &check_dma, kToDmArgs},
    {StageOp::ToHbm, &check_dma, kToHbmArgs},
    {StageOp::Cast, &check_cast, kCastArgs},
    {StageOp::Transpose, &check_transpose, kTransposeArgs},
    {StageOp::CommitTrim, &check_commit_trim, kTrimArgs},
    {StageOp::CommitCast, &check_commit_cast, {}},
    {StageOp::CommitCastRelu, &check_commit_cast, {}},
    {StageOp::Commit, &check_commit, kCommitArgs},
};

constexpr bool in_order() {
  if (std::size(kVerifiers) != kStageOpCount) return false;
  for (std::size_t i = 0; i < kStageOpCount; ++i)
    if (static_cast<std::size_t>(kVerifiers[i].op) != i) return false;
  return true;
}
static_assert(in_order(), "one verifier entry per line of ir/lang/stage_ops.def, in its order");

} // namespace

DerivedTable fetch_table(const datapath::FetchDerived& f) {
  const datapath::SequencerConfig& c = f.seq.config;
  return DerivedTable{{"sequencer", c.to_string()},
                      {"entries", static_cast<std::uint64_t>(c.entries.size())},
                      {"packet_size", c.packet_size},
                      {"contiguous_run", c.contiguous_run},
                      {"max_access_size", c.max_access_size},
                      {"read_size", f.read_size},
                      {"read_bytes", f.read_bytes},
                      {"reads_per_packet", f.reads_per_packet},
                      {"cycles", f.cycles},
                      {"footprint", f.footprint},
                      {"over_read", f.over_read},
                      {"buffer_size", f.seq.buffer_size}};
}

const StageVerifier& stage_verifier(StageOp op) {
  return kVerifiers[static_cast<std::size_t>(op)];
}

SourceSpan diagnostic_span(const Stage& stage, const Diagnostic& d) {
  for (const ArgumentRule& a : stage_verifier(stage.op).arguments) {
    if (a.code != d.code || a.argument >= stage.type_args.size()) continue;
    const SourceSpan sp = stage.type_args[a.argument].span;
    if (sp.length > 0) return sp;
  }
  return stage.span;
}

} // namespace tujit::ir::verify
