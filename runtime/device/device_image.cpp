#include "runtime/device/device_image.h"

namespace tujit::runtime {

std::uint32_t poison_bits(ir::ScalarType t) {
  using ir::ScalarType;
  switch (t) {
  case ScalarType::F32:
    return 0x7FA0DEADu; // quiet NaN, payload "DEAD"
  case ScalarType::BF16:
    return 0x7FDEu; // bf16 NaN
  case ScalarType::F8E4M3:
    return 0x7Fu; // the only e4m3 NaN code
  case ScalarType::F8E5M2:
    return 0x7Fu; // an e5m2 NaN code
  default:
    return 0x5A5A5A5Au; // integers: a marked pattern (wrapped on use)
  }
}

DeviceImage::DeviceImage(ir::ScalarType t, std::uint64_t s, std::uint64_t o, std::uint64_t i)
    : dtype(t), spatial(s), outer(o), inner(i), bits(s * o * i, 0),
      state(s * o * i, CellState::Bottom) {}

} // namespace tujit::runtime
