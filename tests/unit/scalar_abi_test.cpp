// The C-ABI entry points for the JIT run the same algorithms as the constexpr functions: checked
// on the spec's vectors (scalars.md §8) and on all codes of the 8/16-bit decoders.
#include "runtime/scalar/bf16.h"
#include "runtime/scalar/f4e2m1.h"
#include "runtime/scalar/f8.h"
#include "runtime/scalar/fixed_point.h"
#include "runtime/scalar/scalar_abi.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>

using namespace tujit::runtime;

TEST_CASE("scalar C ABI: spec vectors and every decoder code", "[scalar]") {
  CHECK(tujit_narrow_bf16(0x3F818000u) == 0x3F82);           // §8 #3
  CHECK(tujit_relu_narrow_bf16(0xFFC00000u) == 0x7FC0);      // §8 #92
  CHECK(tujit_bf16_literal_from_f32(0x7FA00001u) == 0x7FE0); // §8 #20
  CHECK(tujit_enc_e4m3(0x3F980000u) == 0x3A);                // §8 #43
  CHECK(tujit_enc_e5m2(0x38600000u) == 0x03);                // §8 #63
  CHECK(tujit_fxp_to_f32(16777219, 31) == 0x4B800002u);      // §8 #96
  CHECK(tujit_f32_to_fxp(0xC0200000u, 31) == -3);            // §8 #98
  for (unsigned c = 0; c < 256; ++c) {
    auto b = static_cast<std::uint8_t>(c);
    CHECK(tujit_dec_e4m3(b) == dec_e4m3(b));
    CHECK(tujit_dec_e5m2(b) == dec_e5m2(b));
    CHECK(tujit_dec_e2m1(b) == dec_e2m1(b));
  }
  for (unsigned h = 0; h < 65536; h += 7) {
    auto v = static_cast<std::uint16_t>(h);
    CHECK(tujit_widen_bf16(v) == widen_bf16(v));
    CHECK(tujit_bf16_literal_to_f32(v) == bf16_literal_to_f32(v));
  }
  std::set<std::string> names;
  for (const ScalarAbiSymbol& s : scalar_abi_symbols()) {
    CHECK(s.address != nullptr);
    names.insert(std::string(s.name));
  }
  CHECK(names.size() == 12);
}
