// The one host function generated code calls for the Vector Engine: the correctly rounded
// transcendental ops (Exp, NegExp, Tanh, Erf, Log, Sin, Cos), whose binary32 result needs a
// 332-bit evaluation on the rare inputs where the float64 one cannot decide it
// (runtime/vector/ve_scalar.h correctly_rounded_bits). Generated code names it by symbol, never by
// address, so a cached object stays valid; every JIT session defines the symbol
// (codegen/native_compiler.cpp). Every other op is emitted inline (codegen/vector_chain_emit.h).
#pragma once

#include <cstdint>

namespace tujit::codegen {

inline constexpr const char* kTranscendentalSymbol = "tujit_ve_transcendental";

} // namespace tujit::codegen

/// correctly_rounded_bits(static_cast<ir::FpUnaryOp>(op), x), with a C name and signature.
extern "C" std::uint32_t tujit_ve_transcendental(std::uint32_t op, std::uint32_t x);
