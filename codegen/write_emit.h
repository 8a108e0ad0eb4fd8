// LLVM IR emission of one WriteProgram (ir/seq/write_program.h: its header comment is the
// semantics, runtime/interp/write_exec.cpp the reference). The program becomes one function,
// kWriteSymbol:
//
//   i32 tujit_write(const u32* stream_bits, const u8* live, u32* buffer_bits)
//
// running the write-mode loop nest (codegen/loop_nest.h) and storing stream_bits[pos] at
// buffer_bits[addr] where live[pos] is 1. Returns kRunOk, or kRunBoundsViolation in checked mode
// when an address would leave the buffer.
#pragma once

#include "codegen/contraction_emit.h"
#include "ir/seq/write_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

inline constexpr const char* kWriteSymbol = "tujit_write";
inline constexpr std::uint32_t kWriteCodegenVersion = 1;

using WriteFn = std::int32_t (*)(const std::uint32_t* stream_bits, const std::uint8_t* live,
                                 std::uint32_t* buffer_bits);

std::unique_ptr<llvm::Module> emit_write_module(const ir::seq::WriteProgram& program, bool checked,
                                                llvm::LLVMContext& context);

} // namespace tujit::codegen
