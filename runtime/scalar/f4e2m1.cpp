// Host encoder of f4e2m1 (spec/scalars.md §3.5).
#include "runtime/scalar/f4e2m1.h"

#include "runtime/scalar/float_bits.h"

namespace tujit::runtime {

std::uint8_t enc_e2m1_host(std::uint32_t x) {
  const float v = f32_from_bits(x);
  std::uint8_t best = 0;
  float best_err = f32_from_bits(kF32PosInf);
  for (std::uint8_t code = 0; code < 16; ++code) {
    const float diff = f32_from_bits(dec_e2m1(code)) - v; // one f32 rounding, as the reference
    const float err = diff < 0.0f ? -diff : diff;
    if (err < best_err) { // strict: ties keep the lower code; NaN never wins
      best_err = err;
      best = code;
    }
  }
  return best;
}

} // namespace tujit::runtime
