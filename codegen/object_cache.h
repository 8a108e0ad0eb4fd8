// On-disk cache of compiled contraction objects: re-running an unchanged kernel loads
// its machine code instead of recompiling. The key names everything the object depends on:
// fingerprint(program) (ir/seq/contraction_program.h), the LLVM version, the host triple / CPU /
// features, kCodegenVersion (bump it whenever the generated code changes) and the checked flag.
//
// File format (little-endian), one file per key, written atomically (temp file + rename, so a
// reader never sees a half-written file):
//   "TUJITOBJ" | u32 format | u32 key bytes | u64 object bytes | u64 FNV-1a of key + object
//   | key | object
// A file that is short, long, of another format or key, or whose checksum fails is treated as a
// miss (and overwritten by the recompiled object); reading never trusts its contents.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace tujit::codegen {

/// Bump when the code generator's output for a given program changes.
inline constexpr std::uint32_t kCodegenVersion = 4;

/// The cache directory: `configured` if not empty, else $TUJIT_CACHE_DIR, else
/// $XDG_CACHE_HOME/tujit, else $HOME/.cache/tujit; nullopt when none can be formed.
std::optional<std::filesystem::path> resolve_cache_dir(const std::filesystem::path& configured);

class ObjectCache {
public:
  explicit ObjectCache(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /// The file a key is stored in (named by the program fingerprint and a hash of the key).
  std::filesystem::path path_of(std::uint64_t fingerprint, const std::string& key) const;

  /// The cached object, or nullopt on a miss or an invalid file.
  std::optional<std::string> load(std::uint64_t fingerprint, const std::string& key) const;

  /// Stores atomically; false when the directory or file cannot be written (the cache is an
  /// optimisation: callers go on without it).
  bool store(std::uint64_t fingerprint, const std::string& key, const std::string& object) const;

private:
  std::filesystem::path dir_;
};

} // namespace tujit::codegen
