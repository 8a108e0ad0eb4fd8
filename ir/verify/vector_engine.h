// The Vector Engine's intra-slice chain (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md; the reference's
// engine/vector/tensor/vector_tensor.rs typestate and
// furiosa-opt-lower/src/verify/engine/vector/tensor.rs): a chain
//
//   vector_init → vector_intra_slice_tag → [stages in pipeline order] → vector_final
//
// visits the stages of ir/types/vector_op.h in increasing order (Logic, Fxp, Fp and Clip may
// repeat), claims each ALU at most once, runs Way8 (8-element packets) except between a Narrow and
// a Widen, where the Float cluster, the divider and the reduce tree run Way4, and ends Way8. The
// narrow / widen calls restate Time and Packet; their rules (which splits and concats are legal)
// are the reference's config_vector_narrow_split / _narrow_trim / _widen_concat / _widen_pad.
// docs/vector-engine.md states every rule and docs/errors.md every E-VE code.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/mapping/factor.h"
#include "ir/support/diagnostic.h"
#include "ir/target/rngd.h"
#include "ir/types/vector_op.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <set>
#include <span>
#include <vector>

namespace tujit::ir::verify {

/// Elements per packet in each Way (a Way8 packet is one 32 B flit of 32-bit elements).
inline constexpr std::uint64_t kWay8Elements = 8;
inline constexpr std::uint64_t kWay4Elements = 4;
/// The intra-slice reduce's accumulator slots (ir/target/rngd.h).
inline constexpr std::uint64_t kReduceSlots = target::kRngd.ve_reduce_slots;

/// The engine's state after a call.
/// The chain's stash slot (docs/vector-engine.md §3.3): written once, read once.
enum class StashSlot : std::uint8_t { Empty, Occupied, Read };
/// Pair mode (docs/vector-engine.md §3.5): not entered, the two groups before their zip, the one
/// stream after it.
enum class PairPhase : std::uint8_t { None, Paired, Zipped };
/// The inter-slice reducer (docs/vector-engine.md §3.7): not used, used right after vector_init
/// (the chain may then enter with the tag), used from the intra-slice chain (only vector_final
/// follows).
enum class InterPhase : std::uint8_t { None, InterFirst, Exited };

struct VectorState {
  VeStage stage = VeStage::Init;
  std::uint64_t way = kWay8Elements; // elements per packet the stages now run
  std::set<VeAlu> alus;              // claimed so far
  bool way4 = false;                 // the chain narrowed to Way4 at some point
  StashSlot stash = StashSlot::Empty;
  ScalarType stash_dtype = ScalarType::I32; // the scalar the stash holds, once Occupied
  PairPhase pair = PairPhase::None;
  /// A call so far computed a comparison tag or read a `&vrf` operand, the stash or a guard: the
  /// terms of a later intra-slice reduce could not each run it alone (docs/vector-engine.md §3.6).
  bool per_element_state = false;
  InterPhase inter = InterPhase::None;
  bool reduced = false;           // an intra- or inter-slice reduce ran
  std::uint64_t reduce_ratio = 1; // the inter-slice reducer's slices per reduction group
  /// Keys: stage, way, alu (the one this call claimed, if any), alus_used; at vector_final the
  /// timing of docs/vector-engine.md §5: cycles_per_flit (1 at full Way8 throughput,
  /// 2 when the chain runs a Way4 stretch: its packets are half as wide) and latency_cycles (one
  /// per ALU used).
  DerivedTable to_table(const VectorCall& call) const;
};

/// One call with the mappings it reads and writes.
struct VectorStep {
  VectorCall call;
  Mapping time, packet;               // the stream entering the call
  Mapping out_time, out_packet;       // the stream it produces
  ScalarType dtype = ScalarType::I32; // the stream's scalar entering the call
  /// vector_intra_slice_unzip's grouping axis (`m![I]`) and TileTime, vector_intra_slice_reduce's
  /// reduced axis (in group_axis); empty for other calls.
  Mapping group_axis, tile_time;
  /// The Slice entering and leaving the call (the inter-slice reducer rewrites it).
  Mapping slice, out_slice;
};

/// Replays `chain` (its first step is vector_init) and verifies its last step against the state
/// the earlier ones leave (those are assumed verified: the kernel checker skips a chain after its
/// first failure). The state after the last step, or the rule it breaks.
Result<VectorState> verify_vector_step(const std::vector<VectorStep>& chain);

/// The inter-slice reducer's reduction group (docs/vector-engine.md §3.7): the innermost factors
/// of Slice it reduces, Slice2 keeping the rest; nullopt when there is none (the verifier's
/// E-VE-033).
std::optional<FactorList> inter_reduced_slices(const Mapping& slice, const Mapping& slice2);

/// The Vector Engine calls of `stages` (a kernel body or its driver) from the vector_init that
/// starts stage `index`'s chain up to `index` (following Stage::producer), as VectorSteps; empty
/// when `index` is not a Vector stage or its chain has no vector_init.
std::vector<VectorStep> vector_chain_to(std::span<const Stage> stages, std::size_t index);

} // namespace tujit::ir::verify
