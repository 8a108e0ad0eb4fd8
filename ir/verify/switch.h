// The Switch Engine (`.switch::<OutSlice, OutTime>(SwitchConfig::…)`, docs/switch.md): it moves a
// fetched stream across slices over the chip's ring of routers, so that Slice and Time change and
// Packet stays. A regular configuration (Broadcast01, Broadcast1, Transpose, InterTranspose,
// TransposedBroadcast1) names how InSlice and InTime split into sub-dimensions
// (slice2/slice1/slice0, time2/time1/time0) and where each lands; the verifier splits the input
// at the configuration's sizes, rebuilds the OutSlice and OutTime the configuration produces and
// compares them with the declared ones, a broadcast slot being any new axis (E-SWITCH;
// docs/errors.md). CustomBroadcast states only `ring_size`; its rules are the book's seven
// constraints (switch_custom.cpp). Every accepted switch is a relabelling: each output cell holds
// the input element with the same coordinates, a broadcast axis repeating it (docs/switch.md §4).
#pragma once

#include "ir/lang/switch_config.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/verify/stage_check.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir {
struct Factor;
struct FactorList;
} // namespace tujit::ir

namespace tujit::ir::verify {

struct SwitchInput {
  SwitchConfig config;
  ScalarType dtype = ScalarType::I8;
  Mapping slice, time, packet; // the fetched stream entering the switch
  Mapping out_slice, out_time; // the declared OutSlice, OutTime
};

struct SwitchDerived {
  SwitchKind kind = SwitchKind::Broadcast1;
  // The sub-dimension sizes (docs/switch.md §2); 1 where the configuration has none.
  std::uint64_t slice2 = 1, slice1 = 1, slice0 = 1;
  std::uint64_t time2 = 1, time1 = 1, time0 = 1;
  std::uint64_t ring_size = 1; // slices of one sub-ring
  std::uint64_t sub_rings = 1; // switch_ring_slices / ring_size
  // Cycles (docs/switch.md §5): ring_size · |InTime| · flits_per_packet.
  std::uint64_t time_size = 1;
  std::uint64_t packet_bytes = 0;
  std::uint64_t flits_per_packet = 1;
  std::uint64_t cycles = 0;
  /// Keys: config, slice2, slice1, slice0, time2, time1, time0 (the ones the configuration has),
  /// ring_size, sub_rings, time_size, packet_bytes, flits_per_packet, cycles.
  DerivedTable to_table() const;
};

/// Rules, first failure wins (docs/switch.md §3): E-SWITCH-001 a zero size, E-SWITCH-003
/// |InSlice| ≠ |OutSlice|, E-SWITCH-004 InSlice does not split at slice1 · slice0 (InterTranspose:
/// not all 256 slices), E-SWITCH-002 slice2 / slice1 / slice0 not a power of two, E-SWITCH-005
/// InTime does not split at the configuration's time sizes, E-SWITCH-006 a kept slot of OutSlice
/// is not the configuration's, E-SWITCH-008 a broadcast slot carries an axis of the input,
/// E-SWITCH-007 OutTime is not the configuration's;
/// CustomBroadcast: E-SWITCH-009 … 017.
Result<SwitchDerived> verify_switch(const SwitchInput& in);

/// The book's cycle estimate: `ring_size · time_size · flits_per_packet`.
std::uint64_t switch_cycles(std::uint64_t ring_size, std::uint64_t time_size,
                            std::uint64_t flits_per_packet);

/// Flits of one packet on the ring: ⌈bytes / 32⌉, at least one.
std::uint64_t switch_flits_per_packet(ScalarType dtype, std::uint64_t packet_size);

namespace detail {
/// Every padding kind as top padding, normalised: what a padded position holds is never read
/// through the switch (only collect follows it), so layouts compare by which position holds
/// which element.
FactorList any_padding(const FactorList& l);
/// The index of the first Term of `in` whose digits overlap those of the Term `f` on the same
/// axis (an axis of the input that `f` carries), or nullopt.
std::optional<std::size_t> overlapping(const Factor& f, const FactorList& in);
bool overlaps(const Factor& f, const FactorList& in);
/// CustomBroadcast's rules (switch_custom.cpp); fills ring_size.
Status verify_custom_broadcast(const SwitchInput& in, SwitchDerived& d);
/// A diagnostic of the switch stage.
Diagnostic switch_error(std::string code, std::string rule, std::string message,
                        std::vector<std::string> notes = {});
} // namespace detail

} // namespace tujit::ir::verify
