// FNV-1a over the bytes of 64-bit values: the stable fingerprint of Sequencer IR programs (the
// JIT's object-cache key). Stable across runs and builds, unlike std::hash.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tujit::ir::seq {

class Fnv1a {
public:
  void add(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) {
      h_ ^= (v >> (8 * i)) & 0xFFu;
      h_ *= 0x100000001B3ull;
    }
  }
  void add(std::string_view s) {
    add(s.size());
    for (char c : s) add(static_cast<std::uint64_t>(static_cast<unsigned char>(c)));
  }
  template <typename T>
  void add_all(const std::vector<T>& v) {
    add(v.size());
    for (const T& x : v) add(static_cast<std::uint64_t>(x));
  }
  std::uint64_t value() const { return h_; }

private:
  std::uint64_t h_ = 0xCBF29CE484222325ull;
};

} // namespace tujit::ir::seq
