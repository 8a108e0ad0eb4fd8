#include "codegen/object_cache.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace tujit::codegen {
namespace {

constexpr char kMagic[8] = {'T', 'U', 'J', 'I', 'T', 'O', 'B', 'J'};
constexpr std::uint32_t kFormat = 1;
constexpr std::size_t kHeaderBytes = sizeof(kMagic) + 4 + 4 + 8 + 8;
// Refuse absurd sizes from a corrupt header before allocating.
constexpr std::uint64_t kMaxObjectBytes = std::uint64_t{1} << 30;

std::uint64_t fnv1a(std::uint64_t h, const char* data, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001B3ull;
  }
  return h;
}
constexpr std::uint64_t kFnvBasis = 0xCBF29CE484222325ull;

std::uint64_t checksum(const std::string& key, const std::string& object) {
  return fnv1a(fnv1a(kFnvBasis, key.data(), key.size()), object.data(), object.size());
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

std::filesystem::path ObjectCache::path_of(std::uint64_t fingerprint,
                                           const std::string& key) const {
  return dir_ /
         fmt::format("{:016x}-{:016x}.tjo", fingerprint, fnv1a(kFnvBasis, key.data(), key.size()));
}

std::optional<std::string> ObjectCache::load(std::uint64_t fingerprint,
                                             const std::string& key) const {
  std::ifstream in(path_of(fingerprint, key), std::ios::binary);
  if (!in) return std::nullopt;
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < kHeaderBytes || std::memcmp(data.data(), kMagic, sizeof(kMagic)) != 0)
    return std::nullopt;
  std::size_t at = sizeof(kMagic);
  const auto format = get<std::uint32_t>(data, at);
  const auto key_bytes = get<std::uint32_t>(data, at + 4);
  const auto object_bytes = get<std::uint64_t>(data, at + 8);
  const auto sum = get<std::uint64_t>(data, at + 16);
  if (format != kFormat || key_bytes != key.size() || object_bytes > kMaxObjectBytes ||
      data.size() != kHeaderBytes + key_bytes + object_bytes)
    return std::nullopt;
  if (data.compare(kHeaderBytes, key_bytes, key) != 0) return std::nullopt;
  std::string object = data.substr(kHeaderBytes + key_bytes);
  if (checksum(key, object) != sum) return std::nullopt;
  return object;
}

bool ObjectCache::store(std::uint64_t fingerprint, const std::string& key,
                        const std::string& object) const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return false;
  std::string data(kMagic, sizeof(kMagic));
  put<std::uint32_t>(data, kFormat);
  put<std::uint32_t>(data, static_cast<std::uint32_t>(key.size()));
  put<std::uint64_t>(data, object.size());
  put<std::uint64_t>(data, checksum(key, object));
  data += key;
  data += object;
  // A unique temporary name per process and store, renamed over the final name: concurrent
  // writers of the same key each publish a complete file.
  static std::atomic<std::uint64_t> counter{0};
  const std::filesystem::path final_path = path_of(fingerprint, key);
  std::filesystem::path tmp = final_path;
  tmp += fmt::format(".tmp.{}.{}", static_cast<long>(::getpid()), counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out.flush()) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, final_path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return false;
  }
  return true;
}

} // namespace tujit::codegen
