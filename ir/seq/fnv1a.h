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
  /// A table of integers (its size, then its elements in order) folded first in four independent
  /// lanes of one multiply per element, each lane then added: a table of 32 Ki entries costs tens
  /// of microseconds, where add() per element, eight dependent multiplies each, costs a third of a
  /// millisecond. Any change of one element changes its lane (each step is a bijection of it).
  template <typename T>
  void add_table(const std::vector<T>& v) {
    add(v.size());
    std::uint64_t lane[4] = {h_, h_ ^ 1, h_ ^ 2, h_ ^ 3};
    const auto fold = [](std::uint64_t& l, std::uint64_t x) {
      l = (l ^ x) * 0x9E3779B97F4A7C15ull;
      l ^= l >> 29;
    };
    const std::size_t n = v.size();
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4)
      for (std::size_t k = 0; k < 4; ++k) fold(lane[k], static_cast<std::uint64_t>(v[i + k]));
    for (; i < n; ++i) fold(lane[i % 4], static_cast<std::uint64_t>(v[i]));
    for (std::uint64_t l : lane) add(l);
  }
  std::uint64_t value() const { return h_; }

private:
  std::uint64_t h_ = 0xCBF29CE484222325ull;
};

} // namespace tujit::ir::seq
