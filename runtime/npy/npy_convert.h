// Logical tensors ⇄ .npy arrays (docs/cli.md `tujit run --input/--output`).
//
// Reading (npy → parameter type):
// - float parameters (f32, bf16, f8e4m3, f8e5m2) take <f4 or <f8 data, rounded to the type with
//   round to nearest even directly from the file's value (runtime/tensor/float_round.h, which
//   also records why f8e5m2 uses RNE here rather than the Cast Engine rounding of
//   docs/scalars.md §4.3). A finite value beyond the type's largest finite value, or ±inf for
//   f8e4m3 (which has no infinity), is an error naming the element. NaN → the canonical NaN. bf16
//   may also be given as raw bits in <u2, only when `bf16_raw_bits` is set.
// - integer parameters take |i1 <i2 <i4 <i8 |u1 <u2 data; every value must lie in the type's
//   range (i4 [-8, 7], …), else an error naming the first offending element and the range.
// - the shape must equal the logical shape (axes in `axes!` declaration order), else an error
//   giving both shapes.
// Writing: i32 → <i4, f32 → <f4, i8/i4/i5 → |i1, i16/i9 → <i2, u8 → |u1; bf16 / f8 / f4e2m1 →
// <f4 holding their exact values (reading that back rounds to the same code), or bf16 → <u2
// raw bits with `bf16_raw_bits`.
#pragma once

#include "runtime/npy/npy.h"
#include "runtime/tensor/logical_tensor.h"

#include <string_view>

namespace tujit::runtime {

struct NpyConvertOptions {
  bool bf16_raw_bits = false;
};

/// `name` is the parameter's name (for messages). `axes` give the expected logical shape.
Result<LogicalTensor> tensor_from_npy(const NpyArray& a, ir::ScalarType dtype,
                                      std::vector<ir::Axis> axes, std::string_view name,
                                      const NpyConvertOptions& opt = {});

NpyArray npy_from_tensor(const LogicalTensor& t, const NpyConvertOptions& opt = {});

} // namespace tujit::runtime
