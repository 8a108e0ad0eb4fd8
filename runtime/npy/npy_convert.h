// Logical tensors ⇄ .npy arrays (docs/cli.md §6.1 `tujit run --input/--output`).
//
// Reading (npy → parameter type):
// - raw bit patterns, exactly the codes the device holds (no conversion, lossless):
//     f32      <f4, bit for bit (NaN payloads kept)
//     bf16     <u2, the 16-bit codes
//     f8e4m3,  |u1, the 8-bit codes
//     f8e5m2
//     i4,      |u1 with the last dimension halved (rounded up): two elements per byte, the
//     f4e2m1   even-indexed one in the low nibble (docs/scalars.md §2), as the device
//              packs them. An |u1 array of the full logical shape is read as integer values
//              (i4) or as one code 0…15 per element (f4e2m1).
// - f4e2m1 also from <f4 / <f8 values, each exactly one of its sixteen (−0 is code 8); any other
//   value is E-NPY-004 (no rounding to a 16-value set).
// - float values for bf16 / f8 (<f4 or <f8), and <f8 for f32, are rounded by
//   FloatInputRounding: `Nearest` (the default) rounds to nearest, ties to even, directly from
//   the file's value, subnormals kept, NaN → the canonical NaN, and a finite value beyond the
//   type's largest finite value (or ±inf for f8e4m3) is E-NPY-004 naming the element;
//   `Device` rounds to f32 first and then applies the chip's own converter of the scalar
//   reference (narrow_bf16, enc_e4m3, enc_e5m2: flush, saturation, f8e5m2's ties away from zero).
// - integer parameters take |i1 <i2 <i4 <i8 |u1 <u2 data; every value must lie in the type's
//   range (i4 [-8, 7], …), else an error naming the first offending element and the range.
// - the shape must equal the logical shape (axes in `axes!` declaration order), else an error
//   giving both shapes.
// Writing: i32 → <i4, f32 → <f4, i8/i4/i5 → |i1, i16/i9 → <i2, u8 → |u1; bf16 / f8 / f4e2m1 →
// <f4 holding their exact values (reading that back rounds to the same code), or with
// `raw_bits` bf16 → <u2 and f8 / f4e2m1 → |u1 codes (lossless, NaN payloads included).
#pragma once

#include "runtime/npy/npy.h"
#include "runtime/tensor/logical_tensor.h"

#include <string_view>

namespace tujit::runtime {

/// How float values are rounded to bf16 / f8 (see above).
enum class FloatInputRounding : std::uint8_t { Nearest, Device };

struct NpyConvertOptions {
  /// Writing: bf16 as <u2 and f8 as |u1 codes instead of <f4 values.
  bool raw_bits = false;
  FloatInputRounding rounding = FloatInputRounding::Nearest;
};

/// `name` is the parameter's name (for messages). `axes` give the expected logical shape.
Result<LogicalTensor> tensor_from_npy(const NpyArray& a, ir::ScalarType dtype,
                                      std::vector<ir::Axis> axes, std::string_view name,
                                      const NpyConvertOptions& opt = {});

NpyArray npy_from_tensor(const LogicalTensor& t, const NpyConvertOptions& opt = {});

} // namespace tujit::runtime
