#include "runtime/device/device_image.h"

namespace tujit::runtime {

std::uint32_t poison_bits(ir::ScalarType t) {
  switch (ir::encoding(t)) {
  case ir::Encoding::F32:
    return 0x7FA0DEADu; // quiet NaN, payload "DEAD"
  case ir::Encoding::Bf16:
    return 0x7FDEu; // bf16 NaN
  case ir::Encoding::F8E4M3:
    return 0x7Fu; // the only e4m3 NaN code
  case ir::Encoding::F8E5M2:
    return 0x7Fu; // an e5m2 NaN code
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
  case ir::Encoding::F4E2M1: // no NaN code: a marked pattern, as for the integers
    return 0x5A5A5A5Au;      // wrapped on use
  }
  return 0x5A5A5A5Au;
}

DeviceImage::DeviceImage(ir::ScalarType t, std::uint64_t s, std::uint64_t o, std::uint64_t i)
    : dtype(t), spatial(s), outer(o), inner(i), bits(s * o * i, 0),
      state(s * o * i, CellState::Bottom) {}

} // namespace tujit::runtime
