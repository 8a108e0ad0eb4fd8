// The value arguments of the Vector Engine's methods in a kernel body (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Operands"): the op
// enum variant
// (`FpUnaryOp::Sqrt`, `FpBinaryOp::MulF(FpMulAlu::Mul0)`), an optional `BinaryArgMode`, and a
// constant operand written as a Rust literal of the stream's scalar (`100`, `2.0f32`, `-1`,
// `0x7fff_ffff`), a `&vrf` (marked here, its tensor typed by sema), the `Stash`, or a `Branched`
// operand (ir/lang/vector_branch_args.h). The Vector Engine methods outside the simulated set are
// refused with E-VE-013 naming the reason.
#pragma once

#include "ir/lang/ast.h"
#include "ir/lang/vector_branch_args.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/types/vector_op.h"

#include <optional>
#include <string_view>

namespace tujit::ir::lang {

/// The Vector Engine call a method name denotes (`vector_fxp_with_mode` → Fxp), or nullopt for a
/// method that is not one tujit simulates.
std::optional<VectorCallKind> vector_call_kind(std::string_view method);

/// Why a `vector_*` method is not simulated (E-VE-013's note), for any method name starting with
/// `vector_` that vector_call_kind does not know.
std::string vector_refusal_reason(std::string_view method);

/// Types the value arguments of `call` (a `vector_*` MethodCall of kind `kind`) on a stream of
/// `dtype`; `paired` when the stream is pair mode's two groups before their zip (each group then
/// takes its own argument, docs/vector-engine.md §3.5); `bound` holds the kernel's `let` bindings
/// of guards. Appends diagnostics (stage "type") and returns nullopt on error.
std::optional<VectorCall> type_vector_args(const Expr& call, VectorCallKind kind, ScalarType dtype,
                                           bool paired, const BoundValues& bound,
                                           Diagnostics& diags);

/// The `&vrf` argument of a typed call that reads the VRF (VectorCall::reads_vrf): its operand0,
/// or a `Branched` operand's rf slot.
const Expr& vrf_operand_arg(const Expr& call, const VectorCall& typed);

} // namespace tujit::ir::lang
