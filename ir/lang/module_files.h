// Where the modules of a crate are written (docs/kernel-language.md §1.2), for `use crate::a::b`
// between files. The crate's source directory is the nearest directory at or above the file that
// holds `lib.rs` or `main.rs`; a file with none above it is a crate of its own (its root module).
// Module `a::b` is then `<src>/a/b.rs` or `<src>/a/b/mod.rs`, Rust's two layouts.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tujit::ir::lang {

/// A file's place in its crate.
struct CrateLocation {
  std::filesystem::path src;            // the crate's source directory
  std::vector<std::string> module_path; // the file's module in the crate; empty: the crate root
  bool standalone = false;              // no lib.rs / main.rs above: the file is the crate root
};

/// The place of `file` in its crate. A name that is not an existing file (a buffer given in
/// memory) is a crate of its own in the directory its name gives.
CrateLocation crate_location(const std::filesystem::path& file);

/// The files that may hold module `path` of the crate whose source directory is `src`, in the
/// order tried: `src/a/b.rs`, `src/a/b/mod.rs`; for the crate root, `src/lib.rs`, `src/main.rs`.
std::vector<std::filesystem::path> module_file_candidates(const std::filesystem::path& src,
                                                          const std::vector<std::string>& path);

/// Whether `a` and `b` name the same existing file.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

/// `crate::a::b` for {a, b}; `crate` for the root.
std::string crate_path_text(const std::vector<std::string>& path);

} // namespace tujit::ir::lang
