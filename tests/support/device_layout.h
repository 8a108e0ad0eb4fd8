// Device images of logical tensors, for the tests' stage-by-stage executors (stage_oracle.h, the
// fetch interpreter and JIT, the register-file stores): a tensor laid out by its type
// (runtime/layout/layout.h layout_cells), an output image read back, the layout's coverage, and the
// first difference of two images. tujit itself never materialises a device image: its engines read
// the logical tensors through the run program's address streams (docs/design.md §3).
//
// Laying out: a live cell copies the element's bits; a `#{0}` cell holds 0 (CellState::Zero), a `#`
// cell the poison bits (Top), a `#{!}` cell nothing (Bottom) — docs/design.md §5.4: Top padding is
// filled with a poison value, zero padding with zero, bottom padding is never touched.
#pragma once

#include "ir/lang/types.h"
#include "ir/support/diagnostic.h"
#include "runtime/device/device_image.h"
#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::testing {

/// The device image of a logical tensor laid out by `type` (dtype = the tensor's dtype, which
/// must equal type.dtype, else E-RUN-004).
Result<runtime::DeviceImage> to_device(const runtime::LogicalTensor& t, const ir::TensorType& type,
                                       std::uint64_t max_cells = runtime::kDefaultMaxElements);

/// Reads an output image back (ContractTensor: Time = T3, Packet = P3; TrfTensor / VrfTensor for
/// store kernels). Every logical element of the tensor over tensor_axes(type) must be held by
/// at least one live cell, and cells holding the same element must hold identical bits; else
/// E-RUN-005 naming the coordinate (and the cells). Image shape / dtype mismatch: E-RUN-004.
/// The cell states of the image are not consulted (poison is the engine's report).
Result<runtime::LogicalTensor> from_device(const runtime::DeviceImage& image,
                                           const ir::TensorType& type, const ir::AxisTable& table,
                                           std::uint64_t max_cells = runtime::kDefaultMaxElements);

/// from_device, except that an output holding only part of an axis is read back over the held
/// coordinates (runtime/layout/held_readback.h) instead of failing.
Result<runtime::LogicalTensor>
from_device_held(const runtime::DeviceImage& image, const ir::TensorType& type,
                 const ir::AxisTable& table,
                 std::uint64_t max_cells = runtime::kDefaultMaxElements);

/// Elements of the logical tensor over `axes` that no live cell of `type` holds (0 when the
/// layout covers the tensor), and the first such coordinate.
struct LayoutCoverage {
  std::uint64_t unreached = 0;
  std::string first_unreached; // "M=1, N=0"
};
Result<LayoutCoverage> layout_coverage(const ir::TensorType& type,
                                       const std::vector<ir::Axis>& axes,
                                       std::uint64_t max_cells = runtime::kDefaultMaxElements);

/// Empty when the images are identical (type, shape, every cell's bits and state); else a
/// sentence naming the first differing cell as "<what> cell (slice S, <outer> o, <inner> i)"
/// with both values in hex.
std::optional<std::string> first_image_difference(const runtime::DeviceImage& x,
                                                  const runtime::DeviceImage& y,
                                                  std::string_view what = "output",
                                                  std::string_view outer = "T3",
                                                  std::string_view inner = "P3");

} // namespace tujit::testing
