// What a value the engines hand on becomes on its way out of them (docs/kernels.md §3): the
// Vector Engine pass reading it (docs/vector-engine.md §4; `vrf` its `&vrf` operands at the
// value's cell, §3.2), then the output path's cast
// (docs/output-path.md §1, §2.2). The interpreter applies it to every value it writes, the JIT's
// host code to the values it fills without running generated code; the generated code emits the
// same two steps (codegen/vector_chain_emit.h, codegen/narrow_emit.h).
#pragma once

#include "ir/seq/run_program.h"
#include "runtime/scalar/widen.h"
#include "runtime/vector/ve_scalar.h"

#include <cstdint>
#include <optional>
#include <span>

namespace tujit::runtime {

inline std::uint32_t leave_engines(const std::optional<ir::seq::VectorProgram>& pass,
                                   const std::optional<ir::seq::OutputCast>& cast, std::uint32_t v,
                                   std::span<const std::uint32_t> vrf = {}) {
  if (pass) v = vector::apply_pass(*pass, v, vrf);
  if (cast) v = output_cast_bits(cast->to, cast->relu, v);
  return v;
}

} // namespace tujit::runtime
