// The spec files `tujit check PATH…` checks (docs/ci.md): files, directories and globs, so a CI
// job checks a whole kernel folder in one call.
#pragma once

#include "ir/support/diagnostic.h"

#include <string>
#include <vector>

namespace tujit::ci {

/// The files the PATHs name, in argument order, each file once:
/// - an existing file: itself;
/// - a directory: every `*.rs` regular file below it, sorted (directories whose name starts with
///   `.` are not entered: `.git`, editor state);
/// - otherwise, a PATH with `*`, `?` or `[…]` is a glob: `*` and `?` match within one path
///   component, `**` any number of whole components; its matching regular files, sorted.
/// A PATH that names nothing, a directory without `*.rs` files or a glob matching no file is
/// E-CHECK-004 (a CI job pointed at the wrong folder must not pass by checking nothing).
Result<std::vector<std::string>> expand_spec_paths(const std::vector<std::string>& paths);

} // namespace tujit::ci
