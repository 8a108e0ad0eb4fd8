#include "runtime/engine/operand_read.h"

#include "runtime/scalar/fetch_adapter.h"

namespace tujit::runtime {

std::uint32_t adapt_element(const ir::seq::OperandStreams& o, ir::ScalarType source,
                            std::uint32_t bits) {
  if (o.adapter.zero_point) return zero_point_sub_bits(source, bits, *o.adapter.zero_point);
  if (o.adapter.cast_to) return fetch_cast_bits(source, *o.adapter.cast_to, bits);
  return bits;
}

std::uint32_t read_operand(const ir::seq::OperandStreams& o, const LogicalTensor& t,
                           std::uint64_t offset) {
  return adapt_element(o, t.dtype, t.get(offset));
}

} // namespace tujit::runtime
