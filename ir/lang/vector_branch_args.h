// The tag and branch arguments of the Vector Engine's methods in a kernel body (the book's
// furiosa-opt docs/src/computing-tensors/vector-engine/intra-slice-chain.md "Tag"):
//
//   TagMode::Comparison([Cmp::Equal(0.0), Cmp::Greater(0.0), Cmp::Less(0.0), Cmp::True])
//   TagGuard::all() | ::matches([One, Ignore, Zero, Ignore]) | ::not_matches(…) |
//   ::group(GroupId::One) Branched::imm(guard, c).imm(guard, c).rf(guard, &vrf | Stash) (ternary:
//   (c0, c1), (&vrf, c1)) (guard, FpUnaryOp::Sigmoid)
//
// A guard may be a `let` binding of the kernel (`let negative = TagGuard::matches(…);`). The
// slot-layout rules of docs/vector-engine.md §3.4 are checked here, where the kernel writes the
// slots (E-VE-021); a comparison's boundary and a slot's constants are the stream's scalar
// (E-VE-015, as every operand literal).
#pragma once

#include "ir/lang/ast.h"
#include "ir/support/diagnostic.h"
#include "ir/types/scalar_type.h"
#include "ir/types/vector_op.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// Names a kernel binds with `let` to a value outside the tensor types (a TagGuard), to their
/// expressions.
using BoundValues = std::map<std::string, const Expr*, std::less<>>;

/// What the branch typer borrows from the call's argument typer.
struct VeArgContext {
  ScalarType dtype;
  const BoundValues& bound;
  /// Types a constant of the stream's scalar into its bits (reports E-VE-015 itself).
  std::function<bool(const Expr&, std::uint32_t&)> constant;
  /// Reports an error at `span` (stage "type").
  std::function<void(std::string code, std::string msg, SourceSpan span,
                     std::vector<std::string> notes)>
      error;
};

/// `TagMode::Comparison([…])`'s four comparisons (the argument of the PathCall).
std::optional<TagComparisons> type_tag_comparisons(const Expr& mode, const VeArgContext& cx);

/// A `TagGuard` expression, or a name bound to one.
std::optional<TagGuard> type_tag_guard(const Expr& e, const VeArgContext& cx);

/// Whether `e` is written as a guard (`TagGuard::…`), for `let` bindings.
bool is_tag_guard_expr(const Expr& e);

/// Whether `e` is a `Branched::imm(…)` / `Branched::rf(…)` chain.
bool is_branched(const Expr& e);

/// Types a `Branched` chain into v.branches (and v.source for its rf slot); `ternary`: each slot
/// carries (operand0, operand1). False after reporting.
bool type_branched(const Expr& e, bool ternary, VectorCall& v, const VeArgContext& cx);

/// The `&vrf` expression of a `Branched` chain's rf slot (nullptr when it has none).
const Expr* branched_rf_tensor(const Expr& e, bool ternary);

/// A guarded unary op `(guard, op)`: types the guard into v.guard and returns the op's
/// expression; nullptr after reporting.
const Expr* type_guarded_unary(const Expr& pair, VectorCall& v, const VeArgContext& cx);

} // namespace tujit::ir::lang
