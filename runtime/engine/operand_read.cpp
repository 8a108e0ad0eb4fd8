#include "runtime/engine/operand_read.h"

#include "runtime/scalar/fetch_adapter.h"

namespace tujit::runtime {

std::uint32_t adapt_element(const ir::seq::OperandStreams& o, ir::ScalarType source,
                            std::uint32_t bits) {
  return fetch_adapter_bits(source, o.adapter.lookup_to, o.adapter.cast_to, o.adapter.zero_point,
                            bits);
}

std::uint32_t read_operand(const ir::seq::OperandStreams& o, const LogicalTensor& t,
                           std::uint64_t offset) {
  return adapt_element(o, t.dtype, t.get(offset));
}

} // namespace tujit::runtime
