// The cycles of one DMA transfer (`to_dm`, `to_hbm`; docs/cycle-model.md §10, docs/dma.md §4): a
// first-order model from the book's figures, in the two forms every command has — a closed form
// over the transfer's derived counts, and a walk of its runs over the DMNs and the DMA Engines
// that serve them.
#pragma once

#include "ir/verify/dma.h"

#include <cstdint>
#include <string_view>

namespace tujit::cycles {

struct DmaCycles {
  std::uint64_t startup = 0;        // per command, before data moves
  std::uint64_t requests = 0;       // request slots: a partial HBM write counts as its penalty
  std::uint64_t request_cycles = 0; // the busiest engine's request slots, one per cycle
  std::uint64_t dm_cycles = 0;      // the busiest DMN's bytes at its bandwidth
  std::uint64_t hbm_cycles = 0;     // every byte at the chip's HBM bandwidth
  std::uint64_t total = 0;          // startup + the largest of the three
  std::string_view bound;           // "requests", "DM bandwidth" or "HBM bandwidth"
  bool closed_form = false;         // the walk would be too long; the closed form stands in
  std::uint64_t steps = 0;          // runs walked (or that would have been)
};

/// startup + max(⌈requests' / engines⌉, ⌈bytes / (DMNs · 128)⌉, ⌈bytes / 1500⌉), requests'
/// counting each partial HBM write as the read-modify-write penalty.
DmaCycles dma_analytic(const ir::verify::DmaDerived& d);

/// Walks the transfer's runs in destination order: the DM side holds its slices outermost, so
/// the runs fall on the DMNs in equal consecutive blocks, DMN n served by engine n / 2 (one per
/// pair, docs/dma.md §3); each engine issues its runs' request slots one per cycle, each DMN moves
/// its runs' bytes at 128 B per cycle, HBM all of them at its bandwidth; the transfer ends when the
/// last of them does. Past kTraceStepLimit runs the closed form stands in (`closed_form`).
DmaCycles dma_trace(const ir::verify::DmaDerived& d);

} // namespace tujit::cycles
