// The host function generated code calls (vector_apply.h): on the host side, where the object
// loader's table (object_loader.cpp) and the generated code find it.
#include "codegen/vector_apply.h"

#include "runtime/vector/ve_scalar.h"

extern "C" std::uint32_t tujit_ve_transcendental(std::uint32_t op, std::uint32_t x) {
  return tujit::runtime::vector::correctly_rounded_bits(static_cast<tujit::ir::FpUnaryOp>(op), x);
}
