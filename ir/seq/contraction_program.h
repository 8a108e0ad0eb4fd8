// The Sequencer IR of one contraction chain (contract_outer → contract_packet → contract_time →
// contract_lane, docs/contraction.md §5–§8): the nested loops the Tensor Unit's sequencers run for
// one slice, with every address stream written as `[size : stride]` loop entries (stride 0 =
// broadcast) and the reductions marked. It is the one contract between the front end and the back
// ends (docs/design.md §3): the reference interpreter (runtime/interp/) and the JIT (codegen/)
// execute this program and nothing else; the cycle model walks its address streams.
//
// One slice runs (identical for every live spatial position, §3 S7):
//
//   acc[Lane][T2][P2] = +0                                       Time Reducer slots (§7, §9.2)
//   for each packet cycle t in the cycle nest (outer → inner):    TRF Sequencer loops (§5.2)
//     skip t unless cycle_live[t]                                 pre-reduce OutTime padding
//     flit = Σ digit·flit_stride, addr = Σ digit·trf_stride, u = Σ digit·slot_stride
//     for each live lane l:                                       Lane Broadcast (§5.4)
//       for column c < columns, cell k < group:                   Packet Reducer (§6)
//         p = c·group + k
//         x[p] = widen(stream[flit·|Packet| + p]) × widen(trf[l][addr + p mod read_size])
//                present iff cell_live[p] and both operand cells hold a logical element (§9.4)
//       r[c] = adjacent-pair tree of depth `depth` over x[c·group …]   (§9.2, ABSENT ⊕ v = v)
//       acc[l][u][c] ⊕= r[c]  when r[c] is present                   flit order (§7)
//   out[o] = acc[drain[o]] for drain[o] ≥ 0, else 0                    Lane Folder (§8)
//
// The stream flit index is contiguous over a packet (PackSize flits of |Packet| cells), so one
// flit base per cycle addresses the whole packet.
//
// A program may run a contiguous part `first` … `last` of the chain (a kernel that starts from a
// ContractOuter / Packet / Time tensor parameter, or returns one). The same loops run, with the
// stages outside the part replaced by reads and writes of the tensors at its ends:
//
//   first = Packet / Time: x[p] is the input tensor's cell (Lane l, OT t, cell p) instead of a
//     product (no Stream Adapter, TRF or Multiplier; present iff the cell holds a logical element)
//   first = Lane: no packet cycle runs; acc[l][u][c] is the input tensor's cell (l, u, c) (0 when
//     it holds none)
//   last = Outer / Packet: r[c] is written to the output cell (l, t, c) instead of accumulated
//     (0 when absent); no Time Reducer, no Lane Folder
//   last = Time: acc[l][u][c] is written to the output cell (l, u, c); no Lane Folder
//
// A stage outside the part is the identity in the loops above: without contract_packet a column
// is one cell (group 1, depth 0), without contract_time a cycle has no slot. The ContractOuter /
// Packet / Time tensors are [Lane, Time] × [Packet] views (address_stream.h view_dims).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/types/lane_mode.h"
#include "ir/types/scalar_type.h"

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace tujit::ir::seq {

/// The Contraction Engine's stages in chain order (docs/contraction.md §5–§8).
enum class ChainStage : std::uint8_t { Outer, Packet, Time, Lane };
const char* to_string(ChainStage s);

/// One loop of the packet-cycle nest: `size` iterations; each iteration advances the stream flit
/// index, the TRF element address and the accumulator slot by their strides (0 = broadcast for
/// an operand, a reduced time digit for the slot).
struct CycleLoop {
  std::uint64_t size = 1;
  std::uint64_t flit_stride = 0; // stream flits (each |Packet| cells)
  std::uint64_t trf_stride = 0;  // TRF elements within a lane
  std::uint64_t slot_stride = 0; // Time Reducer slots (positions of T2); 0 = reduced digit
  friend bool operator==(const CycleLoop&, const CycleLoop&) = default;
};

/// The mappings of the chain, kept for reports and the cycle model (never re-derived from by the
/// engines).
struct ChainMappings {
  Mapping chip, cluster, slice; // spatial (identical for stream, TRF and output, §3 S7)
  Mapping time, packet;         // stream (Collect output)
  Mapping lane, element;        // TRF operand
  Mapping out_time, out_packet; // OT, OP (contract_outer)
  Mapping p2;                   // contract_packet OutPacket
  Mapping t2;                   // contract_time OutTime
  Mapping t3, p3;               // contract_lane OutTime / OutPacket
};

struct ContractionProgram {
  std::string kernel_name;
  ChainMappings m;

  /// The part of the chain the program runs (the file comment); Outer … Lane is the whole chain.
  ChainStage first = ChainStage::Outer;
  ChainStage last = ChainStage::Lane;

  ScalarType stream_type = ScalarType::BF16;
  ScalarType trf_type = ScalarType::BF16;
  ScalarType accumulator = ScalarType::F32; // i32 or f32 (§2.1)
  LaneMode mode = LaneMode::Interleaved;
  /// docs/contraction.md §9.3 switch: flush subnormal f32 products and sums to signed zero (RNGD
  /// has no f32 subnormals); off = IEEE subnormals, as the reference computes.
  bool ftz_results = false;

  // Buffer shapes in cells, padding included. Stream [spatial][time][packet], TRF
  // [spatial][lanes][element], accumulator [lanes][t2][p2] per slice, output [spatial][t3][p3].
  // A part from contract_time reads cells of P2 per cycle: `op` = |P2| there.
  std::uint64_t spatial = 1;
  std::uint64_t time = 1, packet = 1;
  std::uint64_t lanes = 1, element = 1;
  std::uint64_t cycles = 1; // |OT|: packet cycles per lane (0 for a part from contract_lane)
  std::uint64_t op = 1;     // |OP| = PackSize · |Packet| cells per packet
  std::uint64_t t2 = 1, p2 = 1;
  std::uint64_t t3 = 1, p3 = 8;

  // Stream Adapter (§5.1) and TRF Sequencer (§5.2) parameters, for reports and the cycle model.
  std::uint64_t pack_size = 1;
  std::uint64_t time_broadcast = 1;
  std::uint64_t read_size = 1; // RS: TRF elements per lane per read; the packet repeats them
  bool wide_read = false;      // 64 B read over both banks (§5.2)
  std::uint64_t inner_time = 1;

  // Packet Reducer (§6): `columns` tree results per lane per cycle, each over `group` = 2^depth
  // adjacent cells; the cells of later columns drain nowhere and are not computed.
  std::uint32_t depth = 0;
  std::uint64_t group = 1;
  std::uint64_t columns = 1;

  /// The packet-cycle nest, outer → inner; the sizes multiply to `cycles`.
  std::vector<CycleLoop> cycle_nest;

  // Liveness (1 = live). Empty `cycle_live` / `cell_live` mean all live.
  std::vector<std::uint8_t> spatial_live; // [spatial]
  std::vector<std::uint8_t> lane_live;    // [lanes]
  std::vector<std::uint8_t> cycle_live;   // [cycles] in cycle order
  std::vector<std::uint8_t> cell_live;    // [op]

  /// True when every stream / TRF cell holds a logical element (no padding positions), so no
  /// product can be ABSENT because of an operand; engines may drop presence masks.
  bool stream_dense = false;
  bool trf_dense = false;

  /// Lane Folder (§8): for output cell o = u3·p3 + j of a slice, the accumulator cell
  /// (l·t2 + u)·p2 + c it drains, or -1 for an output padding cell (written 0).
  std::vector<std::int64_t> drain;

  bool whole() const { return first == ChainStage::Outer && last == ChainStage::Lane; }
  /// The Multiplier runs: x[p] are products of the stream and TRF operands.
  bool forms_products() const { return first == ChainStage::Outer; }
  /// Packet cycles run (the part starts before the Lane Folder).
  bool walks_cycles() const { return first != ChainStage::Lane; }
  /// The tree results r[c] are the output, one row per (lane, packet cycle).
  bool cycle_output() const { return last == ChainStage::Outer || last == ChainStage::Packet; }
  /// The view of the input tensor a part that does not start at contract_outer reads, and of the
  /// output of every part: [outer][inner] cells per slice.
  std::uint64_t input_outer() const { return lanes * (walks_cycles() ? cycles : t2); }
  std::uint64_t input_inner() const { return walks_cycles() ? op : p2; }
  std::uint64_t output_outer() const;
  std::uint64_t output_inner() const;

  std::uint64_t accumulator_cells() const { return lanes * t2 * p2; }
  std::uint64_t output_cells() const { return t3 * p3; }
  bool is_cycle_live(std::uint64_t t) const { return cycle_live.empty() || cycle_live[t] != 0; }
  bool is_cell_live(std::uint64_t p) const { return cell_live.empty() || cell_live[p] != 0; }
  /// Products simulated per slice if every operand cell were live (reporting).
  std::uint64_t products_per_slice() const;
};

/// Calls f(field) for every field of `p` (a ContractionProgram or CycleLoop, const or not) in
/// declaration order: the one list of the program's fields, which the fingerprint and its tests
/// walk. The structured binding must name exactly the aggregate's fields, so a field added to the
/// struct and not here is a compile error.
template <class Loop, class F>
requires std::same_as<std::remove_const_t<Loop>, CycleLoop>
void for_each_field(Loop& l, F&& f) {
  auto& [size, flit_stride, trf_stride, slot_stride] = l;
  (f(size), f(flit_stride), f(trf_stride), f(slot_stride));
}
template <class Program, class F>
requires std::same_as<std::remove_const_t<Program>, ContractionProgram>
void for_each_field(Program& p, F&& f) {
  auto& [kernel_name, m, first, last, stream_type, trf_type, accumulator, mode, ftz_results,
         spatial, time, packet, lanes, element, cycles, op, t2, p2, t3, p3, pack_size,
         time_broadcast, read_size, wide_read, inner_time, depth, group, columns, cycle_nest,
         spatial_live, lane_live, cycle_live, cell_live, stream_dense, trf_dense, drain] = p;
  (f(kernel_name), f(m), f(first), f(last), f(stream_type), f(trf_type), f(accumulator), f(mode),
   f(ftz_results), f(spatial), f(time), f(packet), f(lanes), f(element), f(cycles), f(op), f(t2),
   f(p2), f(t3), f(p3), f(pack_size), f(time_broadcast), f(read_size), f(wide_read), f(inner_time),
   f(depth), f(group), f(columns), f(cycle_nest), f(spatial_live), f(lane_live), f(cycle_live),
   f(cell_live), f(stream_dense), f(trf_dense), f(drain));
}

/// The addresses of one packet cycle.
struct CycleAddress {
  std::uint64_t flit = 0, trf = 0, slot = 0;
};

/// Walks the cycle nest in execution order (outer loop slowest), the way a sequencer's counters
/// do: `advance` steps the innermost counter and carries outward.
class CycleWalker {
public:
  explicit CycleWalker(const std::vector<CycleLoop>& nest);
  std::uint64_t position() const { return position_; }
  const CycleAddress& address() const { return address_; }
  /// Moves to the next cycle; false after the last one.
  bool advance();

private:
  const std::vector<CycleLoop>* nest_;
  std::vector<std::uint64_t> digit_;
  std::uint64_t position_ = 0;
  CycleAddress address_;
};

/// Whether every cycle of `nest` (live or not) addresses the stream `stride` names (a CycleLoop
/// member) below `bound`: its largest address Σ (size − 1) · stride, counted without overflow,
/// is below it. False also when that sum overflows (a stride that wraps, i.e. a stream walked
/// backwards), which a walk over the live cycles decides.
bool all_cycles_below(const std::vector<CycleLoop>& nest, std::uint64_t CycleLoop::*stride,
                      std::uint64_t bound);

/// `tujit compile --emit seq`: the program as text (loop nests as `[size : stride]` lists).
std::string to_text(const ContractionProgram& program);

/// The invariants every engine relies on (E-RUN-102 naming the first broken one, a lowering bug
/// reported instead of an out-of-bounds access): shapes that agree with each other and with the
/// part run, a cycle nest whose sizes multiply to `cycles`, every live packet cycle addressing
/// flits, TRF elements and a Time Reducer slot inside their buffers, liveness tables of their
/// dimension's size, and a Lane Folder that drains accumulator cells that exist.
Status verify(const ContractionProgram& program);

/// A stable 64-bit hash of every field (for_each_field) that an engine's generated code depends
/// on: all of them but the kernel's name and the mappings (reports and the cycle model only),
/// `ftz_results` and the part run included; the object cache key.
std::uint64_t fingerprint(const ContractionProgram& program);

} // namespace tujit::ir::seq
