// Parser of the kernel spec language (docs/kernel-language.md §3): tokens → FileAst.
// It never fails as a whole: syntax errors become diagnostics (E-PARSE-2nn, stage "parse", table
// in docs/errors.md) and parsing resumes at the next `;`, `}` or item.
#pragma once

#include "ir/lang/ast.h"

#include <deque>
#include <span>

namespace tujit::ir::lang {

/// Bracket nesting deeper than this is refused (E-PARSE-202) instead of recursing.
inline constexpr std::size_t kMaxNesting = 256;
/// Longer method chains are refused (E-PARSE-202): each call nests the syntax tree one level.
inline constexpr std::size_t kMaxChainLength = 1024;

/// Parses `tokens` (as produced by lex(): ends with Eof; the tokens' text must stay alive while
/// the result is used). Diagnostics inside fn bodies go to ParsedFile::body_diags so that
/// sema can drop those of fns that turn out not to be kernels (driver code such as `fn main`).
struct ParsedFile {
  FileAst ast;
  /// Per fn (same index as ast.fns): diagnostics of its body.
  std::deque<Diagnostics> body_diags; // deque: stable addresses while nested fns are added
};
ParsedFile parse_file(std::span<const Token> tokens, Diagnostics& diags);

} // namespace tujit::ir::lang
