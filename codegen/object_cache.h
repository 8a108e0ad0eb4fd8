// On-disk cache of compiled contraction and fetch objects: re-running an unchanged kernel loads
// its machine code instead of recompiling. The key names everything the object depends on: the
// build of tujit that compiled it (build_identity.h: a hash of the linked binary, so any rebuilt
// tujit has its own entries; with the compile backend's library's own, compile_backend.h),
// fingerprint(program) (ir/seq/contraction_program.h), the LLVM version, the host's CPUID words
// (host_cpu.h) and the checked flag (the callers' key text).
//
// File format (little-endian), one file per key, written through runtime/io/output_file.h
// (temporary + fsync + rename: a reader never sees a half-written file):
//   "TUJITOBJ" | u32 format (2) | u32 key bytes | u64 object bytes | SHA-256 of key + object
//   | key | object
// Reading goes through ir/support/input_file.h (a regular file only, its size checked against the
// header before the rest is read). A file that is short, long, of another format, build or key,
// or whose digest fails is a miss (and replaced by the recompiled object).
//
// Trust: loaded objects are machine code that tujit runs. The digest detects corruption (a torn
// write, a bad disk), not tampering: whoever can write the cache directory can make tujit run
// their code, exactly as if they could replace the tujit binary. The cache directory must
// therefore be as trusted as the binary. tujit creates it private (0700) and uses a directory
// only when it is owned by the user running tujit and writable by nobody else; otherwise the
// cache is off (every kernel is compiled).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace tujit::codegen {

/// The contraction code generator's tag in its keys; the build identity already tells builds
/// apart, so it needs no bump.
inline constexpr std::uint32_t kCodegenVersion = 3;

/// The cache directory: `configured` if not empty, else $TUJIT_CACHE_DIR, else
/// $XDG_CACHE_HOME/tujit, else $HOME/.cache/tujit; nullopt when none can be formed.
std::optional<std::filesystem::path> resolve_cache_dir(const std::filesystem::path& configured);

/// Whether `dir` may hold the cache: a directory owned by this user, writable by nobody else.
bool trusted_cache_dir(const std::filesystem::path& dir);

class ObjectCache {
public:
  /// `build` is build_identity() unless a test pretends to be another build; an empty build
  /// identity turns the cache off.
  explicit ObjectCache(std::filesystem::path dir, std::string build = {});

  /// The file a key is stored in (named by the program fingerprint and a hash of the build and
  /// the key).
  std::filesystem::path path_of(std::uint64_t fingerprint, const std::string& key) const;

  /// The cached object, or nullopt on a miss, an invalid file or an untrusted directory.
  std::optional<std::string> load(std::uint64_t fingerprint, const std::string& key) const;

  /// Stores atomically; false when the directory or file cannot be written or is not trusted
  /// (the cache is an optimisation: callers go on without it).
  bool store(std::uint64_t fingerprint, const std::string& key, const std::string& object) const;

private:
  std::string full_key(const std::string& key) const;

  std::filesystem::path dir_;
  std::string build_;
};

} // namespace tujit::codegen
