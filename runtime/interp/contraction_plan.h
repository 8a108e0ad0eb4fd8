// Everything the reference interpreter derives once per kernel for one contract_outer …
// contract_lane chain (spec/contraction.md §5–§8): the stage parameters the verifiers derive, and
// per-position tables (liveness of Lane/OT/OP/T3/P3, the TRF read address of every packet cycle,
// the accumulator slot of every OT position, the Lane Folder's output order). The plan is a pure
// function of the kernel; run_contraction (interpreter.h) executes it on device images.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/types/lane_mode.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/trf_sequencer.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime {

/// The mappings of one contraction chain, as read from the kernel's stages.
struct ContractionMappings {
  ir::Mapping chip, cluster, slice; // spatial (identical for stream, TRF and output, §3 S7)
  ir::Mapping time, packet;         // stream (Collect output)
  ir::Mapping lane, element;        // TRF operand
  ir::Mapping out_time, out_packet; // OT, OP (contract_outer)
  ir::Mapping p2;                   // contract_packet OutPacket
  ir::Mapping t2;                   // contract_time OutTime
  ir::Mapping t3, p3;               // contract_lane OutTime / OutPacket
};

struct ContractionPlan {
  ContractionMappings m;
  ir::ScalarType stream_dtype = ir::ScalarType::BF16;
  ir::ScalarType trf_dtype = ir::ScalarType::BF16;
  ir::ScalarType accumulator = ir::ScalarType::F32; // i32 or f32 (§2.1)
  ir::LaneMode mode = ir::LaneMode::Interleaved;

  // Sizes (cells, padding included).
  std::uint64_t spatial = 1; // |Chip|·|Cluster|·|Slice|
  std::uint64_t time = 1, packet = 1, lanes = 1, element = 1;
  std::uint64_t ot = 1, op = 1, p2 = 1, t2 = 1, t3 = 1, p3 = 8;

  // Stream Adapter (§5.1), TRF Sequencer (§5.2), Packet Reducer (§6), Time Reducer (§7).
  std::uint64_t pack_size = 1;
  std::uint64_t time_broadcast = 1;            // TB
  std::uint64_t flit_elements = 1;             // FE(D) of the stream type = |Packet|
  std::uint64_t read_size = 1;                 // RS
  std::vector<ir::verify::TrfLoopEntry> loops; // outer→inner, one per OT digit
  std::uint32_t depth = 0;                     // d
  std::uint64_t group = 1;                     // G = 2^d
  std::uint64_t live_columns = 0; // columns of P2 that carry a tree result: min(L, |P2|)
  std::uint64_t inner_time = 1;   // InnerTime (reporting only)

  // Per-position tables.
  std::vector<std::uint8_t> spatial_live; // [spatial]
  std::vector<std::uint8_t> lane_live;    // [|Lane|]
  std::vector<std::uint8_t> ot_live;      // [|OT|]
  std::vector<std::uint8_t> op_live;      // [|OP|]
  std::vector<std::uint64_t> trf_addr;    // [|OT|]: addr(t) = Σ digit_f(t)·stride_f
  std::vector<std::int64_t> slot;         // [|OT|]: position u in T2, -1 for OT padding
  /// [|T3|·8]: the accumulator cell (l·|T2| + u)·|P2| + c an output cell drains, or -1 for an
  /// output padding cell (written 0) (§8 output order).
  std::vector<std::int64_t> out_source;

  /// The stream flit and element of OP cell p in packet cycle t (§5.4).
  std::uint64_t stream_flit(std::uint64_t t, std::uint64_t p) const {
    return (t / time_broadcast) * pack_size + p / flit_elements;
  }
  std::uint64_t stream_element(std::uint64_t p) const { return p % flit_elements; }
  /// The TRF element position (in every lane) that OP cell p of packet cycle t multiplies.
  std::uint64_t trf_element(std::uint64_t t, std::uint64_t p) const {
    return trf_addr[t] + p % read_size;
  }
};

/// Finds the first complete contract_outer → contract_packet → contract_time → contract_lane
/// chain of `kernel`, runs the stage verifiers on its mappings (the same ones `tujit check`
/// runs) and derives the plan. Diagnostics (E-RUN-101) when the kernel has no such chain or a
/// verifier refuses it (the verifier's own diagnostic is passed through).
Result<ContractionPlan> plan_contraction(const ir::SpecFile& file, const ir::Kernel& kernel);

/// Same, from the chain's mappings and types directly (tests, callers without a kernel).
Result<ContractionPlan> plan_contraction(const ContractionMappings& m, ir::ScalarType stream_dtype,
                                         ir::ScalarType trf_dtype, ir::LaneMode mode);

} // namespace tujit::runtime
