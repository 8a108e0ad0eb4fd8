#include "runtime/tensor/logical_tensor.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/widen.h"
#include "runtime/tensor/float_round.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <set>
#include <thread>

#include <sys/mman.h>

namespace tujit::runtime {

std::vector<std::uint64_t> LogicalTensor::shape() const {
  std::vector<std::uint64_t> s;
  s.reserve(axes.size());
  for (const auto& a : axes) s.push_back(a.size);
  return s;
}

std::uint64_t LogicalTensor::offset(const ir::Index& ix) const {
  std::uint64_t off = 0;
  for (const auto& a : axes) {
    auto it = ix.find(a.name);
    off = off * a.size + (it == ix.end() ? 0 : it->second);
  }
  return off;
}

ir::Index LogicalTensor::index(std::uint64_t off) const {
  ir::Index ix;
  for (std::size_t k = axes.size(); k-- > 0;) {
    ix[axes[k].name] = off % axes[k].size;
    off /= axes[k].size;
  }
  return ix;
}

std::string LogicalTensor::coordinate_text(std::uint64_t off) const {
  std::vector<std::uint64_t> coord(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {
    coord[k] = off % axes[k].size;
    off /= axes[k].size;
  }
  std::string s;
  for (std::size_t k = 0; k < axes.size(); ++k)
    s += fmt::format("{}{}={}", k ? ", " : "", axes[k].name, coord[k]);
  return s.empty() ? "(scalar)" : s;
}

std::vector<ir::Axis> tensor_axes(const ir::TensorType& type, const ir::AxisTable& table) {
  std::set<std::string> used;
  for (const auto& arg : ir::tensor_args(type.kind)) {
    if (arg.kind != ir::TensorArg::Kind::Mapping) continue;
    for (const auto& a : type.mapping(arg.slot).axes()) used.insert(a.name);
  }
  std::vector<ir::Axis> out;
  for (const auto& a : table.axes())
    if (used.count(a.name) != 0) out.push_back(a);
  return out;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) s += fmt::format("{}{}", k ? ", " : "", shape[k]);
  return s + "]";
}

std::string axes_text(const std::vector<ir::Axis>& axes) {
  std::string text;
  for (const auto& a : axes)
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", a.name, a.size);
  return "[" + text + "]";
}

LogicalTensor leading_block(const LogicalTensor& t, const std::vector<ir::Axis>& axes) {
  LogicalTensor b;
  b.dtype = t.dtype;
  b.axes = axes;
  std::uint64_t n = 1;
  for (const auto& a : axes) n *= a.size;
  const std::uint32_t w = element_bytes(t.dtype);
  b.data.resize(static_cast<std::size_t>(n * w));
  // Row-major over the block; `src` follows the same coordinates in t.
  std::vector<std::uint64_t> c(axes.size(), 0);
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint64_t src = 0;
    for (std::size_t a = 0; a < axes.size(); ++a) src = src * t.axes[a].size + c[a];
    std::memcpy(b.data.data() + k * w, t.data.data() + src * w, w);
    for (std::size_t a = axes.size(); a-- > 0;) {
      if (++c[a] < axes[a].size) break;
      c[a] = 0;
    }
  }
  return b;
}

Result<LogicalTensor> make_logical_tensor(ir::ScalarType dtype, std::vector<ir::Axis> axes,
                                          std::uint64_t max_elements, TensorInit init) {
  std::uint64_t n = 1;
  std::vector<std::uint64_t> shape;
  for (const auto& a : axes) {
    shape.push_back(a.size);
    if (a.size != 0 && n > std::numeric_limits<std::uint64_t>::max() / a.size) n = 0;
    n = n == 0 ? 0 : n * a.size;
    if (n == 0 && a.size != 0)
      return make_error(
          "E-RUN-001",
          fmt::format("a tensor of shape {} has too many elements to count", shape_text(shape)));
  }
  if (n > max_elements)
    return make_error("E-RUN-001",
                      fmt::format("a tensor of shape {} has {} elements, more than the limit of {}",
                                  shape_text(shape), n, max_elements));
  LogicalTensor t;
  t.dtype = dtype;
  t.axes = std::move(axes);
  t.data.resize(static_cast<std::size_t>(n * element_bytes(dtype)));
  if (init == TensorInit::Zero) std::fill(t.data.begin(), t.data.end(), std::uint8_t{0});
  return t;
}

void* allocate_tensor_memory(std::size_t bytes) {
  if (bytes < kHugeBlockBytes) return ::operator new(bytes);
  const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = ::operator new (rounded, std::align_val_t{kHugePageBytes});
  // Advice only: where huge pages are off or unavailable the memory is ordinary.
  (void)::madvise(p, rounded, MADV_HUGEPAGE);
  return p;
}

void release_tensor_memory(void* p, std::size_t bytes) noexcept {
  if (bytes < kHugeBlockBytes)
    ::operator delete(p);
  else
    ::operator delete (p, std::align_val_t{kHugePageBytes});
}

double element_value(ir::ScalarType t, std::uint32_t bits) {
  switch (ir::encoding(t)) {
  case ir::Encoding::TwosComplement:
  case ir::Encoding::Unsigned:
    return static_cast<double>(element_integer(t, bits));
  case ir::Encoding::Bf16: // the literal form: a stored subnormal is its value
    return static_cast<double>(
        f32_from_bits(bf16_literal_to_f32(static_cast<std::uint16_t>(bits))));
  case ir::Encoding::F8E4M3:
  case ir::Encoding::F8E5M2:
  case ir::Encoding::F4E2M1:
  case ir::Encoding::F32:
    return static_cast<double>(f32_from_bits(widen_bits(t, bits)));
  }
  return 0.0;
}

std::int64_t element_integer(ir::ScalarType t, std::uint32_t bits) {
  if (ir::is_float(t)) return 0;
  if (t == ir::ScalarType::U8) return static_cast<std::int64_t>(bits & 0xFFu);
  return static_cast<std::int64_t>(static_cast<std::int32_t>(bits));
}

std::vector<std::uint8_t> tensor_bytes(const LogicalTensor& t) {
  return {t.data.begin(), t.data.end()};
}

} // namespace tujit::runtime
