#include "tests/support/adversarial_dm.h"

#include "runtime/layout/layout.h"
#include "runtime/tensor/logical_tensor.h"
#include "runtime/tensor/random_fill.h"

#include <iterator>

namespace tujit::testing {

std::uint32_t adversarial_code(ir::ScalarType t, std::uint64_t r) {
  const unsigned kind = static_cast<unsigned>(r % 4);
  if (ir::is_integer(t)) {
    const auto range = *ir::integer_range(t);
    const auto span = static_cast<std::uint64_t>(range.second - range.first);
    const std::int64_t x = kind == 0   ? range.first
                           : kind == 1 ? range.second
                                       : range.first + static_cast<std::int64_t>((r >> 8) % span);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(x));
  }
  // Zeros of both signs, infinities, quiet and signalling NaNs with payloads, the smallest and
  // largest subnormals and normals, and values whose bf16 rounding carries into the exponent.
  static constexpr std::uint32_t kF32Specials[] = {
      0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001,
      0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x7F7F8000, 0x3F808000, 0x3F818000};
  const auto v = static_cast<std::uint32_t>(r >> 16);
  switch (ir::encoding(t)) {
  case ir::Encoding::F32:
    return kind == 0 ? kF32Specials[(r >> 8) % std::size(kF32Specials)] : v;
  case ir::Encoding::Bf16:
    return v & 0xFFFFu;
  case ir::Encoding::F4E2M1:
    return v & 0xFu;
  case ir::Encoding::F8E4M3:
  case ir::Encoding::F8E5M2:
  case ir::Encoding::TwosComplement: // integers never reach here (handled above)
  case ir::Encoding::Unsigned:
    return v & 0xFFu;
  }
  return v;
}

Result<runtime::DeviceImage> adversarial_dm_image(const ir::TensorType& type,
                                                  const ir::AxisTable& axes, std::uint64_t seed) {
  auto cells = runtime::layout_cells(type, runtime::tensor_axes(type, axes));
  if (!cells) return std::move(cells).take_diagnostics();
  runtime::DeviceImage dm(type.dtype, cells->plan.spatial.size, cells->plan.outer.size,
                          cells->plan.inner.size);
  const std::uint32_t poison = runtime::poison_bits(type.dtype);
  for (std::uint64_t k = 0; k < dm.cells(); ++k) {
    dm.state[k] = cells->state[k];
    const std::uint64_t r =
        runtime::SplitMix64(seed ^ (cells->offset[k] * 0x9E3779B97F4A7C15ull)).next();
    dm.bits[k] = dm.state[k] == runtime::CellState::Live  ? adversarial_code(type.dtype, r)
                 : dm.state[k] == runtime::CellState::Top ? poison
                                                          : 0u;
  }
  return dm;
}

} // namespace tujit::testing
