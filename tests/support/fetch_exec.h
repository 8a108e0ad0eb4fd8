// An interpreter of the data path from DM into the Tensor Unit (docs/datapath.md §4–§6, §8), for
// the tests: tujit composes a fetch into the address streams of the run program that reads it
// (ir/seq/operand_streams.h); this executor walks the fetch on its own over device images, an
// independent check of those streams (fetch_streams_check.h) and of the tests' fetch JIT
// (fetch_jit.h). It executes a FetchProgram (ir/seq/fetch_program.h) on a DM image — the Fetch
// sequencer's nested loops over DM addresses, the Fetch Adapter on every element, Collect's split
// of each packet into 32 B flits — and yields the collected stream image the consumer reads (the
// Contraction Engine's stream, or the source of a to_trf / to_vrf store).
//
// Cell states: a fetched position holds what its DM cell holds (Live / Zero / Top), except where
// the fetched stream's own mapping says the position is padding: then the hardware still reads
// the cell, but its content is not the element the position stands for, so it is Top unless the
// cell really holds a zero (`#{0}` position over a `#{0}` cell). Collect's fill is Top (§8).
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/seq/fetch_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

#include <vector>

namespace tujit::testing {

/// Runs the program on `dm` (the DM parameter's image: spatial × buffer cells; E-RUN-102
/// otherwise). `table` (the file's axes) bounds the fetched stream's coordinates. With `values`
/// false only the cell states are computed and every bit is the stream type's poison pattern (the
/// JIT host fills the values itself). E-RUN-111 when the fetch reads a `#{!}` (never touched) DM
/// cell.
Result<runtime::DeviceImage> run_fetch(const ir::seq::FetchProgram& program,
                                       const runtime::DeviceImage& dm, const ir::AxisTable& table,
                                       bool values = true);

} // namespace tujit::testing
