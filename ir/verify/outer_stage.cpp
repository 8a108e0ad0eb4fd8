#include "ir/verify/outer_stage.h"

namespace tujit::ir::verify {

DerivedTable ContractOuterDerived::to_table(const ContractOuterInput& in) const {
  DerivedTable t = operands.to_table(OperandTypesInput{in.stream_dtype, in.weight_dtype});
  for (auto& [k, v] : stream_adapter.to_table()) t.emplace(k, v);
  for (auto& [k, v] : trf_sequencer.to_table()) t.emplace(k, v);
  return t;
}

Result<ContractOuterDerived> verify_contract_outer(const ContractOuterInput& in) {
  Result<OperandTypesDerived> ops = verify_operand_types({in.stream_dtype, in.weight_dtype});
  if (!ops) return std::move(ops).take_diagnostics();
  Result<StreamAdapterDerived> sa = verify_stream_adapter(
      {in.stream_dtype, in.lane, in.time, in.packet, in.out_time, in.out_packet});
  if (!sa) return std::move(sa).take_diagnostics();
  Result<TrfSequencerDerived> seq =
      verify_trf_sequencer({in.weight_dtype, in.lane, in.element, in.out_time, in.out_packet,
                            in.trf_spatial, in.stream_spatial});
  if (!seq) return std::move(seq).take_diagnostics();
  return ContractOuterDerived{std::move(*ops), std::move(*sa), std::move(*seq)};
}

ContractOuterInput contract_outer_input(const TensorType& stream, const TensorType& trf,
                                        const TensorType& out) {
  ContractOuterInput ci;
  ci.stream_dtype = stream.dtype;
  ci.weight_dtype = trf.dtype;
  ci.time = stream.mapping(Slot::Time);
  ci.packet = stream.mapping(Slot::Packet);
  ci.lane = trf.mapping(Slot::Lane);
  ci.element = trf.mapping(Slot::Element);
  ci.out_time = out.mapping(Slot::Time);
  ci.out_packet = out.mapping(Slot::Packet);
  ci.trf_spatial = spatial_of(trf);
  ci.stream_spatial = spatial_of(stream);
  return ci;
}

} // namespace tujit::ir::verify
