// Rounding a host double to a device float format with round to nearest, ties to even — the
// conversion `tujit run --input` applies to f32 / f64 .npy data (docs/cli.md §6, docs/scalars.md
// §9.10) and the seeded fill uses.
//
// Choice for f8e5m2: docs/scalars.md §4.3 describes the reference's Cast Engine encoder (ties
// away from zero, subnormal clamp at 3). That is a device conversion; host input is governed by
// docs/cli.md, which says round-to-nearest-even for every float parameter. So inputs use true
// RNE for f8e5m2 too; a value exactly between two e5m2 codes goes to the even code (1.125 →
// 0x3C, not the Cast Engine's 0x3D).
//
// One algorithm serves all four formats, applied directly to the double (never through f32
// first: rounding twice can differ from rounding once). Subnormals of the target are produced
// (the literal form of docs/scalars.md §4.1); the Multiplier's widening flushes them later.
#pragma once

#include "ir/types/scalar_type.h"

#include <cstdint>

namespace tujit::runtime {

struct FloatRounding {
  enum class Status : std::uint8_t {
    Ok,
    Overflow,         // finite input whose rounded magnitude exceeds the largest finite value
    NotRepresentable, // NaN or infinity where the format has none (f8e4m3 has no infinity)
  };
  Status status = Status::Ok;
  std::uint32_t bits = 0; // the code in the low bits (f32: its bits)
};

/// `t` must be F32, BF16, F8E4M3 or F8E5M2. NaN → the canonical NaN (f32 0x7FC00000, bf16
/// 0x7FC0, e5m2 0x7E); ±inf → ±inf for f32 / bf16 / e5m2.
FloatRounding round_double_to(ir::ScalarType t, double x);

/// The largest finite value of a float format (f32 3.4028235e38, bf16 3.3895e38, e4m3 448,
/// e5m2 57344).
double max_finite(ir::ScalarType t);

} // namespace tujit::runtime
