// The commit the running `tujit` was built from (`tujit version`, docs/cli.md §12). Only the
// executable's main knows it: the build writes it into a header that main alone includes
// (harness/build_commit.cmake), so a new commit relinks `tujit` and nothing else.
#pragma once

#include <string>

namespace tujit::cli {

/// Called once by main, before any command runs.
void set_build_commit(std::string commit);

/// `git describe --always --dirty` of the checkout tujit was built from; "unknown" when it was
/// not built from a git checkout, or in a process whose main set none (the test suite).
const std::string& build_commit();

} // namespace tujit::cli
