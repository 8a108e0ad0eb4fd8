// Rebuilding a mapping over a rewritten operand: the passes that rewrite a mapping's leaves (an
// axis made a broadcast, an axis read in its padded space) keep every unary operation as it is.
#pragma once

#include "ir/mapping/mapping.h"

namespace tujit::ir {

/// `m` (a Stride, Modulo, Resize or Padding) applied to `operand` instead of its own operand.
/// The caller keeps the operand's size, so every precondition of the operation still holds.
Result<Mapping> with_operand(const Mapping& m, const Mapping& operand);

} // namespace tujit::ir
