// The digit model of the random kernel generator (tests/support/kernel_gen.h): every mapping the
// generator writes is a list of digits (outer → inner), each a piece `base / stride % count` of an
// axis (possibly padded, `K # 64`) or a piece of pure padding (`1 # n`: position 0 live).
// Splitting a list at n cells cuts through one digit exactly as docs/contraction.md §0 `split`
// does, so the generator can write Time/Packet/OP/Element pieces that the verifiers must find
// equivalent.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace tujit::testing::kernel_gen_detail {

/// The generator's random choices, drawn from one engine.
struct Draw {
  std::mt19937_64& rng;
  std::uint64_t range(std::uint64_t lo, std::uint64_t hi) {
    std::uniform_int_distribution<std::uint64_t> d(lo, hi);
    return d(rng);
  }
  bool coin(double p) {
    std::bernoulli_distribution d(p);
    return d(rng);
  }
  template <class T>
  T one_of(const std::vector<T>& v) {
    return v[range(0, v.size() - 1)];
  }
  /// Shuffles `v`; true when the order changed.
  bool shuffle(std::vector<std::string>& v) {
    const auto before = v;
    for (std::size_t i = v.size(); i-- > 1;) std::swap(v[i], v[range(0, i)]);
    return v != before;
  }
};

enum class Pad { None, Top, Zero };

struct Digit {
  std::string base;            // "K", "K # 64", "K #{0} 64"; unused for pad_only
  std::uint64_t base_size = 1; // padded extent of base
  std::uint64_t stride = 1;
  std::uint64_t count = 1;
  bool pad_only = false;  // a piece of `1 # n`
  std::string name;       // the axis of base ("" for pad_only)
  std::uint64_t live = 1; // the axis's live extent (base_size when base is unpadded)
};

using Digits = std::vector<Digit>;

inline std::string padded(const std::string& name, Pad kind, std::uint64_t to) {
  if (kind == Pad::None) return name;
  return fmt::format("{} {} {}", name, kind == Pad::Top ? "#" : "#{0}", to);
}

/// The whole axis `name` (live extent `live`), padded to `size` when `size > live`.
inline Digit axis_digit(const std::string& name, Pad pad, std::uint64_t live, std::uint64_t size) {
  return Digit{padded(name, size > live ? pad : Pad::None, size), size, 1, size, false, name, live};
}

inline Digit axis_digit(const std::string& name, std::uint64_t size) {
  return axis_digit(name, Pad::None, size, size);
}

inline Digit pad_digit(std::uint64_t n) {
  return Digit{"", n, 1, n, true, "", 1};
}

/// The digit is its whole (possibly padded) axis.
inline bool whole(const Digit& d) {
  return !d.pad_only && d.stride == 1 && d.count == d.base_size;
}

inline std::string text(const Digit& d) {
  if (d.count <= 1) return "";
  if (d.pad_only) return fmt::format("1 # {}", d.count);
  std::string s = d.base;
  if (d.stride > 1) s += fmt::format(" / {}", d.stride);
  if (d.stride * d.count < d.base_size) s += fmt::format(" % {}", d.count);
  return s;
}

inline std::string text(const Digits& ds) {
  std::string s;
  for (const auto& d : ds) {
    std::string t = text(d);
    if (!t.empty()) s += (s.empty() ? "" : ", ") + t;
  }
  return s.empty() ? "1" : s;
}

inline std::uint64_t size(const Digits& ds) {
  std::uint64_t n = 1;
  for (const auto& d : ds) n *= d.count;
  return n;
}

inline Digits cat(std::initializer_list<Digits> parts) {
  Digits out;
  for (const auto& p : parts)
    for (const auto& d : p)
      if (d.count > 1) out.push_back(d);
  return out;
}

/// Merges adjacent pieces of one axis that are contiguous (`K / 32, K % 32` → `K`).
inline Digits merged(const Digits& ds) {
  Digits out;
  for (const auto& d : ds) {
    if (d.count <= 1) continue;
    if (!out.empty()) {
      Digit& o = out.back();
      if (!o.pad_only && !d.pad_only && o.base == d.base && o.stride == d.stride * d.count) {
        o.stride = d.stride;
        o.count *= d.count;
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}

/// docs/contraction.md §0 split(M, n): (outer, inner) with inner the innermost n cells; nullopt
/// when the cut is not a digit boundary of equal-sized pieces.
inline std::optional<std::pair<Digits, Digits>> split(const Digits& ds, std::uint64_t n) {
  Digits outer, inner;
  std::uint64_t rem = n;
  for (auto it = ds.rbegin(); it != ds.rend(); ++it) {
    const Digit& d = *it;
    if (d.count <= 1) continue;
    if (rem == 1) {
      outer.insert(outer.begin(), d);
    } else if (d.count <= rem) {
      if (rem % d.count != 0) return std::nullopt;
      inner.insert(inner.begin(), d);
      rem /= d.count;
    } else {
      if (d.count % rem != 0) return std::nullopt;
      Digit in = d, out = d;
      in.count = rem;
      out.stride = d.stride * rem;
      out.count = d.count / rem;
      inner.insert(inner.begin(), in);
      outer.insert(outer.begin(), out);
      rem = 1;
    }
  }
  if (rem != 1) return std::nullopt;
  return std::make_pair(outer, inner);
}

inline std::uint64_t log2u(std::uint64_t x) {
  std::uint64_t l = 0;
  while (x > 1) x /= 2, ++l;
  return l;
}

} // namespace tujit::testing::kernel_gen_detail
