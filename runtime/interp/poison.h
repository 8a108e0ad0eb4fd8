// Poison analysis (docs/design.md §5.4: top padding holds arbitrary values): which live output
// cells of a contraction would, on hardware, have depended on the arbitrary content of a Top
// padding cell. It reads only the operands' cell states, never their values, so every engine
// reports the same poison for the same program and images.
#pragma once

#include "ir/seq/contraction_program.h"
#include "runtime/device/device_image.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime {

/// A live output cell that would have depended on Top padding content.
struct PoisonedCell {
  std::uint64_t spatial = 0;  // output spatial position
  std::uint64_t out_time = 0; // position in T3
  std::uint64_t out_lane = 0; // position in P3 (0..7)
  friend bool operator==(const PoisonedCell&, const PoisonedCell&) = default;
};

inline constexpr std::size_t kMaxPoisonReported = 8;

struct PoisonReport {
  std::uint64_t poisoned_outputs = 0;
  std::vector<PoisonedCell> first_poisoned; // at most kMaxPoisonReported, in output order
};

/// A product reads Top content when one operand cell is Top and the other is read by the
/// Multiplier (live or Top); Zero padding is a real zero and Bottom is never read.
inline bool product_poisoned(CellState stream, CellState trf) {
  const bool s_top = stream == CellState::Top, w_top = trf == CellState::Top;
  const bool s_read = stream == CellState::Live || s_top;
  const bool w_read = trf == CellState::Live || w_top;
  return (s_top && w_read) || (w_top && s_read);
}

/// Walks the program's address streams over the images' states (shapes must match the program;
/// run_contraction checks them), padded packet cycles included: the hardware's counters run
/// through them into the slot their address names. A slice whose operands hold no Top cell is
/// skipped outright.
PoisonReport analyze_poison(const ir::seq::ContractionProgram& program, const DeviceImage& stream,
                            const DeviceImage& trf);

/// Products the Multiplier forms with both operand cells live at live positions (live slice,
/// cycle, lane and cell): the `simulated_macs` every engine reports. Closed form when both
/// operands are dense, else a walk of the address streams over the states.
std::uint64_t present_products(const ir::seq::ContractionProgram& program,
                               const DeviceImage& stream, const DeviceImage& trf);

} // namespace tujit::runtime
