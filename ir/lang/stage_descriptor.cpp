#include "ir/lang/stage_descriptor.h"

#include <array>

namespace tujit::ir {

namespace {

using P = StageTypeParam;
using K = TensorKind;
using S = Slot;
using U = StageUnit;

constexpr P kTimePacket[] = {{"Time", false, S::Time}, {"Packet", false, S::Packet}};
constexpr P kCast[] = {{"D", true, std::nullopt}};
constexpr P kToTrf[] = {{"Lane", false, S::Lane}, {"Element", false, S::Element}};
constexpr P kToVrf[] = {{"Element", false, S::Element}};
// Lane, TrfElement and TrfD describe the TRF operand; Lane is also the output's.
constexpr P kOuter[] = {{"OutTime", false, S::Time},
                        {"OutPacket", false, S::Packet},
                        {"Lane", false, S::Lane},
                        {"TrfElement", false, std::nullopt},
                        {"TrfD", true, std::nullopt}};
constexpr P kOutPacket[] = {{"OutPacket", false, S::Packet}};
constexpr P kSwitch[] = {{"OutSlice", false, S::Slice}, {"OutTime", false, S::Time}};
constexpr P kOutTime[] = {{"OutTime", false, S::Time}};
constexpr P kLane[] = {{"OutTime", false, S::Time}, {"OutPacket", false, S::Packet}};
// DMA: the destination's layout (furiosa-opt-std tensor/memory.rs): HBM → DM names Cluster,
// Slice and Element, DM → HBM and HBM → HBM the Element.
constexpr P kToDm[] = {
    {"Cluster", false, S::Cluster}, {"Slice", false, S::Slice}, {"Element", false, S::Element}};
constexpr P kToHbm[] = {{"Element", false, S::Element}};
constexpr P kCastEngine[] = {{"D", true, std::nullopt}, {"OutPacket", false, S::Packet}};
constexpr P kCommit[] = {{"Element", false, S::Element}};
constexpr P kReshape[] = {{"Chip", false, S::Chip},
                          {"Cluster", false, S::Cluster},
                          {"Slice", false, S::Slice},
                          {"Element", false, S::Element}};

constexpr S kAllSlots[] = {S::Chip, S::Cluster, S::Slice, S::Lane, S::Time, S::Packet, S::Element};
constexpr S kLaneTime[] = {S::Lane, S::Time};
constexpr S kLanePacket[] = {S::Lane, S::Packet};
constexpr S kTimePacketSlots[] = {S::Time, S::Packet};
constexpr S kTimeOnly[] = {S::Time};
constexpr S kPacketOnly[] = {S::Packet};
constexpr S kChipOnly[] = {S::Chip};
constexpr K kVectorFinalAlt[] = {K::VectorFinal};
// Collect takes the fetched stream or the Switch Engine's (furiosa-opt-std engine/switch.rs).
constexpr K kCollectAlt[] = {K::Switch};
// The streams that leave the engines: a collected stream, a contraction's or a Vector Engine
// pass's result (furiosa-opt docs/src/computing-tensors/cast-engine.md "Interface").
constexpr K kEngineOutputs[] = {K::Contract, K::VectorFinal};
// The Transpose Engine takes the same streams and the Cast Engine's output; only commit_trim
// follows it (furiosa-opt-std engine/mod.rs, the pipeline graph).
constexpr K kTransposeInputs[] = {K::Contract, K::VectorFinal, K::Cast};
constexpr K kTrimInputs[] = {K::Contract, K::VectorFinal, K::Cast, K::Transpose};
constexpr K kCommitAlt[] = {K::CommitCast};
constexpr K kFromDm[] = {K::Hbm};
constexpr std::span<const K> kNoAlt{};
constexpr std::span<const P> kNoParams{};
constexpr std::span<const S> kNoSlots{};

// In StageOp order (checked below). The Lane Folder keeps its input's Lane readable from the
// stage's input, not its output (docs/contraction.md §8).
constexpr StageDescriptor kDescriptors[] = {
    {StageOp::Fetch, "fetch", K::Begin, kNoAlt, K::Fetch, kTimePacket, 2, kNoSlots, false,
     U::FetchSequencer, "docs/datapath.md §5", ""},
    // The Fetch Adapter's stages, in the hardware's order (docs/scalars.md §5.1).
    {StageOp::FetchTableLookup, "fetch_table_lookup", K::Fetch, kNoAlt, K::Fetch, kCast, 1,
     kAllSlots, false, U::FetchAdapter, "docs/scalars.md §4.5", ""},
    {StageOp::FetchCast, "fetch_cast", K::Fetch, kNoAlt, K::Fetch, kCast, 1, kAllSlots, false,
     U::FetchAdapter, "docs/scalars.md §5.1", ""},
    {StageOp::FetchZeroPointSub, "fetch_zero_point_sub", K::Fetch, kNoAlt, K::Fetch, kCast, 1,
     kAllSlots, true, U::FetchAdapter, "docs/scalars.md §6", ""},
    // Between the fetch (and its adapter) and collect; Packet is kept, the configuration is its
    // value argument.
    {StageOp::Switch, "switch", K::Fetch, kNoAlt, K::Switch, kSwitch, 2, kPacketOnly, true,
     U::SwitchEngine, "docs/switch.md §3", ""},
    {StageOp::Collect, "collect", K::Fetch, kCollectAlt, K::Collect, kTimePacket, 2, kNoSlots,
     false, U::Collect, "docs/datapath.md §8", "collect"},
    {StageOp::ToTrf, "to_trf", K::Collect, kNoAlt, K::Trf, kToTrf, 2, kNoSlots, false, U::TrfStore,
     "docs/contraction.md §4.2", "to_trf"},
    // A store off the collect, or off vector_final at the Vector Engine's write port.
    {StageOp::ToVrf, "to_vrf", K::Collect, kVectorFinalAlt, K::Vrf, kToVrf, 1, kNoSlots, true,
     U::VrfStore, "docs/contraction.md §4.3", "to_vrf"},
    {StageOp::ContractOuter, "contract_outer", K::Collect, kNoAlt, K::ContractOuter, kOuter, 2,
     kNoSlots, true, U::ContractOuter, "docs/contraction.md §5", "contract_outer"},
    {StageOp::ContractPacket, "contract_packet", K::ContractOuter, kNoAlt, K::ContractPacket,
     kOutPacket, 1, kLaneTime, false, U::PacketReducer, "docs/contraction.md §6",
     "contract_packet"},
    {StageOp::ContractTime, "contract_time", K::ContractPacket, kNoAlt, K::ContractTime, kOutTime,
     1, kLanePacket, false, U::TimeReducer, "docs/contraction.md §7", "contract_time"},
    {StageOp::ContractLane, "contract_lane", K::ContractTime, kNoAlt, K::Contract, kLane, 2,
     kNoSlots, true, U::LaneFolder, "docs/contraction.md §8", "contract_lane"},
    // One operation for every Vector Engine call; each call's own type arguments are in
    // ir/lang/sema_methods.cpp. vector_final gives a VectorFinalTensor.
    {StageOp::Vector, "vector", K::Vector, kNoAlt, K::Vector, kNoParams, 0, kTimePacketSlots, true,
     U::VectorEngine, "docs/vector-engine.md §2", ""},
    {StageOp::VrfReshape, "reshape", K::Vrf, kNoAlt, K::Vrf, kReshape, 4, kNoSlots, false, U::None,
     "docs/vector-engine.md §6", ""},
    // `unsafe { x.reshape() }` of a DmTensor: the same DM cells under another mapping; D is kept.
    {StageOp::DmReshape, "reshape", K::Dm, kNoAlt, K::Dm, kReshape, 4, kNoSlots, false, U::None,
     "docs/kernel-language.md §6.2", ""},
    {StageOp::MemRead, "read", K::Mem, kNoAlt, K::Stream, kTimePacket, 2, kNoSlots, false,
     U::MemReader, "docs/datapath.md §4.2", ""},
    // Typed by its own rule (the stream is a value argument); the output is the buffer.
    {StageOp::MemWrite, "write", K::Mem, kNoAlt, K::Mem, kNoParams, 0, kNoSlots, true, U::MemWriter,
     "docs/datapath.md §4.2", ""},
    // DMA transfers take the DMA context (`&mut ctx.tdma`) as their argument; the destination's
    // Chip is the source's.
    {StageOp::ToDm, "to_dm", K::Hbm, kNoAlt, K::Dm, kToDm, 3, kChipOnly, true, U::Dma,
     "docs/dma.md §2", ""},
    {StageOp::ToHbm, "to_hbm", K::Dm, kFromDm, K::Hbm, kToHbm, 1, kChipOnly, true, U::Dma,
     "docs/dma.md §2", ""},
    {StageOp::Cast, "cast", K::Collect, kEngineOutputs, K::Cast, kCastEngine, 2, kTimeOnly, false,
     U::CastEngine, "docs/output-path.md §1", ""},
    {StageOp::Transpose, "transpose", K::Collect, kTransposeInputs, K::Transpose, kLane, 2,
     kNoSlots, false, U::TransposeEngine, "docs/transpose.md §3", "transpose"},
    {StageOp::CommitTrim, "commit_trim", K::Collect, kTrimInputs, K::CommitTrim, kOutPacket, 1,
     kTimeOnly, false, U::CommitAdapter, "docs/output-path.md §2.1", ""},
    {StageOp::CommitCast, "commit_cast", K::CommitTrim, kNoAlt, K::CommitCast, kCast, 1,
     kTimePacketSlots, false, U::CommitAdapter, "docs/output-path.md §2.2", ""},
    {StageOp::CommitCastRelu, "commit_cast_relu", K::CommitTrim, kNoAlt, K::CommitCast, kCast, 1,
     kTimePacketSlots, false, U::CommitAdapter, "docs/output-path.md §2.2", ""},
    {StageOp::Commit, "commit", K::CommitTrim, kCommitAlt, K::Dm, kCommit, 0, kNoSlots, false,
     U::CommitEngine, "docs/output-path.md §3", ""},
};

constexpr std::string_view kMethods[] = {
#define TUJIT_STAGE_OP(op, method) method,
#include "ir/lang/stage_ops.def"
};

constexpr bool in_order() {
  if (std::size(kDescriptors) != kStageOpCount) return false;
  for (std::size_t i = 0; i < kStageOpCount; ++i)
    if (static_cast<std::size_t>(kDescriptors[i].op) != i || kDescriptors[i].method != kMethods[i])
      return false;
  return true;
}
static_assert(in_order(), "one descriptor per line of stage_ops.def, in its order and names");

} // namespace

const StageDescriptor& descriptor(StageOp op) {
  return kDescriptors[static_cast<std::size_t>(op)];
}

std::span<const StageDescriptor> stage_descriptors() {
  return kDescriptors;
}

const StageDescriptor* find_descriptor(std::string_view method, std::optional<TensorKind> on) {
  for (const auto& d : kDescriptors)
    if (d.method == method && (!on || d.input == *on)) return &d;
  return nullptr;
}

std::string_view to_string(StageOp op) {
  return descriptor(op).method;
}

bool is_contraction(StageOp op) {
  const StageUnit u = descriptor(op).unit;
  return u == StageUnit::ContractOuter || u == StageUnit::PacketReducer ||
         u == StageUnit::TimeReducer || u == StageUnit::LaneFolder;
}

bool is_fetch_adapter(StageOp op) {
  return descriptor(op).unit == StageUnit::FetchAdapter;
}

std::optional<std::size_t> fetch_adapter_position(StageOp op) {
  // docs/scalars.md §5.1: mask (not simulated), table lookup, type cast, zero-point subtraction.
  switch (op) {
  case StageOp::FetchTableLookup:
    return 1;
  case StageOp::FetchCast:
    return 2;
  case StageOp::FetchZeroPointSub:
    return 3;
  default:
    return std::nullopt;
  }
}

bool is_register_store(StageOp op) {
  const StageUnit u = descriptor(op).unit;
  return u == StageUnit::TrfStore || u == StageUnit::VrfStore;
}

bool is_dma(StageOp op) {
  return descriptor(op).unit == StageUnit::Dma;
}

bool is_output_path(StageOp op) {
  const StageUnit u = descriptor(op).unit;
  return u == StageUnit::CastEngine || u == StageUnit::TransposeEngine ||
         u == StageUnit::CommitAdapter || u == StageUnit::CommitEngine;
}

} // namespace tujit::ir
