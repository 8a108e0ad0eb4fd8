// The host callback through which generated code runs the Vector Engine value calls it does not
// emit inline (codegen/vector_chain_emit.h): the interpreter's runtime::vector::apply_call. A
// cached object cannot hold a host address, so the host passes it in with each call.
#pragma once

#include "ir/types/vector_op.h"

#include <cstdint>

namespace tujit::codegen {

/// apply_call's shape, with the scalar type as its integer value.
using VectorApplyFn = std::uint32_t (*)(const ir::VectorCall* call, std::uint32_t dtype,
                                        std::uint32_t v);

/// The function the host passes as the callback.
std::uint32_t vector_apply(const ir::VectorCall* call, std::uint32_t dtype, std::uint32_t v);

} // namespace tujit::codegen
