// The reference interpreter of a sequencer write (ir/seq/write_program.h): the write-mode loops
// over the stream positions, each live position's element stored at its buffer address, padded
// positions dropped, every other buffer cell keeping what it held.
#pragma once

#include "ir/mapping/mapping.h"
#include "ir/seq/write_program.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime {

/// Which stream positions carry data (1) and which are padding the write drops (0), from the
/// stream type's mapping (`table` bounds the coordinates).
Result<std::vector<std::uint8_t>> write_live_positions(const ir::seq::WriteProgram& program,
                                                       const ir::AxisTable& table);

/// `buffer` ([1][1][|Buf|]) after writing `stream` ([1][|Time|][|Packet|]) into it (E-RUN-102 on
/// other shapes).
Result<DeviceImage> run_write(const ir::seq::WriteProgram& program, const DeviceImage& stream,
                              const DeviceImage& buffer, const ir::AxisTable& table);

} // namespace tujit::runtime
