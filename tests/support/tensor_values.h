// Element containers of a logical tensor as a vector (test comparisons against literal lists).
#pragma once

#include "runtime/tensor/logical_tensor.h"

#include <cstdint>
#include <vector>

namespace tujit::testing {

/// Every element's 32-bit container (runtime::LogicalTensor::get), in logical order.
inline std::vector<std::uint32_t> containers(const runtime::LogicalTensor& t) {
  std::vector<std::uint32_t> v(t.elements());
  for (std::uint64_t i = 0; i < v.size(); ++i) v[i] = t.get(i);
  return v;
}

/// A tensor of `dtype` over `axes` holding the given containers (their low bytes).
inline runtime::LogicalTensor tensor_of(ir::ScalarType dtype, std::vector<ir::Axis> axes,
                                        const std::vector<std::uint32_t>& values) {
  runtime::LogicalTensor t;
  t.dtype = dtype;
  t.axes = std::move(axes);
  t.data.resize(values.size() * runtime::element_bytes(dtype));
  for (std::uint64_t i = 0; i < values.size(); ++i) t.set(i, values[i]);
  return t;
}

} // namespace tujit::testing
