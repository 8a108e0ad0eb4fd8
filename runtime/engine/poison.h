// Poison analysis (docs/design.md §5.4): which live output cells of a run would, on hardware, have
// depended on the arbitrary content of a Top padding cell. It reads only the cell states the
// program's address streams give, never values, so it is a static property of the program (an
// analysis of the Sequencer IR, not an engine's): every live slice whose operands have the same
// spatial states has the same poisoned cells, and the analysis walks one slice of each such class.
// Both engines report it (the JIT unless it runs its own poison shadow, codegen/poison_emit.h,
// which `tujit run --verify` compares with it).
#pragma once

#include "ir/seq/run_program.h"
#include "ir/types/cell_state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tujit::runtime {

using CellState = ir::CellState;

/// A live output cell that would have depended on Top padding content.
struct PoisonedCell {
  std::uint64_t spatial = 0;  // output spatial position
  std::uint64_t out_time = 0; // outer position of the output view (T3 of a contraction)
  std::uint64_t out_lane = 0; // inner position (P3 of a contraction: 0..7)
  friend bool operator==(const PoisonedCell&, const PoisonedCell&) = default;
};

inline constexpr std::size_t kMaxPoisonReported = 8;

/// The poisoned set of a run: its size, its first cells and a digest of all of them, so two
/// engines' sets are compared cell for cell without keeping every cell.
struct PoisonReport {
  std::uint64_t poisoned_outputs = 0;
  std::vector<PoisonedCell> first_poisoned; // at most kMaxPoisonReported, in output order
  std::uint64_t digest = 0; // FNV-1a of every poisoned cell in output order (add_poisoned)
  friend bool operator==(const PoisonReport&, const PoisonReport&) = default;
};

/// Adds the next poisoned cell of a run, in output order (slice, then outer, then inner position):
/// the one way every engine builds its report.
void add_poisoned(PoisonReport& report, const PoisonedCell& cell);

/// Empty when `a` and `b` hold the same poisoned set (`tujit run --verify` compares the JIT's
/// shadow with the analysis); else a sentence naming the first difference.
std::optional<std::string> first_poison_difference(const PoisonReport& a, const PoisonReport& b);

/// A product reads Top content when one operand cell is Top and the other is read by the
/// Multiplier (live or Top); Zero padding is a real zero and Bottom is never read.
inline bool product_poisoned(CellState stream, CellState trf) {
  const bool s_top = stream == CellState::Top, w_top = trf == CellState::Top;
  const bool s_read = stream == CellState::Live || s_top;
  const bool w_read = trf == CellState::Live || w_top;
  return (s_top && w_read) || (w_top && s_read);
}

/// Contraction: walks the program's address streams over the operands' states, padded packet
/// cycles included (the hardware's counters run through them into the slot their address names).
/// Move: live output cells whose source cell is Top.
PoisonReport analyze_poison(const ir::seq::RunProgram& program);

/// Contraction: products the Multiplier forms with both operand cells live at live positions
/// (live slice, cycle, lane and cell): the `simulated_macs` every engine reports.
std::uint64_t present_products(const ir::seq::RunProgram& program);

} // namespace tujit::runtime
