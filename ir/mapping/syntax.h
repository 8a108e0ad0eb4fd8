// Surface syntax of the mapping language (docs/mapping.md §1): `m![…]` bodies, `axes![…]`
// declarations and `i![…]` indexes, parsed from tokens (ir/lex/token.h) into Mapping values.
// The kernel-language front end (ir/lang/) hands the token range between the brackets to these
// parsers; `tujit map` and the tests lex a string first (parse_mapping_text).
#pragma once

#include "ir/lex/token.h"
#include "ir/mapping/mapping.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tujit::ir {

/// How `{ … }` escapes are resolved (docs/mapping.md §1.1 ESC, §10 D-15). The front end supplies
/// these; the default context resolves nothing (every escape is then a diagnostic).
struct MappingContext {
  const AxisTable* axes = nullptr; // axis names → sizes; required
  /// `{ Name }` in operand position: a previously defined mapping alias.
  std::function<std::optional<Mapping>(std::string_view name)> alias;
  /// `{ N }` in number position: a named constant.
  std::function<std::optional<std::uint64_t>(std::string_view name)> constant;
  // `{ Name::SIZE }` in number position is resolved by the parser itself: an axis from `axes`,
  // else an alias via `alias`.
  /// Nesting limit for `( … )`, `[ … ]`, `{ … }` (deep nesting is a diagnostic, not a stack
  /// overflow).
  std::size_t max_depth = 256;
  /// Limit on the height of the built tree (long `A, B, …` chains or `x / 1 / 1 …` runs), so that
  /// recursive walks over the result (map, to_string, ==) stay shallow.
  std::size_t max_tree_depth = 1024;
  /// Where the body ends (e.g. the closing `]` of `m![…]`): errors "at end of mapping" point
  /// here. Without it they point just past the last token (or carry no span when empty).
  std::optional<SourceSpan> body_end;
};

/// Parses a mapping body (the tokens strictly between `m![` and `]`, no Eof) into a Mapping.
/// Diagnostics (code E-PARSE-…, stage "parse") point at the offending token with what was
/// expected; static validity (§1.3) failures point at the operator and name the rule.
Result<Mapping> parse_mapping(std::span<const Token> body, const MappingContext& ctx);

/// Parses an `axes![…]` body (the tokens between the brackets) into declarations, in order.
/// Names must be valid axis names ([A-Z][A-Za-z0-9_]*), unique, sizes >= 1.
Result<std::vector<Axis>> parse_axes(std::span<const Token> body);

/// One `i![…]` assignment: a mapping (or a bare axis) and the coordinate it is given.
/// Host expressions are limited to natural-number literals here.
Result<Index> parse_index(std::span<const Token> body, const MappingContext& ctx);

/// Convenience for command lines and tests: lexes `text` (a mapping body without `m![ ]`) and
/// parses it. `source_name` names the buffer in diagnostics. On failure the returned
/// diagnostics' spans refer to `text`.
Result<Mapping> parse_mapping_text(std::string_view text, const AxisTable& axes,
                                   std::string_view source_name = "<mapping>");

/// Lexes and parses an axes list such as `A=8, B=512` (the `tujit map --axes` form).
Result<AxisTable> parse_axes_text(std::string_view text, std::string_view source_name = "<axes>");

} // namespace tujit::ir
