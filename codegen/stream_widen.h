// How the stream operand of a contraction reaches the accumulator type in generated code, exactly
// as runtime::read_operand + widen_to_accumulator (runtime/engine/operand_read.h,
// runtime/scalar/widen.h) do:
//   Table       one-byte sources (i4, i5, i8, u8, f8e4m3, f8e5m2, with any Fetch Adapter cast or
//               zero point): a 256-entry table of widened values indexed by the byte
//   Bf16        bf16 without an adapter: widen_bf16 in select form (NaN → 0x7FC00000, zero and
//               subnormal → signed zero, else the bits shifted by 16)
//   Prewidened  any other source: the host passes a copy of the tensor already widened to 32-bit
//               accumulator bits (made once per run; the offsets are the tensor's)
#pragma once

#include "ir/seq/run_program.h"

#include <cstdint>

namespace tujit::codegen {

enum class StreamWiden : std::uint8_t { Table, Bf16, Prewidened };
StreamWiden stream_widen(const ir::seq::OperandStreams& stream);
/// Bytes per element of the buffer the generated code reads (4 for Prewidened).
std::uint32_t stream_load_bytes(const ir::seq::OperandStreams& stream);
/// The 32-bit accumulator bits of every element of the stream's tensor (the Prewidened copy).
std::uint32_t widened_stream_element(const ir::seq::OperandStreams& stream, std::uint32_t bits);

} // namespace tujit::codegen
