// `for NAME in FROM..TO { … }` with constant bounds (docs/kernel-language.md §3.1): a kernel's
// commands are a fixed sequence, so the typer unrolls such a loop into its statements, once per
// value, with NAME replaced by the value as an integer literal.
#pragma once

#include "ir/lang/ast.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tujit::ir::lang {

/// The iterations all the loops of one kernel may unroll to, nested loops counted per outer
/// iteration: far beyond the reference's loops (two or four tiles), and a bound on the stages a
/// loop can make.
inline constexpr std::uint64_t kMaxLoopIterations = 4096;

/// The loop body `body` for one value of the loop variable `name`: a copy in which every use of
/// `name` is the literal `value`, up to a `let` that rebinds it (its value still uses the loop's)
/// and not inside a nested loop over the same name.
std::vector<Stmt> loop_iteration(const std::vector<Stmt>& body, std::string_view name,
                                 std::int64_t value);

} // namespace tujit::ir::lang
