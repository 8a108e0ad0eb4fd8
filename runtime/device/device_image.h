// Per-slice device images of kernel operands: what the hardware holds in a stream, the TRF or the
// VRF, one element per cell, in device order (runtime/layout/layout.h says which element each
// cell holds). The engines never build one: they read logical tensors through the run program's
// address streams. The tests' stage-by-stage executors run on images
// (tests/support/device_layout.h); poison_bits is what every engine writes where an output cell
// holds Top padding.
//
// Every cell carries its raw bits and a state. Values use one 32-bit container per element:
// integers sign-extended (i4/i5/i8/i9/i16/i32 as int32 bits), u8 zero-extended, bf16 / f8 codes
// in the low bits, f32 / i32 accumulators as their bits. This is the host staging form of
// docs/scalars.md §2 widened to 32 bits, so one code path serves every type.
#pragma once

#include "ir/types/cell_state.h"
#include "ir/types/scalar_type.h"

#include <cstdint>
#include <vector>

namespace tujit::runtime {

/// What a device cell holds (ir/types/cell_state.h).
using CellState = ir::CellState;

/// The poison bits written into Top cells: a quiet NaN with a recognisable payload for floats,
/// a marked pattern for integers. Engines never branch on these values; poison is tracked by
/// CellState, the bits only make an accidental read visible.
std::uint32_t poison_bits(ir::ScalarType t);

/// A cell array over [spatial][outer][inner] (spatial = Chip × Cluster × Slice positions,
/// flattened in that order, padding positions included).
struct DeviceImage {
  ir::ScalarType dtype = ir::ScalarType::I32;
  std::uint64_t spatial = 1; // |Chip|·|Cluster|·|Slice|
  std::uint64_t outer = 1;   // stream: |Time|;   TRF: |Lane|;    VRF: 1;         output: |T3|
  std::uint64_t inner = 1;   // stream: |Packet|; TRF: |Element|; VRF: |Element|; output: |P3| (8)
  std::vector<std::uint32_t> bits;
  std::vector<CellState> state;

  DeviceImage() = default;
  DeviceImage(ir::ScalarType t, std::uint64_t s, std::uint64_t o, std::uint64_t i);
  std::uint64_t index(std::uint64_t s, std::uint64_t o, std::uint64_t i) const {
    return (s * outer + o) * inner + i;
  }
  std::uint64_t cells() const { return spatial * outer * inner; }
};

} // namespace tujit::runtime
