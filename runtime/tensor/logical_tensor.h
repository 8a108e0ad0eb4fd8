// Logical tensors: a kernel parameter's (or output's) contents independent of any device layout
// (docs/cli.md "Inputs and outputs hold the logical tensor"). Axes are the `axes!` axes the
// parameter's mappings name, in declaration order; elements are in C (row-major) order over
// them. Each element is stored at its natural width, little-endian, exactly the bytes of a `.npy`
// file and of the output digest (element_bytes: i8 / u8 / f8 / i4 / i5 / f4e2m1 one byte, i16 /
// bf16 / i9 two, i32 / f32 four; i4 / i5 / i9 sign-extended in their bytes). get() widens one
// element to the 32-bit container the engines and the oracle use (integers sign-extended, u8
// zero-extended, float codes in the low bits), set() stores a container's low bytes.
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::runtime {

/// The default cap on the element count of one logical tensor (inputs, outputs, npy files):
/// 2^28 elements. Callers may pass another limit.
inline constexpr std::uint64_t kDefaultMaxElements = std::uint64_t{1} << 28;

/// Bytes per element in a logical tensor, a `.npy` file and the output digest.
constexpr std::uint32_t element_bytes(ir::ScalarType t) {
  return ir::host_staging_bits(t) < 8 ? 1 : ir::host_staging_bits(t) / 8;
}

/// Tensor memory: blocks of at least kHugeBlockBytes are 2 MiB-aligned and advised to the kernel
/// as transparent huge pages, so that filling a large tensor takes one page fault per 2 MiB, not
/// per 4 KiB (first touches were a quarter of a whole run's time); a worker's 2 MiB stream part
/// (codegen/slice_parts.h) is one such block. Smaller blocks use operator new.
inline constexpr std::size_t kHugeBlockBytes = std::size_t{2} << 20;
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20; // x86-64 huge page
void* allocate_tensor_memory(std::size_t bytes);
void release_tensor_memory(void* p, std::size_t bytes) noexcept;

/// An allocator that leaves new bytes uninitialised: a tensor about to be filled is written once,
/// not zeroed first (the pages are touched by whoever fills them, in parallel).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  using std::allocator<T>::allocator;
  T* allocate(std::size_t n) {
    if (n > std::size_t(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_tensor_memory(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t n) noexcept { release_tensor_memory(p, n * sizeof(T)); }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0)
      ::new (static_cast<void*>(p)) U;
    else
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using TensorBytes = std::vector<std::uint8_t, DefaultInitAllocator<std::uint8_t>>;

struct LogicalTensor {
  ir::ScalarType dtype = ir::ScalarType::F32;
  std::vector<ir::Axis> axes; // declaration order of `axes!`
  TensorBytes data;           // elements() · element_bytes(dtype) bytes

  std::vector<std::uint64_t> shape() const;
  std::uint64_t elements() const { return data.size() / element_bytes(dtype); }
  /// The 32-bit container of element i.
  std::uint32_t get(std::uint64_t i) const;
  /// Stores the low element_bytes(dtype) bytes of `bits` as element i.
  void set(std::uint64_t i, std::uint32_t bits);
  /// Same elements (dtype, axes and bytes).
  friend bool operator==(const LogicalTensor& a, const LogicalTensor& b) {
    return a.dtype == b.dtype && a.axes == b.axes && a.data == b.data;
  }
  /// Row-major offset of a finalized index (axes absent from `ix` are at 0). The caller
  /// guarantees every coordinate is in range and every axis of `ix` is one of `axes`.
  std::uint64_t offset(const ir::Index& ix) const;
  /// The coordinates of element `offset` on every axis (the inverse of offset()).
  ir::Index index(std::uint64_t offset) const;
  /// The coordinates of element `offset`, e.g. "M=3, N=5" (for diagnostics).
  std::string coordinate_text(std::uint64_t offset) const;
};

/// The 32-bit container of an element stored at its natural width at `p`.
inline std::uint32_t load_element(ir::ScalarType t, const std::uint8_t* p) {
  switch (element_bytes(t)) {
  case 1: {
    const std::uint8_t b = *p;
    if (ir::kind(t) == ir::ScalarKind::SignedInteger)
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(b)));
    return b;
  }
  case 2: {
    std::uint16_t h;
    std::memcpy(&h, p, 2);
    if (ir::kind(t) == ir::ScalarKind::SignedInteger)
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int16_t>(h)));
    return h;
  }
  default: {
    std::uint32_t w;
    std::memcpy(&w, p, 4);
    return w;
  }
  }
}

inline std::uint32_t LogicalTensor::get(std::uint64_t i) const {
  return load_element(dtype, data.data() + i * element_bytes(dtype));
}

inline void LogicalTensor::set(std::uint64_t i, std::uint32_t bits) {
  const std::uint32_t w = element_bytes(dtype);
  std::uint8_t* p = data.data() + i * w;
  for (std::uint32_t k = 0; k < w; ++k) p[k] = static_cast<std::uint8_t>(bits >> (8 * k));
}

/// The axes a tensor type's mappings name (every slot of its kind), in the declaration order of
/// `table` (docs/cli.md §6).
std::vector<ir::Axis> tensor_axes(const ir::TensorType& type, const ir::AxisTable& table);

/// A tensor (zero-filled, or left for the caller to fill), or an E-RUN-001 diagnostic when the
/// element count overflows or exceeds `max_elements`.
enum class TensorInit : std::uint8_t { Zero, Uninitialised };
Result<LogicalTensor> make_logical_tensor(ir::ScalarType dtype, std::vector<ir::Axis> axes,
                                          std::uint64_t max_elements = kDefaultMaxElements,
                                          TensorInit init = TensorInit::Zero);

/// The leading block of `t` over `axes` (the same axis names in the same order, each at most as
/// large as t's): the elements whose every coordinate lies below the block's size — the tile a
/// kernel that holds the first coordinates of an axis reads (ir/seq/run_program.h input_tiles).
LogicalTensor leading_block(const LogicalTensor& t, const std::vector<ir::Axis>& axes);

/// "[32, 8]" / "[]" (for diagnostics).
std::string shape_text(const std::vector<std::uint64_t>& shape);

/// "[M=32, K=64]" / "[]" (for diagnostics).
std::string axes_text(const std::vector<ir::Axis>& axes);

// ---------------------------------------------------------------------------------------------
// Element access
// ---------------------------------------------------------------------------------------------

/// The exact value of one element as a double: integers as themselves; f32 from its bits;
/// bf16 / f8 by their literal decode (subnormals kept, no flush). NaN for NaN codes.
double element_value(ir::ScalarType t, std::uint32_t bits);

/// Integer elements as int64 (sign-extended container); 0 for floats.
std::int64_t element_integer(ir::ScalarType t, std::uint32_t bits);

/// The little-endian byte image of the tensor in logical order (docs/cli.md sha256): its data.
std::vector<std::uint8_t> tensor_bytes(const LogicalTensor& t);

} // namespace tujit::runtime
