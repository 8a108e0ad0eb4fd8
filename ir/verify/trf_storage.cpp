#include "ir/verify/trf_storage.h"

#include "ir/target/rngd.h"

namespace tujit::ir::verify {

TrfStorage trf_storage(ScalarType element) {
  using target::kRngd;
  TrfStorage s;
  s.row_bits = kRngd.trf_row_bits;
  const std::uint32_t bits = wire_bits(element);
  s.stored_type = element;
  s.stored_bits = bits;
  if (element == ScalarType::I4 || element == ScalarType::I5) {
    s.stored_type = ScalarType::I5;
    s.stored_bits = wire_bits(ScalarType::I4) + kRngd.trf_integer_widening_bits;
  } else if (element == ScalarType::I8 || element == ScalarType::I9) {
    s.stored_type = ScalarType::I9;
    s.stored_bits = wire_bits(ScalarType::I8) + kRngd.trf_integer_widening_bits;
  }
  // A row carries one flit's payload (32 B) of the unwidened elements.
  const std::uint32_t payload_bits = kRngd.trf_row_payload_bytes * kRngd.bits_per_byte;
  const std::uint32_t unwidened = s.stored_type == ScalarType::I5   ? wire_bits(ScalarType::I4)
                                  : s.stored_type == ScalarType::I9 ? wire_bits(ScalarType::I8)
                                                                    : bits;
  s.elements_per_row = unwidened == 0 ? 0 : payload_bits / unwidened;
  return s;
}

void add_trf_storage(DerivedTable& t, ScalarType element) {
  const TrfStorage s = trf_storage(element);
  t["row_bits"] = std::uint64_t{s.row_bits};
  t["stored_type"] = std::string(name(s.stored_type));
  t["stored_bits"] = std::uint64_t{s.stored_bits};
  t["elements_per_row"] = s.elements_per_row;
}

} // namespace tujit::ir::verify
