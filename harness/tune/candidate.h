// One point of `tujit tune`'s search space (docs/tune.md §2): where every digit of every axis goes,
// and the orders and modes the mappings leave free. A Choice is a few hundred bytes of sizes and
// permutations; build_chain() turns it into the typed mappings of a contraction chain
// (ir::seq::ChainMappings: exactly what the verifiers and the lowering read, no text), and
// kernel_text() into a spec file `tujit check` / `tujit run` read back.
//
// Canonical digit order. Each axis is cut into at most five digits, outer → inner: Cluster, Slice,
// Lane (column axes only), Time (for a column axis: the time broadcast), Packet. Which digit of an
// axis holds which coordinates is a relabelling of that axis: it changes no loop size, stride or
// padding of the per-slice program, so the cycle models cannot tell the variants apart, and only
// this order is generated. Likewise the order of digits inside Cluster, Slice, Lane, the time
// broadcast and the packet (packet: row axes, then batch axes, then contracted axes, so the TRF
// operand's part of the packet is innermost and contiguous, docs/contraction.md §5.2 S1).
#pragma once

#include "harness/tune/problem.h"
#include "ir/mapping/factor.h"
#include "ir/seq/contraction_program.h"
#include "ir/support/diagnostic.h"
#include "ir/types/lane_mode.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tujit::tune {

/// The digit sizes of one axis, outer → inner (their product is the axis size). `time` is the
/// stream's Time digit for stream axes and the time broadcast for column axes.
struct AxisPieces {
  std::uint64_t cluster = 1, slice = 1, lane = 1, time = 1, packet = 1;
  friend bool operator==(const AxisPieces&, const AxisPieces&) = default;
};

struct Choice {
  std::uint64_t index = 0; // position in the search space's enumeration order
  std::array<AxisPieces, kMaxAxes> pieces{};
  /// Stream axes with a Time digit, outer → inner (a permutation).
  std::array<std::uint8_t, kMaxAxes> time_order{};
  std::uint8_t time_count = 0;
  /// The TRF Element's rows: the TRF-axis digits of OutTime (positions in OutTime, outer → inner),
  /// in Element order outer → inner; the TRF's part of the packet follows innermost.
  std::array<std::uint8_t, kMaxAxes> row_order{};
  std::uint8_t row_count = 0;
  std::uint8_t pack_size = 1;
  ir::LaneMode mode = ir::LaneMode::Interleaved;
};

/// The part of a chain the pieces, the Time order and PackSize fix: every mapping but the TRF
/// Element (the row order) and the Lane Folder's OutTime / OutPacket (the LaneMode). The choices
/// of one group share it, so it is built and verified once per group.
struct ChainCore {
  ir::seq::ChainMappings m;     // element, t3, p3 unset
  std::vector<ir::Factor> rows; // OutTime's TRF digits, outer → inner
  ir::FactorList trf_run;       // the TRF operand's part of OutPacket, innermost
  ir::FactorList t2, p2, lane;
};

/// Two choices share a ChainCore when they agree on the pieces, the Time order and PackSize.
bool same_core(const Choice& a, const Choice& b);
/// Two choices of one core share an Element when they agree on the row order.
bool same_element(const Choice& a, const Choice& b);

/// Cells of the live spatial units the kernel occupies (Cluster × Slice digits, padding excluded).
std::uint64_t live_slices(const Problem& p, const Choice& c);

/// The core of `c`'s chain (see build_chain); E-TUNE-010 when no Element order or LaneMode
/// makes it compute the einsum.
Result<ChainCore> build_core(const Problem& p, const Choice& c);
/// The TRF Element of `c`: its rows in `c.row_order`, then the TRF's part of the packet.
ir::Mapping element_of(const ChainCore& core, const Choice& c);
/// The Lane Folder's OutTime and OutPacket (docs/contraction.md §8) into `m`.
void fold_lanes(const ChainCore& core, ir::LaneMode mode, ir::seq::ChainMappings& m);

/// The chain's mappings for `c`. The construction applies the stages' shape rules
/// (docs/contraction.md §3, "Shapes, per slice"): OutTime = [Time / PackSize, time broadcast],
/// OutPacket = [Time % PackSize, Packet], the Packet Reducer sums the contracted cells innermost in
/// OutPacket, the Time Reducer every contracted digit of OutTime, the Lane Folder's OutTime /
/// OutPacket per LaneMode. It does not judge legality (the verifiers do); it refuses with
/// E-TUNE-010 a choice whose chain would not compute the einsum (a contracted digit left in an
/// output, a reduction group holding another axis, an operand missing digits).
Result<ir::seq::ChainMappings> build_chain(const Problem& p, const Choice& c);

/// The chain's mappings by name (reports: JSON "mappings", CSV columns), in chain order.
inline const std::array<std::pair<const char*, ir::Mapping ir::seq::ChainMappings::*>, 13>
    kChainSlots = {{{"chip", &ir::seq::ChainMappings::chip},
                    {"cluster", &ir::seq::ChainMappings::cluster},
                    {"slice", &ir::seq::ChainMappings::slice},
                    {"time", &ir::seq::ChainMappings::time},
                    {"packet", &ir::seq::ChainMappings::packet},
                    {"lane", &ir::seq::ChainMappings::lane},
                    {"element", &ir::seq::ChainMappings::element},
                    {"out_time", &ir::seq::ChainMappings::out_time},
                    {"out_packet", &ir::seq::ChainMappings::out_packet},
                    {"p2", &ir::seq::ChainMappings::p2},
                    {"t2", &ir::seq::ChainMappings::t2},
                    {"t3", &ir::seq::ChainMappings::t3},
                    {"p3", &ir::seq::ChainMappings::p3}}};

/// The kernel's name in emitted specs: "tune_vmk_vnk_vmn".
std::string kernel_name(const Problem& p);

/// A spec file holding the kernel of `m`, with `comment` (lines without `//`) as its header.
std::string kernel_text(const Problem& p, const ir::seq::ChainMappings& m, ir::LaneMode mode,
                        const std::string& comment);

/// The mappings in one line for tables: "Cluster [V / 16] Slice [V % 16, M / 64] Lane [N]
/// Time [M % 64, K / 16] Packet [K % 16] OT [M % 64, K / 32] OP [K % 32] Element [K]".
std::string mapping_summary(const ir::seq::ChainMappings& m);

} // namespace tujit::tune
