// The value of a `for` loop's bound (docs/kernel-language.md §3.1): an integer literal, a
// `const`, `NAME::SIZE` of an axis, or a parenthesised expression of those with `+ - * / %`
// (Rust's precedence, natural numbers), as the reference writes `0..(Out::SIZE / 8)`.
#pragma once

#include "ir/lex/token.h"
#include "ir/support/diagnostic.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tujit::ir::lang {

/// A name's value: a `const` (`NAME`) or an axis size (`NAME::SIZE`, `size` true); nullopt
/// when the file defines no such name.
using ConstantLookup =
    std::function<std::optional<std::uint64_t>(std::string_view name, bool size)>;

/// The bound's value, or the reason it has none (a name that is no constant, a division by
/// zero, an overflow, a negative result, a token outside the expression language).
Result<std::uint64_t> evaluate_loop_bound(std::span<const Token> tokens,
                                          const ConstantLookup& lookup, SourceSpan span);

} // namespace tujit::ir::lang
