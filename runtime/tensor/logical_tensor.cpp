#include "runtime/tensor/logical_tensor.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/float_bits.h"
#include "runtime/scalar/widen.h"
#include "runtime/tensor/float_round.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

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
  b.bits.reserve(static_cast<std::size_t>(n));
  // Row-major over the block; `src` follows the same coordinates in t.
  std::vector<std::uint64_t> c(axes.size(), 0);
  for (std::uint64_t k = 0; k < n; ++k) {
    std::uint64_t src = 0;
    for (std::size_t a = 0; a < axes.size(); ++a) src = src * t.axes[a].size + c[a];
    b.bits.push_back(t.bits[src]);
    for (std::size_t a = axes.size(); a-- > 0;) {
      if (++c[a] < axes[a].size) break;
      c[a] = 0;
    }
  }
  return b;
}

Result<LogicalTensor> make_logical_tensor(ir::ScalarType dtype, std::vector<ir::Axis> axes,
                                          std::uint64_t max_elements) {
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
  t.bits.assign(static_cast<std::size_t>(n), 0);
  return t;
}

// ---------------------------------------------------------------------------------------------

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t SplitMix64::below(std::uint64_t n) {
  __extension__ typedef unsigned __int128 U128; // GCC/Clang; exact 64x64→128 multiply
  return static_cast<std::uint64_t>((static_cast<U128>(next()) * n) >> 64);
}

std::uint64_t parameter_seed(std::uint64_t run_seed, std::string_view name) {
  std::uint64_t h = 0xCBF29CE484222325ull; // FNV-1a 64
  for (unsigned char c : name) h = (h ^ c) * 0x100000001B3ull;
  SplitMix64 g(run_seed ^ h);
  return g.next();
}

void fill_random(LogicalTensor& t, std::uint64_t seed) {
  SplitMix64 g(seed);
  if (ir::is_integer(t.dtype)) {
    std::int64_t lo = -(std::int64_t{1} << 20), hi = std::int64_t{1} << 20;
    if (t.dtype != ir::ScalarType::I32) {
      auto r = ir::integer_range(t.dtype);
      lo = r->first;
      hi = r->second;
    }
    const auto span = static_cast<std::uint64_t>(hi - lo + 1);
    for (auto& b : t.bits)
      b = static_cast<std::uint32_t>(lo + static_cast<std::int64_t>(g.below(span)));
    return;
  }
  if (t.dtype == ir::ScalarType::F4E2M1) {
    for (auto& b : t.bits) b = static_cast<std::uint32_t>(g.below(16));
    return;
  }
  for (auto& b : t.bits) {
    // 24 random bits → k in [-2^23, 2^23) → k / 2^23 in [-1, 1), exact in a double.
    auto k = static_cast<std::int64_t>(g.next() >> 40) - (std::int64_t{1} << 23);
    const float v = static_cast<float>(k) / 8388608.0f; // exact: 24 significant bits
    // bf16 / f8e4m3 (|v| < 1, no saturation): the literal RNE encoders equal round_double_to
    // on these exact values and are much cheaper (tensor_float_round_test checks this).
    switch (ir::encoding(t.dtype)) {
    case ir::Encoding::F32:
      b = f32_bits(v);
      break;
    case ir::Encoding::Bf16:
      b = bf16_literal_from_f32(f32_bits(v));
      break;
    case ir::Encoding::F8E4M3:
      b = enc_e4m3(f32_bits(v));
      break;
    case ir::Encoding::F8E5M2:
    case ir::Encoding::TwosComplement: // integers and f4e2m1 were filled above
    case ir::Encoding::Unsigned:
    case ir::Encoding::F4E2M1:
      b = round_double_to(t.dtype, static_cast<double>(v)).bits;
      break;
    }
  }
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

std::uint32_t element_bytes(ir::ScalarType t) {
  return std::max<std::uint32_t>(1, ir::host_staging_bits(t) / 8);
}

std::vector<std::uint8_t> tensor_bytes(const LogicalTensor& t) {
  const std::uint32_t w = element_bytes(t.dtype);
  std::vector<std::uint8_t> out;
  out.reserve(t.bits.size() * w);
  for (std::uint32_t b : t.bits)
    for (std::uint32_t k = 0; k < w; ++k) out.push_back(static_cast<std::uint8_t>(b >> (8 * k)));
  return out;
}

} // namespace tujit::runtime
