#include "tests/support/chain_run.h"

#include "ir/seq/view_streams.h"

#include <initializer_list>
#include <map>
#include <string>
#include <utility>

namespace tujit::testing {
namespace {

using ir::Axis;
using ir::Mapping;
using ir::ScalarType;
using ir::Slot;
using ir::SpannedMapping;
using ir::TensorArg;
using ir::TensorKind;
using ir::TensorType;
using ir::seq::ChainMappings;
using ir::seq::ChainStage;
using ir::seq::ContractionProgram;
using ir::seq::OperandStreams;
using ir::seq::RunProgram;

TensorType chain_type(TensorKind kind, ScalarType dtype,
                      std::initializer_list<std::pair<Slot, const Mapping*>> slots) {
  TensorType t;
  t.kind = kind;
  t.dtype = dtype;
  for (const auto& [slot, m] : slots) t.set(slot, SpannedMapping{*m, {}});
  return t;
}

/// The axes a type's mappings name, in name order (their full sizes).
std::vector<Axis> named_axes(const TensorType& t) {
  std::map<std::string, std::uint64_t> by_name;
  for (const auto& arg : ir::tensor_args(t.kind))
    if (arg.kind == TensorArg::Kind::Mapping)
      for (const Axis& a : t.mapping(arg.slot).axes()) by_name[a.name] = a.size;
  std::vector<Axis> v;
  for (const auto& [name, size] : by_name) v.push_back({name, size});
  return v;
}

/// The tensor type at a boundary of a part of a chain: the input of stage `at`, or (`after`) the
/// output of the chain's last stage.
TensorType boundary_type(const ContractionProgram& c, ChainStage at) {
  const ChainMappings& m = c.m;
  const auto spatial = [&](TensorKind kind, const Mapping& lane, const Mapping& time,
                           const Mapping& packet) {
    TensorType t = chain_type(kind, c.accumulator,
                              {{Slot::Chip, &m.chip},
                               {Slot::Cluster, &m.cluster},
                               {Slot::Slice, &m.slice},
                               {Slot::Lane, &lane},
                               {Slot::Time, &time},
                               {Slot::Packet, &packet}});
    t.storage = c.stream_type;
    return t;
  };
  switch (at) {
  case ChainStage::Packet: // a ContractOuterTensor
    return spatial(TensorKind::ContractOuter, m.lane, m.out_time, m.out_packet);
  case ChainStage::Time:
    return spatial(TensorKind::ContractPacket, m.lane, m.out_time, m.p2);
  default:
    return spatial(TensorKind::ContractTime, m.lane, m.t2, m.p2);
  }
}

} // namespace

Result<ChainRun> chain_run(const ContractionProgram& c) {
  const ChainMappings& m = c.m;
  ChainRun r;
  if (c.forms_products()) {
    r.stream_type = chain_type(TensorKind::Collect, c.stream_type,
                               {{Slot::Chip, &m.chip},
                                {Slot::Cluster, &m.cluster},
                                {Slot::Slice, &m.slice},
                                {Slot::Time, &m.time},
                                {Slot::Packet, &m.packet}});
    r.trf_type = chain_type(TensorKind::Trf, c.trf_type,
                            {{Slot::Chip, &m.chip},
                             {Slot::Cluster, &m.cluster},
                             {Slot::Slice, &m.slice},
                             {Slot::Lane, &m.lane},
                             {Slot::Element, &m.element}});
  } else {
    r.stream_type = boundary_type(c, c.first);
  }
  if (c.last == ChainStage::Lane)
    r.output_type = chain_type(TensorKind::Contract, c.accumulator,
                               {{Slot::Chip, &m.chip},
                                {Slot::Cluster, &m.cluster},
                                {Slot::Slice, &m.slice},
                                {Slot::Time, &m.t3},
                                {Slot::Packet, &m.p3}});
  else
    r.output_type = boundary_type(c, static_cast<ChainStage>(static_cast<int>(c.last) + 1));
  r.stream_axes = named_axes(r.stream_type);
  if (c.forms_products()) r.trf_axes = named_axes(r.trf_type);
  RunProgram& p = r.program;
  p.kernel_name = c.kernel_name;
  const auto operand = [](const std::string& name, const TensorType& type,
                          const std::vector<Axis>& axes) -> Result<OperandStreams> {
    auto s = ir::seq::view_streams(name, type, axes, axes, ir::seq::kMaxStreamPositions);
    if (!s) return std::move(s).take_diagnostics();
    OperandStreams o;
    o.streams = std::move(*s);
    o.type = type.dtype;
    return o;
  };
  auto stream = operand("stream", r.stream_type, r.stream_axes);
  if (!stream) return std::move(stream).take_diagnostics();
  ir::seq::ContractionRun run{c, std::move(*stream), {}};
  if (c.forms_products()) {
    auto trf = operand("trf", r.trf_type, r.trf_axes);
    if (!trf) return std::move(trf).take_diagnostics();
    run.trf = std::move(*trf);
  }
  p.body = std::move(run);
  auto with =
      ir::seq::with_output(r.output_type, named_axes(r.output_type), c.accumulator, std::move(p));
  if (!with) return std::move(with).take_diagnostics();
  r.program = std::move(*with);
  return r;
}

} // namespace tujit::testing
