// The Switch Engine as the Sequencer IR holds it (docs/switch.md): the configuration, the sizes its
// verifier derived, and the switch's input and output types. Both engines read a switch composed
// into an operand's address streams (operand_streams.h `switched_operand`); this file also states
// the book's move of each regular configuration, which input (slice, time) the packet at an output
// (slice, time) is, written from the sub-dimension diagrams of the book's page
// (furiosa-opt docs/src/computing-tensors/switch-engine.md) and never from the layouts, so lowering
// can check the relabelling the layouts give against it.
#pragma once

#include "ir/lang/kernel.h"
#include "ir/lang/switch_config.h"
#include "ir/support/diagnostic.h"
#include "ir/verify/checked_kernel.h"

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

namespace tujit::ir::seq {

struct SwitchStep {
  std::size_t stage = 0; // the switch stage (an index into Kernel::stages)
  SwitchKind kind = SwitchKind::Broadcast1;
  /// The sub-dimension sizes (docs/switch.md §2); 1 where the configuration has none.
  std::uint64_t slice2 = 1, slice1 = 1, slice0 = 1;
  std::uint64_t time2 = 1, time1 = 1, time0 = 1;
  std::uint64_t ring_size = 1;
  std::uint64_t cycles = 0; // docs/switch.md §5
  TensorType input;         // the fetched stream entering the switch
  TensorType output;        // the SwitchTensor: Slice and Time relabelled, Packet kept
};
template <class Step, class F>
requires std::same_as<std::remove_const_t<Step>, SwitchStep>
void for_each_field(Step& s, F&& f) {
  auto& [stage, kind, slice2, slice1, slice0, time2, time1, time0, ring_size, cycles, input,
         output] = s;
  (f(stage), f(kind), f(slice2), f(slice1), f(slice0), f(time2), f(time1), f(time0), f(ring_size),
   f(cycles), f(input), f(output));
}

/// The switch stage `index` of `kernel`, with what its verifier derived (E-RUN-102 when the stage
/// did not verify: the checker refuses such a kernel before lowering).
Result<SwitchStep> lower_switch(const verify::CheckedKernel& kernel, std::size_t index);

/// An input position of the switch: a slice of InSlice and a time step of InTime.
struct SwitchSource {
  std::uint64_t slice = 0, time = 0;
  friend bool operator==(const SwitchSource&, const SwitchSource&) = default;
};

/// The book's move of a regular configuration: the input position whose packet the output's
/// slice `slice` (of OutSlice) holds at time step `time` (of OutTime), a broadcast slot repeating
/// it. nullopt for CustomBroadcast, whose move only its layouts state (docs/switch.md §4), or for a
/// position past the configuration's sub-dimensions.
std::optional<SwitchSource> book_source(const SwitchStep& s, std::uint64_t slice,
                                        std::uint64_t time);

/// |OutTime| the configuration's sub-dimensions span (0 for CustomBroadcast).
std::uint64_t book_out_time(const SwitchStep& s);

} // namespace tujit::ir::seq
