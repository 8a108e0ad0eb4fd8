// `tujit cycles --memory PATH.svg`: where the kernel's values live and for how long
// (docs/cycle-model.md §14.2) — one panel per placed memory (DM, TRF, VRF of one slice), time
// across in the trace model's cycles, addresses down, each value a box from its writer's start to
// its last reader's end, in the manner of the book's schedule viewer (furiosa-opt
// docs/src/scheduling/schedule.md, its memory-hierarchy figure). Written as SVG directly: boxes and
// labels need no plotting program. Under the panels, the schedule's tracks (main, sub, tdma, the
// Vector Engine) with each command as a box, as in the same figure.
#pragma once

#include "harness/cycles/kernel_cycles.h"
#include "ir/support/diagnostic.h"

#include <string>

namespace tujit::cycles {

/// The picture as SVG text.
std::string occupancy_svg(const KernelCycles& k);

/// Writes occupancy_svg into `path` (runtime/io/output_file.h: E-IO-002 for an existing file
/// without `overwrite`, E-IO-003 / E-IO-004 when it cannot be written).
Status write_occupancy_svg(const KernelCycles& k, const std::string& path, bool overwrite);

} // namespace tujit::cycles
