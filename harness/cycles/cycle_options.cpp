// Stage names, the kernel-implied options of the cycle models, and the agreement measure.
#include "harness/cycles/cycle_model.h"
#include "ir/seq/fetch_program.h"
#include "ir/target/rngd.h"
#include "ir/types/scalar_type.h"

#include <algorithm>

namespace tujit::cycles {

std::string_view stage_name(Stage s) {
  switch (s) {
  case Stage::Fetch:
    return "fetch";
  case Stage::TrfRead:
    return "trf_read";
  case Stage::ContractOuter:
    return "contract_outer";
  case Stage::ContractPacket:
    return "contract_packet";
  case Stage::ContractTime:
    return "contract_time";
  case Stage::ContractLane:
    return "contract_lane";
  case Stage::TrfStore:
    return "trf_store";
  }
  return "?";
}

namespace {

std::uint64_t trf_operand_bytes(const ir::TensorType& trf) {
  return trf.mapping(ir::Slot::Lane).size() * trf.mapping(ir::Slot::Element).size() *
         ir::wire_bits(trf.dtype) / target::kRngd.bits_per_byte;
}

} // namespace

CycleOptions cycle_options_for(const ir::Kernel& kernel) {
  CycleOptions o;
  // The chain lower_contraction lowers: the first contract_outer with a TRF operand whose chain
  // reaches contract_lane (ir/seq/lower_contraction.h).
  const ir::Stage* outer = nullptr;
  for (const auto& s : kernel.stages) {
    if (s.op != ir::StageOp::ContractOuter || !s.trf) continue;
    const bool complete =
        std::any_of(kernel.stages.begin(), kernel.stages.end(), [&](const auto& l) {
          return l.op == ir::StageOp::ContractLane && l.chain == s.chain;
        });
    if (complete) {
      outer = &s;
      break;
    }
  }
  if (outer == nullptr) return o;
  for (const auto& s : kernel.stages) {
    // A to_trf that makes the chain's TRF operand: the kernel refills the TRF, so in steady state
    // the next operand is stored into the other half while this one is read (furiosa-opt
    // docs/src/computing-tensors/register-files.md "Double Buffering"). Only an operand that fits a
    // half can be double-buffered (docs/contraction.md §4.2 [PROP]: a larger one takes the Full
    // region, and its store must finish before the chain reads it).
    if (s.op == ir::StageOp::ToTrf && !outer->trf_name.empty() && s.bound_to == outer->trf_name)
      o.concurrent_store = trf_operand_bytes(*outer->trf) * 2 <= target::kRngd.trf_capacity_bytes;
    // A cast in the stream's Fetch Adapter (furiosa-opt
    // docs/src/computing-tensors/fetch-adapter.md: +1–2 cycles latency).
    if (s.chain == outer->chain &&
        (s.op == ir::StageOp::FetchCast || s.op == ir::StageOp::FetchZeroPointSub))
      o.fetch_adapter_latency = target::kRngd.fetch_adapter_cast_latency;
  }
  // The fetch that feeds the stream (docs/datapath.md §5, §8): the Fetch Engine reads read_size
  // elements per cycle, reads_per_packet reads per packet, and Collect makes flits_per_packet
  // flits of it. A kernel whose fetches do not lower keeps the one-flit-per-cycle stream (the
  // verifiers report why).
  if (auto fetches = ir::seq::lower_fetches(kernel)) {
    for (const auto& f : *fetches) {
      if (f.consumer != ir::seq::FetchConsumer::Stream) continue;
      o.fetch_read_size = f.read_size;
      o.fetch_reads_per_packet = f.reads_per_packet;
      o.fetch_flits_per_packet = f.flits_per_packet;
      break;
    }
  }
  return o;
}

double relative_deviation(std::uint64_t analytic, std::uint64_t trace) {
  if (trace == 0) return analytic == 0 ? 0.0 : 1.0;
  const double a = static_cast<double>(analytic), t = static_cast<double>(trace);
  return (a > t ? a - t : t - a) / t;
}

} // namespace tujit::cycles
