// Stage names, the kernel-implied options of the cycle models, and the agreement measure.
#include "harness/cycles/cycle_model.h"
#include "ir/seq/fetch_program.h"
#include "ir/target/rngd.h"
#include "ir/types/scalar_type.h"

namespace tujit::cycles {

std::optional<Stage> cycle_stage(ir::StageUnit unit) {
  using U = ir::StageUnit;
  switch (unit) {
  case U::FetchSequencer:
    return Stage::Fetch;
  case U::Collect:
    return Stage::Collect;
  case U::TrfStore:
    return Stage::TrfStore;
  case U::VrfStore:
    return Stage::VrfStore;
  case U::SwitchEngine:
    return Stage::Switch;
  case U::ContractOuter:
    return Stage::ContractOuter;
  case U::PacketReducer:
    return Stage::ContractPacket;
  case U::TimeReducer:
    return Stage::ContractTime;
  case U::LaneFolder:
    return Stage::ContractLane;
  case U::FetchAdapter:
  case U::VectorEngine:
  case U::None:
  case U::MemReader:
  case U::MemWriter:
  case U::Dma:        // timed as a command of its own (docs/cycle-model.md §10)
  case U::CastEngine: // the output path streams behind the engines (§11)
  case U::TransposeEngine:
  case U::CommitAdapter:
  case U::CommitEngine:
    return std::nullopt;
  }
  return std::nullopt;
}

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
  case Stage::Collect:
    return "collect";
  case Stage::VrfStore:
    return "vrf_store";
  case Stage::Commit:
    return "commit";
  case Stage::Switch:
    return "switch";
  }
  return "?";
}

bool runs_stage(const CycleOptions& o, Stage s) {
  const auto at = [](Stage x) { return static_cast<int>(x); };
  if (at(s) < at(Stage::ContractOuter) || at(s) > at(Stage::ContractLane)) return false;
  return at(o.first) <= at(s) && at(s) <= at(o.last);
}

namespace {

std::uint64_t trf_operand_bytes(const ir::TensorType& trf) {
  return trf.mapping(ir::Slot::Lane).size() * trf.mapping(ir::Slot::Element).size() *
         ir::wire_bits(trf.dtype) / target::kRngd.bits_per_byte;
}

// The fetch program made by the data-path chain that ends at the Collect stage of chain `chain`
// (nullopt when that chain collects no fetch or its fetch does not lower: the verifiers say why).
std::optional<ir::seq::FetchProgram> fetch_of_chain(const ir::verify::CheckedKernel& checked,
                                                    std::size_t chain) {
  const ir::Kernel& kernel = checked;
  for (std::size_t i = 0; i < kernel.stages.size(); ++i) {
    const ir::Stage& s = kernel.stages[i];
    if (s.unit() != ir::StageUnit::Collect || s.chain != chain || !s.producer) continue;
    // A switched stream's rate is the ring's, which the chain's models do not take
    // (docs/cycle-model.md §13): they go by the products alone.
    if (auto f = ir::seq::lower_fetch(checked, i); f && !f->switch_engine) return std::move(*f);
  }
  return std::nullopt;
}

} // namespace

CycleOptions cycle_options_for(const ir::verify::CheckedKernel& checked) {
  const ir::Kernel& kernel = checked;
  // The chain the engines run (ir/lang/kernel.h).
  if (auto chain = ir::find_contraction_chain(kernel))
    return cycle_options_for(checked, *chain->outer);
  return {};
}

CycleOptions cycle_options_for(const ir::verify::CheckedKernel& checked, const ir::Stage& outer) {
  const ir::Kernel& kernel = checked;
  CycleOptions o;
  for (const auto& s : kernel.stages) {
    // A to_trf that makes the chain's TRF operand: the kernel refills the TRF, so in steady state
    // the next operand is stored into the other half while this one is read (furiosa-opt
    // docs/src/computing-tensors/register-files.md "Double Buffering"), at the rate its own fetch
    // delivers it. Only an operand that fits a half can be double-buffered (docs/contraction.md
    // §4.2 [PROP]: a larger one takes the Full region, and its store must finish before the chain
    // reads it).
    if (s.unit() == ir::StageUnit::TrfStore && outer.trf && !outer.trf_name.empty() &&
        s.bound_to == outer.trf_name) {
      o.concurrent_store = trf_operand_bytes(*outer.trf) * 2 <= target::kRngd.trf_capacity_bytes;
      if (auto f = fetch_of_chain(checked, s.chain)) {
        o.store_read_size = f->read_size;
        o.store_reads_per_packet = f->reads_per_packet;
        o.store_flits_per_packet = f->flits_per_packet;
        o.store_adapter_latency = adapter_latency(*f);
      }
    }
  }
  // The fetch that feeds the stream (docs/datapath.md §5, §8): the Fetch Engine reads read_size
  // elements per cycle, reads_per_packet reads per packet, and Collect makes flits_per_packet
  // flits of it; a cast in its Fetch Adapter delays the first flit (furiosa-opt
  // docs/src/computing-tensors/fetch-adapter.md). A chain whose fetch does not lower keeps the
  // one-flit-per-cycle stream (the verifiers report why).
  if (auto f = fetch_of_chain(checked, outer.chain)) {
    o.fetch_read_size = f->read_size;
    o.fetch_reads_per_packet = f->reads_per_packet;
    o.fetch_flits_per_packet = f->flits_per_packet;
    o.fetch_adapter_latency = adapter_latency(*f);
  }
  return o;
}

std::uint32_t adapter_latency(const ir::seq::FetchProgram& f) {
  // The stages run one after the other (docs/scalars.md §5.1), so their latencies add up.
  const bool converts = f.zero_point.has_value() || (f.cast_to && *f.cast_to != f.cast_source());
  return (f.lookup_to ? target::kRngd.fetch_adapter_lookup_latency : 0) +
         (converts ? target::kRngd.fetch_adapter_cast_latency : 0);
}

double relative_deviation(std::uint64_t analytic, std::uint64_t trace) {
  if (trace == 0) return analytic == 0 ? 0.0 : 1.0;
  const double a = static_cast<double>(analytic), t = static_cast<double>(trace);
  return (a > t ? a - t : t - a) / t;
}

} // namespace tujit::cycles
