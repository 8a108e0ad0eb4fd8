#include "codegen/stream_widen.h"

#include "runtime/engine/operand_read.h"
#include "runtime/scalar/widen.h"
#include "runtime/tensor/logical_tensor.h"

namespace tujit::codegen {

StreamWiden stream_widen(const ir::seq::OperandStreams& s) {
  if (runtime::element_bytes(s.streams.dtype) == 1) return StreamWiden::Table;
  if (s.streams.dtype == ir::ScalarType::BF16 && s.adapter.identity() &&
      s.type == ir::ScalarType::BF16)
    return StreamWiden::Bf16;
  return StreamWiden::Prewidened;
}

std::uint32_t stream_load_bytes(const ir::seq::OperandStreams& s) {
  switch (stream_widen(s)) {
  case StreamWiden::Table:
    return 1;
  case StreamWiden::Bf16:
    return 2;
  case StreamWiden::Prewidened:
    break;
  }
  return 4;
}

std::uint32_t widened_stream_element(const ir::seq::OperandStreams& s, std::uint32_t bits) {
  return runtime::widen_to_accumulator(s.type, runtime::adapt_element(s, s.streams.dtype, bits));
}

} // namespace tujit::codegen
