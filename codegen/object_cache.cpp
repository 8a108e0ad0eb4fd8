#include "codegen/object_cache.h"

#include "codegen/build_identity.h"
#include "ir/support/input_file.h"
#include "runtime/io/output_file.h"
#include "runtime/tensor/sha256.h"

#include <fmt/format.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <sys/stat.h>
#include <unistd.h>

namespace tujit::codegen {
namespace {

constexpr char kMagic[8] = {'T', 'U', 'J', 'I', 'T', 'O', 'B', 'J'};
constexpr std::uint32_t kFormat = 2;
constexpr std::size_t kDigestBytes = 32;
constexpr std::size_t kHeaderBytes = sizeof(kMagic) + 4 + 4 + 8 + kDigestBytes;
// Refuse absurd sizes from a corrupt header before allocating.
constexpr std::uint64_t kMaxObjectBytes = std::uint64_t{1} << 30;
constexpr std::uint64_t kMaxKeyBytes = std::uint64_t{1} << 20;

// An object runs to a few hundred KiB (134 KiB for the book's batched matmul), which LLVM's
// portable SHA-256 took 0.4 ms of every cache hit to check; runtime::Sha256 uses the SHA
// extensions.
std::array<std::uint8_t, kDigestBytes> digest(const std::string& key, const std::string& object) {
  runtime::Sha256 h;
  h.update({reinterpret_cast<const std::uint8_t*>(key.data()), key.size()});
  h.update({reinterpret_cast<const std::uint8_t*>(object.data()), object.size()});
  return h.finish();
}

template <typename T>
void put(std::string& out, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<char>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xFFu));
}

template <typename T>
T get(const std::string& in, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
  return static_cast<T>(v);
}

std::optional<std::filesystem::path> env_path(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::filesystem::path(v);
}

} // namespace

std::optional<std::filesystem::path> resolve_cache_dir(const std::filesystem::path& configured) {
  if (!configured.empty()) return configured;
  if (auto d = env_path("TUJIT_CACHE_DIR")) return d;
  if (auto d = env_path("XDG_CACHE_HOME")) return *d / "tujit";
  if (auto d = env_path("HOME")) return *d / ".cache" / "tujit";
  return std::nullopt;
}

bool trusted_cache_dir(const std::filesystem::path& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

ObjectCache::ObjectCache(std::filesystem::path dir, std::string build)
    : dir_(std::move(dir)), build_(build.empty() ? build_identity() : std::move(build)) {}

std::string ObjectCache::full_key(const std::string& key) const {
  return fmt::format("tujit build {}\n{}", build_, key);
}

std::filesystem::path ObjectCache::path_of(std::uint64_t fingerprint,
                                           const std::string& key) const {
  const auto d = digest(full_key(key), {});
  std::string hex;
  for (std::size_t i = 0; i < 8; ++i) hex += fmt::format("{:02x}", d[i]);
  return dir_ / fmt::format("{:016x}-{}.tjo", fingerprint, hex);
}

std::optional<std::string> ObjectCache::load(std::uint64_t fingerprint,
                                             const std::string& key) const {
  if (build_.empty() || !trusted_cache_dir(dir_)) return std::nullopt;
  const std::string want_key = full_key(key);
  auto in = InputFile::open(path_of(fingerprint, key).string());
  if (!in || in->size() < kHeaderBytes) return std::nullopt;
  std::string header(kHeaderBytes, '\0');
  if (in->read(header.data(), header.size())) return std::nullopt;
  if (std::memcmp(header.data(), kMagic, sizeof(kMagic)) != 0) return std::nullopt;
  const std::size_t at = sizeof(kMagic);
  const auto format = get<std::uint32_t>(header, at);
  const auto key_bytes = get<std::uint32_t>(header, at + 4);
  const auto object_bytes = get<std::uint64_t>(header, at + 8);
  // The sizes the header claims must be the file's before anything more is read.
  if (format != kFormat || key_bytes != want_key.size() || key_bytes > kMaxKeyBytes ||
      object_bytes > kMaxObjectBytes || in->size() != kHeaderBytes + key_bytes + object_bytes)
    return std::nullopt;
  auto rest = in->read_rest();
  if (!rest || rest->compare(0, key_bytes, want_key) != 0) return std::nullopt;
  std::string object = rest->substr(key_bytes);
  const auto sum = digest(want_key, object);
  if (std::memcmp(sum.data(), header.data() + at + 16, kDigestBytes) != 0) return std::nullopt;
  return object;
}

bool ObjectCache::store(std::uint64_t fingerprint, const std::string& key,
                        const std::string& object) const {
  if (build_.empty()) return false;
  std::error_code ec;
  if (!std::filesystem::exists(dir_, ec)) {
    std::filesystem::create_directories(dir_.parent_path(), ec);
    ::mkdir(dir_.c_str(), 0700);
  }
  if (!trusted_cache_dir(dir_)) return false;
  const std::string k = full_key(key);
  std::string data(kMagic, sizeof(kMagic));
  put<std::uint32_t>(data, kFormat);
  put<std::uint32_t>(data, static_cast<std::uint32_t>(k.size()));
  put<std::uint64_t>(data, object.size());
  const auto sum = digest(k, object);
  data.append(reinterpret_cast<const char*>(sum.data()), sum.size());
  data += k;
  data += object;
  // Concurrent writers of one key each publish a complete file (unique temporaries, rename).
  auto out = runtime::io::OutputFile::create(path_of(fingerprint, key).string(),
                                             /*overwrite=*/true, 0600);
  return out && !out->write(data) && !out->commit();
}

} // namespace tujit::codegen
