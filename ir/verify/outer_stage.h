// The whole Outer stage of `contract_outer::<OT, OP, Lane, E, Dw>(&trf)` (docs/contraction.md §5):
// operand pair (§2.1), then the Stream Adapter (§5.1), then the TRF Sequencer (§5.2), first
// failure wins. This is what the kernel checker and `tujit check` report as stage
// "contract_outer".
#pragma once

#include "ir/verify/operand_types.h"
#include "ir/verify/stream_adapter.h"
#include "ir/verify/trf_sequencer.h"

#include <optional>

namespace tujit::ir::verify {

struct ContractOuterInput {
  ScalarType stream_dtype = ScalarType::BF16; // D of the Collect stream
  ScalarType weight_dtype = ScalarType::BF16; // Dw of the TRF tensor
  Mapping time;                               // stream Time
  Mapping packet;                             // stream Packet
  Mapping lane;                               // Lane (of the TRF tensor, = declared Lane)
  Mapping element;                            // TRF Element
  Mapping out_time;                           // declared OT
  Mapping out_packet;                         // declared OP
  std::optional<SpatialInput> trf_spatial;
  std::optional<SpatialInput> stream_spatial;
};

struct ContractOuterDerived {
  OperandTypesDerived operands;
  StreamAdapterDerived stream_adapter;
  TrfSequencerDerived trf_sequencer;
  /// The union of the three tables (keys are distinct), e.g. pack_size, lane_broadcast,
  /// time_broadcast, read_size, packet_broadcast, accumulator, loops.
  DerivedTable to_table(const ContractOuterInput& in) const;
};

Result<ContractOuterDerived> verify_contract_outer(const ContractOuterInput& in);

/// The input of a typed `contract_outer` stage: the stream it reads, its TRF operand and its
/// ContractOuter output (the kernel checker and the stage-by-stage interpreter read it alike).
ContractOuterInput contract_outer_input(const TensorType& stream, const TensorType& trf,
                                        const TensorType& out);

} // namespace tujit::ir::verify
