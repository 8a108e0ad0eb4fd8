// Logical tensors: a kernel parameter's (or output's) contents independent of any device layout
// (docs/cli.md §6). Axes are the `axes!` axes the
// parameter's mappings name, in declaration order; elements are in C (row-major) order over
// them. Element bits use the 32-bit container of runtime/device/device_image.h (integers
// sign-extended, u8 zero-extended, bf16 / f8 codes in the low bits, f32 bits), so a layout
// moves bits between the two forms without converting anything.
#pragma once

#include "ir/lang/types.h"
#include "ir/mapping/mapping.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::runtime {

/// The default cap on the element count of one logical tensor (inputs, outputs, npy files):
/// 2^28 elements = 1 GiB of 32-bit containers. Callers may pass another limit.
inline constexpr std::uint64_t kDefaultMaxElements = std::uint64_t{1} << 28;

struct LogicalTensor {
  ir::ScalarType dtype = ir::ScalarType::F32;
  std::vector<ir::Axis> axes; // declaration order of `axes!`
  std::vector<std::uint32_t> bits;

  std::vector<std::uint64_t> shape() const;
  std::uint64_t elements() const { return bits.size(); }
  /// Row-major offset of a finalized index (axes absent from `ix` are at 0). The caller
  /// guarantees every coordinate is in range and every axis of `ix` is one of `axes`.
  std::uint64_t offset(const ir::Index& ix) const;
  /// The coordinates of element `offset`, e.g. "M=3, N=5" (for diagnostics).
  std::string coordinate_text(std::uint64_t offset) const;
};

/// The axes a tensor type's mappings name (every slot of its kind), in the declaration order of
/// `table` (docs/cli.md §6).
std::vector<ir::Axis> tensor_axes(const ir::TensorType& type, const ir::AxisTable& table);

/// A zero-filled tensor, or an E-RUN-001 diagnostic when the element count overflows or
/// exceeds `max_elements`.
Result<LogicalTensor> make_logical_tensor(ir::ScalarType dtype, std::vector<ir::Axis> axes,
                                          std::uint64_t max_elements = kDefaultMaxElements);

/// The leading block of `t` over `axes` (the same axis names in the same order, each at most as
/// large as t's): the elements whose every coordinate lies below the block's size — the tile a
/// kernel that holds the first coordinates of an axis reads (harness/cli/run_input_axes.h).
LogicalTensor leading_block(const LogicalTensor& t, const std::vector<ir::Axis>& axes);

/// "[32, 8]" / "[]" (for diagnostics).
std::string shape_text(const std::vector<std::uint64_t>& shape);

/// "[M=32, K=64]" / "[]" (for diagnostics).
std::string axes_text(const std::vector<ir::Axis>& axes);

// ---------------------------------------------------------------------------------------------
// Seeded random contents
// ---------------------------------------------------------------------------------------------

/// splitmix64 (Steele, Lea, Flood 2014): a tiny generator whose output is fixed by its
/// definition, so seeded inputs are identical on every platform and compiler (std::
/// distributions are implementation-defined).
class SplitMix64 {
public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// Uniform in [0, n) (n >= 1) by 128-bit multiply-shift; deterministic.
  std::uint64_t below(std::uint64_t n);

private:
  std::uint64_t state_;
};

/// The seed of one named parameter: mixes the run seed with the FNV-1a hash of the name, so
/// parameters get independent streams and adding a parameter does not change the others.
std::uint64_t parameter_seed(std::uint64_t run_seed, std::string_view name);

/// Fills `t` with deterministic values for its dtype:
/// - integers: uniform over the whole type range for i4 i5 i8 i9 u8 i16; i32 in [-2^20, 2^20]
///   (integer contractions wrap exactly, so any range is meaningful);
/// - floats: uniform in [-1, 1) at 2^-23 resolution, rounded to the type with round to nearest
///   even (f8e5m2 included: see runtime/npy/npy_convert.h), never NaN or infinite. Values of
///   both signs of similar magnitude make sums cancel partially, so the f32 tolerance of
///   docs/contraction.md §9.5 is exercised without overflow.
void fill_random(LogicalTensor& t, std::uint64_t seed);

// ---------------------------------------------------------------------------------------------
// Element access
// ---------------------------------------------------------------------------------------------

/// The exact value of one element as a double: integers as themselves; f32 from its bits;
/// bf16 / f8 by their literal decode (subnormals kept, no flush). NaN for NaN codes.
double element_value(ir::ScalarType t, std::uint32_t bits);

/// Integer elements as int64 (sign-extended container); 0 for floats.
std::int64_t element_integer(ir::ScalarType t, std::uint32_t bits);

/// The little-endian byte image of the tensor in logical order (docs/cli.md sha256): i8 / u8 /
/// f8 one byte, i16 / bf16 two, i32 / f32 four; the staging / nibble types use their host
/// container (i4, i5, f4e2m1: one byte; i9: two bytes), as written to .npy.
std::vector<std::uint8_t> tensor_bytes(const LogicalTensor& t);
/// Bytes per element in tensor_bytes().
std::uint32_t element_bytes(ir::ScalarType t);

} // namespace tujit::runtime
