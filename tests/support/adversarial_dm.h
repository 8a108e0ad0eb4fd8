// DM images that stress the data path from DM (docs/datapath.md §4–§8): every Live cell holds a
// code chosen to hit the corners of the Fetch Adapter — integer extremes, NaN payloads, ±inf,
// subnormals, values that round across a binade — instead of a well-behaved random value. Shared
// by the fetch JIT test (tests/unit/jit_fetch_test.cpp) and the fetch fuzz target
// (tests/support/fuzz_properties.h).
#pragma once

#include "ir/lang/kernel.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "runtime/device/device_image.h"

#include <cstdint>

namespace tujit::testing {

/// A raw container of `t` picked by the random word `r`: a quarter of the time an extreme (the
/// integer minimum or maximum, or an f32 special), otherwise a random code of the type.
std::uint32_t adversarial_code(ir::ScalarType t, std::uint64_t r);

/// The image `type` (a DM tensor) lays out over the file's axes, without materialising its logical
/// tensor: each Live cell holds adversarial_code of a hash of (seed, its element), so cells
/// holding one element hold the same bits, as with to_device (device_layout.h); Top cells hold the
/// poison pattern, Zero cells 0. Fails (E-RUN-001…) where the layout does.
Result<runtime::DeviceImage> adversarial_dm_image(const ir::TensorType& type,
                                                  const ir::AxisTable& axes, std::uint64_t seed);

} // namespace tujit::testing
