// What a stage verifier derives, kept as typed values next to its report table (StageCheck): the
// lowering of a checked kernel (ir/verify/checked_kernel.h) reads these instead of running the
// verifiers again (docs/design.md §2.2).
#pragma once

#include "ir/datapath/fetch_engine.h"
#include "ir/datapath/sequencer_derive.h"
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

#include <optional>
#include <variant>

namespace tujit::ir::verify {

/// A Vector Engine call: the chain's state after it, and where a `&vrf` operand's elements are
/// read (docs/vector-engine.md §3.2).
struct VectorFacts {
  VectorState state;
  std::optional<VrfOperandDerived> vrf_read;
};

/// One alternative per verifier that derives something; monostate for a stage that failed, was
/// skipped, or derives nothing (fetch_cast, the zero-point subtraction). A fetch and a MemTensor
/// read derive a FetchDerived, a MemTensor write its SequencerDerivation.
using StageFacts =
    std::variant<std::monostate, datapath::FetchDerived, datapath::SequencerDerivation,
                 CollectDerived, ToTrfDerived, ToVrfDerived, ContractOuterDerived,
                 ContractPacketDerived, ContractTimeDerived, ContractLaneDerived, VectorFacts,
                 VrfReshapeDerived, DmReshapeDerived, DmaDerived, CastDerived, TransposeDerived,
                 SwitchDerived, CommitTrimDerived, CommitCastDerived, CommitDerived>;

} // namespace tujit::ir::verify
