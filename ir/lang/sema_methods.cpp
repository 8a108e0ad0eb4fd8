#include "ir/lang/sema_methods.h"

#include <fmt/format.h>

namespace tujit::ir::lang {

namespace {

MethodInfo vector(std::string_view name, VectorCallKind kind, TensorKind input,
                  std::vector<MethodParam> params = {}) {
  const std::size_t n = params.size();
  MethodInfo m{name, StageOp::Vector, input, std::move(params), n};
  m.vector = kind;
  if (kind == VectorCallKind::Init) m.alt_input = TensorKind::Contract;
  return m;
}

const std::vector<MethodInfo>& methods() {
  static const std::vector<MethodInfo> table = [] {
    std::vector<MethodInfo> t = {
        {"fetch", StageOp::Fetch, TensorKind::Begin, {{"Time"}, {"Packet"}}, 2},
        {"fetch_cast", StageOp::FetchCast, TensorKind::Fetch, {{"D", true}}, 1},
        {"fetch_zero_point_sub", StageOp::FetchZeroPointSub, TensorKind::Fetch, {{"D", true}}, 1},
        {"collect", StageOp::Collect, TensorKind::Fetch, {{"Time"}, {"Packet"}}, 2},
        {"to_trf", StageOp::ToTrf, TensorKind::Collect, {{"Lane"}, {"Element"}}, 2},
        // A store off the collect, or off vector_final at the Vector Engine's write port.
        {"to_vrf", StageOp::ToVrf, TensorKind::Collect, {{"Element"}}, 1, TensorKind::VectorFinal},
        {"contract_outer",
         StageOp::ContractOuter,
         TensorKind::Collect,
         {{"OutTime"}, {"OutPacket"}, {"Lane"}, {"TrfElement"}, {"TrfD", true}},
         2},
        {"contract_packet", StageOp::ContractPacket, TensorKind::ContractOuter, {{"OutPacket"}}, 1},
        {"contract_time", StageOp::ContractTime, TensorKind::ContractPacket, {{"OutTime"}}, 1},
        {"contract_lane",
         StageOp::ContractLane,
         TensorKind::ContractTime,
         {{"OutTime"}, {"OutPacket"}},
         2},
        {"reshape",
         StageOp::VrfReshape,
         TensorKind::Vrf,
         {{"Chip"}, {"Cluster"}, {"Slice"}, {"Element"}},
         4},
        {"read", StageOp::MemRead, TensorKind::Mem, {{"Time"}, {"Packet"}}, 2},
        {"write", StageOp::MemWrite, TensorKind::Mem, {}, 0},
    };
    using K = VectorCallKind;
    const TensorKind v = TensorKind::Vector;
    t.push_back(vector("vector_init", K::Init, TensorKind::Collect));
    t.push_back(vector("vector_intra_slice_tag", K::Tag, v));
    t.push_back(vector("vector_narrow_split", K::NarrowSplit, v, {{"Time2"}, {"Packet2"}}));
    t.push_back(vector("vector_narrow_trim", K::NarrowTrim, v, {{"Packet2"}}));
    t.push_back(vector("vector_widen_concat", K::WidenConcat, v, {{"Time2"}, {"Packet2"}}));
    t.push_back(vector("vector_widen_pad", K::WidenPad, v, {{"Packet2"}}));
    for (std::string_view name :
         {"vector_fp_unary", "vector_fp_binary", "vector_fp_binary_with_mode", "vector_fp_ternary",
          "vector_fp_div", "vector_fp_div_with_mode", "vector_fxp", "vector_fxp_with_mode",
          "vector_logic", "vector_logic_with_mode", "vector_clip", "vector_clip_with_mode",
          "vector_fxp_to_fp", "vector_fp_to_fxp"}) {
      const std::string_view base = name.substr(0, name.rfind("_with_mode"));
      K kind = K::FpUnary;
      if (base == "vector_fp_binary") kind = K::FpBinary;
      if (base == "vector_fp_ternary") kind = K::FpTernary;
      if (base == "vector_fp_div") kind = K::FpDiv;
      if (base == "vector_fxp") kind = K::Fxp;
      if (base == "vector_logic") kind = K::Logic;
      if (base == "vector_clip") kind = K::Clip;
      if (base == "vector_fxp_to_fp") kind = K::FxpToFp;
      if (base == "vector_fp_to_fxp") kind = K::FpToFxp;
      t.push_back(vector(name, kind, v));
    }
    t.push_back(vector("vector_reinterpret", K::Reinterpret, v, {{"D2", true}}));
    t.push_back(vector("vector_final", K::Final, v));
    return t;
  }();
  return table;
}

} // namespace

std::string MethodInfo::inputs_text() const {
  if (!alt_input) return std::string(tensor_type_name(input));
  return fmt::format("{} or {}", tensor_type_name(input), tensor_type_name(*alt_input));
}

const MethodInfo* find_method(std::string_view name) {
  for (const auto& m : methods())
    if (m.name == name) return &m;
  return nullptr;
}

std::string known_methods() {
  std::string out = "begin, view";
  for (const auto& m : methods()) out += fmt::format(", {}", m.name);
  return out;
}

std::optional<Slot> output_slot(const MethodInfo& m, std::size_t i) {
  switch (m.op) {
  case StageOp::Fetch:
  case StageOp::Collect:
  case StageOp::ContractLane:
  case StageOp::MemRead:
    return i == 0 ? Slot::Time : Slot::Packet;
  case StageOp::ToTrf:
    return i == 0 ? Slot::Lane : Slot::Element;
  case StageOp::ToVrf:
    return Slot::Element;
  case StageOp::ContractOuter:
    if (i == 0) return Slot::Time;
    if (i == 1) return Slot::Packet;
    if (i == 2) return Slot::Lane;
    return std::nullopt;
  case StageOp::ContractPacket:
    return Slot::Packet;
  case StageOp::ContractTime:
    return Slot::Time;
  case StageOp::VrfReshape:
    return std::array{Slot::Chip, Slot::Cluster, Slot::Slice, Slot::Element}.at(i);
  case StageOp::Vector:
    if (m.vector == VectorCallKind::NarrowSplit || m.vector == VectorCallKind::WidenConcat)
      return i == 0 ? Slot::Time : Slot::Packet;
    if (m.vector == VectorCallKind::NarrowTrim || m.vector == VectorCallKind::WidenPad)
      return Slot::Packet;
    return std::nullopt;
  case StageOp::FetchCast:
  case StageOp::FetchZeroPointSub:
  case StageOp::MemWrite:
    return std::nullopt;
  }
  return std::nullopt;
}

TensorKind output_kind(const MethodInfo& m) {
  switch (m.op) {
  case StageOp::Fetch:
  case StageOp::FetchCast:
  case StageOp::FetchZeroPointSub:
    return TensorKind::Fetch;
  case StageOp::Collect:
    return TensorKind::Collect;
  case StageOp::ToTrf:
    return TensorKind::Trf;
  case StageOp::ToVrf:
  case StageOp::VrfReshape:
    return TensorKind::Vrf;
  case StageOp::ContractOuter:
    return TensorKind::ContractOuter;
  case StageOp::ContractPacket:
    return TensorKind::ContractPacket;
  case StageOp::ContractTime:
    return TensorKind::ContractTime;
  case StageOp::ContractLane:
    return TensorKind::Contract;
  case StageOp::Vector:
    return m.vector == VectorCallKind::Final ? TensorKind::VectorFinal : TensorKind::Vector;
  case StageOp::MemRead:
    return TensorKind::Stream;
  case StageOp::MemWrite:
    return TensorKind::Mem;
  }
  return TensorKind::Fetch;
}

} // namespace tujit::ir::lang
