// C-ABI entry points of the scalar conversions, for the LLVM code generator: it may either emit
// the same bit manipulations inline (the constexpr functions of this folder are written for
// that) or register these symbols with the ORC JIT and call them. Either way the JIT and the
// interpreter run one algorithm. Every function is pure and takes / returns raw encodings.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

extern "C" {
std::uint16_t tujit_narrow_bf16(std::uint32_t x);
std::uint32_t tujit_widen_bf16(std::uint16_t h);
std::uint16_t tujit_relu_narrow_bf16(std::uint32_t x);
std::uint16_t tujit_bf16_literal_from_f32(std::uint32_t x);
std::uint32_t tujit_bf16_literal_to_f32(std::uint16_t h);
std::uint8_t tujit_enc_e4m3(std::uint32_t x);
std::uint32_t tujit_dec_e4m3(std::uint8_t c);
std::uint8_t tujit_enc_e5m2(std::uint32_t x);
std::uint32_t tujit_dec_e5m2(std::uint8_t c);
std::uint32_t tujit_dec_e2m1(std::uint8_t c);
std::uint32_t tujit_fxp_to_f32(std::int32_t v, std::uint32_t iw);
std::int32_t tujit_f32_to_fxp(std::uint32_t x, std::uint32_t iw);
}

namespace tujit::runtime {

/// One C-ABI symbol: its name and address (for llvm::orc absoluteSymbols).
struct ScalarAbiSymbol {
  std::string_view name;
  void* address;
};

/// Every symbol declared above.
std::span<const ScalarAbiSymbol> scalar_abi_symbols();

} // namespace tujit::runtime
