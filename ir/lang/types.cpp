#include "ir/lang/types.h"

#include "ir/mapping/factor.h"

#include <fmt/format.h>

namespace tujit::ir {

namespace {
using K = TensorArg::Kind;
constexpr TensorArg kD{K::Dtype, Slot::Chip, "D"};
constexpr TensorArg kStorage{K::Storage, Slot::Chip, "Storage"};
constexpr TensorArg arg(Slot s, std::string_view n) {
  return TensorArg{K::Mapping, s, n};
}
constexpr TensorArg kChip = arg(Slot::Chip, "Chip");
constexpr TensorArg kCluster = arg(Slot::Cluster, "Cluster");
constexpr TensorArg kSlice = arg(Slot::Slice, "Slice");
constexpr TensorArg kLane = arg(Slot::Lane, "Lane");
constexpr TensorArg kTime = arg(Slot::Time, "Time");
constexpr TensorArg kPacket = arg(Slot::Packet, "Packet");
constexpr TensorArg kElement = arg(Slot::Element, "Element");

// docs/kernel-language.md §5; BeginTensor as furiosa-opt's tensor/tu.rs.
constexpr TensorArg kStream[] = {kD, kChip, kCluster, kSlice, kTime, kPacket};
constexpr TensorArg kTrf[] = {kD, kChip, kCluster, kSlice, kLane, kElement};
constexpr TensorArg kVrf[] = {kD, kChip, kCluster, kSlice, kElement};
constexpr TensorArg kHbm[] = {kD, kChip, kElement};
constexpr TensorArg kOuter[] = {kD, kStorage, kChip, kCluster, kSlice, kLane, kTime, kPacket};
constexpr TensorArg kLaned[] = {kD, kChip, kCluster, kSlice, kLane, kTime, kPacket};
// The book's sequencer pseudo types (docs/datapath.md §4.2; furiosa-opt-std/src/tensor/pseudo.rs).
constexpr TensorArg kMem[] = {kD, kElement};
constexpr TensorArg kStreamOnly[] = {kD, kTime, kPacket};

struct KindName {
  TensorKind kind;
  std::string_view name;
};
constexpr KindName kNames[] = {
    {TensorKind::Begin, "BeginTensor"},
    {TensorKind::Fetch, "FetchTensor"},
    {TensorKind::Collect, "CollectTensor"},
    {TensorKind::Trf, "TrfTensor"},
    {TensorKind::Vrf, "VrfTensor"},
    {TensorKind::Dm, "DmTensor"},
    {TensorKind::Hbm, "HbmTensor"},
    {TensorKind::ContractOuter, "ContractOuterTensor"},
    {TensorKind::ContractPacket, "ContractPacketTensor"},
    {TensorKind::ContractTime, "ContractTimeTensor"},
    {TensorKind::Contract, "ContractTensor"},
    {TensorKind::Vector, "VectorTensor"},
    {TensorKind::VectorFinal, "VectorFinalTensor"},
    {TensorKind::Mem, "MemTensor"},
    {TensorKind::Stream, "StreamTensor"},
    {TensorKind::Cast, "CastTensor"},
    {TensorKind::CommitTrim, "CommitTrimTensor"},
    {TensorKind::CommitCast, "CommitCastTensor"},
    {TensorKind::Transpose, "TransposeTensor"},
    {TensorKind::Switch, "SwitchTensor"},
};
} // namespace

std::string_view tensor_type_name(TensorKind k) {
  for (const auto& n : kNames)
    if (n.kind == k) return n.name;
  return "Tensor";
}

std::optional<TensorKind> tensor_kind_from_name(std::string_view name) {
  for (const auto& n : kNames)
    if (n.name == name) return n.kind;
  return std::nullopt;
}

bool has_tu_parameter(TensorKind k) {
  switch (k) {
  case TensorKind::Trf:
  case TensorKind::Vrf:
  case TensorKind::Dm:
  case TensorKind::Hbm:
  case TensorKind::Mem:
  case TensorKind::Stream:
    return false;
  default:
    return true;
  }
}

std::string_view to_string(ContextKind c) {
  switch (c) {
  case ContextKind::Main:
    return "main";
  case ContextKind::Sub:
    return "sub";
  case ContextKind::Tdma:
    return "tdma";
  case ContextKind::Unknown:
    break;
  }
  return "unknown";
}

std::string_view to_string(Slot s) {
  switch (s) {
  case Slot::Chip:
    return "Chip";
  case Slot::Cluster:
    return "Cluster";
  case Slot::Slice:
    return "Slice";
  case Slot::Lane:
    return "Lane";
  case Slot::Time:
    return "Time";
  case Slot::Packet:
    return "Packet";
  case Slot::Element:
    return "Element";
  }
  return "?";
}

std::span<const TensorArg> tensor_args(TensorKind k) {
  switch (k) {
  case TensorKind::Begin:
  case TensorKind::Fetch:
  case TensorKind::Collect:
  case TensorKind::Contract:
  case TensorKind::Vector:
  case TensorKind::VectorFinal:
  case TensorKind::Cast:
  case TensorKind::CommitTrim:
  case TensorKind::CommitCast:
  case TensorKind::Transpose:
  case TensorKind::Switch:
    return kStream;
  case TensorKind::Mem:
    return kMem;
  case TensorKind::Stream:
    return kStreamOnly;
  case TensorKind::Trf:
    return kTrf;
  case TensorKind::Vrf:
  case TensorKind::Dm:
    return kVrf;
  case TensorKind::Hbm:
    return kHbm;
  case TensorKind::ContractOuter:
    return kOuter;
  case TensorKind::ContractPacket:
  case TensorKind::ContractTime:
    return kLaned;
  }
  return {};
}

const SpannedMapping* TensorType::get(Slot s) const {
  const auto& m = slots[static_cast<std::size_t>(s)];
  return m ? &*m : nullptr;
}

const Mapping& TensorType::mapping(Slot s) const {
  static const Mapping identity;
  const auto* m = get(s);
  return m ? m->mapping : identity;
}

std::string to_string(const TensorType& t) {
  std::string out = std::string(tensor_type_name(t.kind)) + "<";
  bool first = true;
  for (const auto& a : tensor_args(t.kind)) {
    if (!first) out += ", ";
    first = false;
    switch (a.kind) {
    case TensorArg::Kind::Dtype:
      out += name(t.dtype);
      break;
    case TensorArg::Kind::Storage:
      out += t.storage ? name(*t.storage) : "_";
      break;
    case TensorArg::Kind::Mapping:
      out += t.has(a.slot) ? "m![" + t.mapping(a.slot).to_string() + "]" : "_";
      break;
    }
  }
  return out + ">";
}

bool same_mapping(const Mapping& a, const Mapping& b) {
  if (a.size() != b.size()) return false;
  return factorize(a) == factorize(b);
}

std::vector<TypeDifference> compare_types(const TensorType& declared, const TensorType& produced) {
  std::vector<TypeDifference> out;
  if (declared.kind != produced.kind) {
    out.push_back({"the tensor type", std::string(tensor_type_name(declared.kind)),
                   std::string(tensor_type_name(produced.kind)), declared.span});
    return out;
  }
  if (declared.dtype != produced.dtype)
    out.push_back({"the element type D", std::string(name(declared.dtype)),
                   std::string(name(produced.dtype)), declared.dtype_span});
  if (declared.kind == TensorKind::ContractOuter && declared.storage && produced.storage &&
      *declared.storage != *produced.storage)
    out.push_back({"the storage type", std::string(name(*declared.storage)),
                   std::string(name(*produced.storage)), declared.dtype_span});
  for (const auto& a : tensor_args(declared.kind)) {
    if (a.kind != TensorArg::Kind::Mapping) continue;
    const SpannedMapping* d = declared.get(a.slot);
    const SpannedMapping* p = produced.get(a.slot);
    if (!d || !p) continue;
    if (!same_mapping(d->mapping, p->mapping))
      out.push_back({std::string(a.name), "m![" + d->mapping.to_string() + "]",
                     "m![" + p->mapping.to_string() + "]", d->span});
  }
  return out;
}

} // namespace tujit::ir
