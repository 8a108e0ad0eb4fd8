// C-ABI wrappers around the constexpr conversions (see scalar_abi.h).
#include "runtime/scalar/scalar_abi.h"

#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/fixed_point.h"

#include <array>

extern "C" {
std::uint16_t tujit_narrow_bf16(std::uint32_t x) {
  return tujit::runtime::narrow_bf16(x);
}
std::uint32_t tujit_widen_bf16(std::uint16_t h) {
  return tujit::runtime::widen_bf16(h);
}
std::uint16_t tujit_relu_narrow_bf16(std::uint32_t x) {
  return tujit::runtime::relu_narrow_bf16(x);
}
std::uint16_t tujit_bf16_literal_from_f32(std::uint32_t x) {
  return tujit::runtime::bf16_literal_from_f32(x);
}
std::uint32_t tujit_bf16_literal_to_f32(std::uint16_t h) {
  return tujit::runtime::bf16_literal_to_f32(h);
}
std::uint8_t tujit_enc_e4m3(std::uint32_t x) {
  return tujit::runtime::enc_e4m3(x);
}
std::uint32_t tujit_dec_e4m3(std::uint8_t c) {
  return tujit::runtime::dec_e4m3(c);
}
std::uint8_t tujit_enc_e5m2(std::uint32_t x) {
  return tujit::runtime::enc_e5m2(x);
}
std::uint32_t tujit_dec_e5m2(std::uint8_t c) {
  return tujit::runtime::dec_e5m2(c);
}
std::uint32_t tujit_dec_e2m1(std::uint8_t c) {
  return tujit::runtime::dec_e2m1(c);
}
std::uint32_t tujit_fxp_to_f32(std::int32_t v, std::uint32_t iw) {
  return tujit::runtime::fxp_to_f32(v, iw);
}
std::int32_t tujit_f32_to_fxp(std::uint32_t x, std::uint32_t iw) {
  return tujit::runtime::f32_to_fxp(x, iw);
}
}

namespace tujit::runtime {

std::span<const ScalarAbiSymbol> scalar_abi_symbols() {
  static const std::array<ScalarAbiSymbol, 12> kSymbols = {{
      {"tujit_narrow_bf16", reinterpret_cast<void*>(&tujit_narrow_bf16)},
      {"tujit_widen_bf16", reinterpret_cast<void*>(&tujit_widen_bf16)},
      {"tujit_relu_narrow_bf16", reinterpret_cast<void*>(&tujit_relu_narrow_bf16)},
      {"tujit_bf16_literal_from_f32", reinterpret_cast<void*>(&tujit_bf16_literal_from_f32)},
      {"tujit_bf16_literal_to_f32", reinterpret_cast<void*>(&tujit_bf16_literal_to_f32)},
      {"tujit_enc_e4m3", reinterpret_cast<void*>(&tujit_enc_e4m3)},
      {"tujit_dec_e4m3", reinterpret_cast<void*>(&tujit_dec_e4m3)},
      {"tujit_enc_e5m2", reinterpret_cast<void*>(&tujit_enc_e5m2)},
      {"tujit_dec_e5m2", reinterpret_cast<void*>(&tujit_dec_e5m2)},
      {"tujit_dec_e2m1", reinterpret_cast<void*>(&tujit_dec_e2m1)},
      {"tujit_fxp_to_f32", reinterpret_cast<void*>(&tujit_fxp_to_f32)},
      {"tujit_f32_to_fxp", reinterpret_cast<void*>(&tujit_f32_to_fxp)},
  }};
  return kSymbols;
}

} // namespace tujit::runtime
