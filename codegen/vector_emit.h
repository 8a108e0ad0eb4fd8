// LLVM IR emission of one VectorProgram (ir/seq/vector_program.h: its header comment is the
// semantics, runtime/interp/vector_exec.cpp the reference). The program becomes one function,
// kVectorSymbol:
//
//   i32 tujit_vector(const u32* in_bits, u32* out_bits, u64 slice_begin, u64 slice_end,
//                    VectorApplyFn apply, const ir::VectorCall* calls)
//
// over the whole images (in [spatial][in_time·in_packet], out [spatial][out_time·out_packet]): for
// every slice s in [slice_begin, slice_end) and output position n it traces n back through the
// layout calls (integer arithmetic), loads the input element (or starts from the poison pattern
// for a lane a widen_pad made) and runs the value calls. Sqrt and AddF / SubF / MulF / DivF with a
// constant operand are emitted as the IEEE instruction (llvm.sqrt, fadd, …: no fast-math flag,
// correctly rounded) followed by the canonical-NaN select of ve_scalar.h; every other value call
// is a call of `apply(&calls[i], dtype, v)`, the very function the interpreter runs
// (runtime::vector::apply_call), so both engines agree bit for bit by construction. Returns kRunOk,
// or kRunBoundsViolation in checked mode when the slice range leaves the images.
#pragma once

#include "codegen/contraction_emit.h"
#include "ir/seq/vector_program.h"

#include <cstdint>
#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tujit::codegen {

inline constexpr const char* kVectorSymbol = "tujit_vector";

/// Bump when the vector code generator's output for a given program changes (object cache key).
inline constexpr std::uint32_t kVectorCodegenVersion = 1;

/// The value call the generated code calls back (runtime::vector::apply_call's shape, with the
/// scalar type as its integer value).
using VectorApplyFn = std::uint32_t (*)(const ir::VectorCall* call, std::uint32_t dtype,
                                        std::uint32_t v);

/// C type of the generated function.
using VectorFn = std::int32_t (*)(const std::uint32_t* in_bits, std::uint32_t* out_bits,
                                  std::uint64_t slice_begin, std::uint64_t slice_end,
                                  VectorApplyFn apply, const ir::VectorCall* calls);

/// Whether the code generator emits `call` inline (else it calls `apply`).
bool vector_call_inlined(const ir::VectorCall& call);

/// The unoptimised module (target triple / data layout are set by the caller).
std::unique_ptr<llvm::Module> emit_vector_module(const ir::seq::VectorProgram& program,
                                                 bool checked, llvm::LLVMContext& context);

} // namespace tujit::codegen
