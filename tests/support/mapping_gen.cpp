#include "tests/support/mapping_gen.h"

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

namespace tujit::testing {

namespace {

using ir::Mapping;

std::vector<std::uint64_t> divisors(std::uint64_t n) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    out.push_back(d);
    if (d != n / d) out.push_back(n / d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// One generation run over a fixed axis table. Every factory call below is valid by construction
// (docs/mapping.md §1.3), so `.value()` never fails.
class Builder {
public:
  Builder(std::mt19937_64& rng, const MappingGenOptions& opts, const ir::AxisTable& axes)
      : rng_(rng), opts_(opts), axes_(axes) {}

  Mapping gen(int depth, std::uint64_t budget) {
    if (budget < 1) budget = 1;
    if (depth <= 0 || chance(1, 5)) return leaf(budget);
    enum Choice { Pair, Stride, Modulo, Resize, Padding };
    std::vector<Choice> choices = {Pair, Pair, Stride, Stride, Modulo};
    if (opts_.allow_resize) choices.push_back(Resize);
    if (opts_.allow_padding) {
      choices.push_back(Padding);
      choices.push_back(Padding);
    }
    switch (choices[pick(choices.size())]) {
    case Pair: {
      Mapping minor = gen(depth - 1, budget);
      Mapping major = gen(depth - 1, std::max<std::uint64_t>(1, budget / minor.size()));
      return Mapping::pair(major, minor).value();
    }
    case Stride: {
      Mapping x = gen(depth - 1, opts_.max_size);
      auto ds = divisors(x.size());
      std::vector<std::uint64_t> ok;
      for (auto s : ds)
        if (x.size() / s <= budget) ok.push_back(s);
      return Mapping::stride(x, prefer_proper(ok, x.size())).value();
    }
    case Modulo: {
      Mapping x = gen(depth - 1, opts_.max_size);
      std::vector<std::uint64_t> ok;
      for (auto m : divisors(x.size()))
        if (m <= budget) ok.push_back(m);
      return Mapping::modulo(x, prefer_proper(ok, x.size())).value();
    }
    case Resize: {
      Mapping x = gen(depth - 1, opts_.max_size);
      std::uint64_t hi = std::min(x.size(), budget);
      return Mapping::resize(x, uniform(1, hi)).value();
    }
    case Padding: {
      Mapping x = gen(depth - 1, budget);
      std::uint64_t s = x.size();
      std::vector<std::uint64_t> ts = {s};
      std::uint64_t p2 = 1;
      while (p2 < s) p2 *= 2;
      for (std::uint64_t t : {p2, p2 * 2, s + 1, s + uniform(1, 8), s * 2, s * 3})
        if (t >= s && t <= budget) ts.push_back(t);
      if (s < budget) ts.push_back(uniform(s, std::min(budget, s * 4)));
      std::uint64_t t = ts.size() > 1 ? ts[1 + pick(ts.size() - 1)] : ts[0];
      static constexpr std::array<ir::PaddingKind, 3> kinds = {
          ir::PaddingKind::Top, ir::PaddingKind::Zero, ir::PaddingKind::Bottom};
      return Mapping::padding(x, t, kinds[pick(kinds.size())]).value();
    }
    }
    return Mapping();
  }

private:
  Mapping leaf(std::uint64_t budget) {
    std::vector<const ir::Axis*> free;
    for (const auto& a : axes_.axes())
      if (a.size <= budget && (opts_.allow_repeat_axis || !used_.count(a.name))) free.push_back(&a);
    bool bcast = opts_.allow_broadcast && budget >= 2 && chance(1, 6);
    if (!free.empty() && !bcast && !chance(1, 12)) {
      const ir::Axis* a = free[pick(free.size())];
      used_.insert(a->name);
      return Mapping::symbol(*a);
    }
    if (bcast) return Mapping::broadcast(uniform(2, std::min<std::uint64_t>(budget, 8))).value();
    return Mapping();
  }

  // A divisor from `ok`, preferring neither 1 nor the whole size (those are no-ops / collapse).
  std::uint64_t prefer_proper(const std::vector<std::uint64_t>& ok, std::uint64_t whole) {
    std::vector<std::uint64_t> proper;
    for (auto d : ok)
      if (d != 1 && d != whole) proper.push_back(d);
    if (!proper.empty() && !chance(1, 8)) return proper[pick(proper.size())];
    return ok[pick(ok.size())];
  }

  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(uniform(0, n - 1)); }
  std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) {
    return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng_);
  }
  bool chance(std::uint64_t num, std::uint64_t den) { return uniform(1, den) <= num; }

  std::mt19937_64& rng_;
  const MappingGenOptions& opts_;
  const ir::AxisTable& axes_;
  std::set<std::string> used_;
};

} // namespace

MappingGenerator::MappingGenerator(std::uint64_t seed, MappingGenOptions opts)
    : opts_(opts), rng_(seed) {}

ir::AxisTable MappingGenerator::random_axes() {
  // Names exercise multi-character spellings too (docs/mapping.md §1.1 examples).
  static constexpr std::array<const char*, 10> names = {"A",  "B",   "C",   "D", "R",
                                                        "L1", "Bat", "W_2", "H", "N"};
  std::vector<std::string> pool(names.begin(), names.end());
  std::shuffle(pool.begin(), pool.end(), rng_);
  auto n_axes = std::uniform_int_distribution<int>(1, std::max(1, opts_.max_axes))(rng_);
  ir::AxisTable t;
  std::uint64_t max_axis = std::max<std::uint64_t>(1, opts_.max_axis_size);
  for (int i = 0; i < n_axes && i < static_cast<int>(pool.size()); ++i) {
    std::uint64_t size;
    switch (std::uniform_int_distribution<int>(0, 3)(rng_)) {
    case 0: { // a power of two
      std::uint64_t p = 1;
      std::vector<std::uint64_t> ps;
      while (p <= max_axis) ps.push_back(p), p *= 2;
      size = ps[std::uniform_int_distribution<std::size_t>(0, ps.size() - 1)(rng_)];
      break;
    }
    case 1: { // small ragged sizes: 3, 5, 6, 7, 12, 13, 14, 15 …
      static constexpr std::array<std::uint64_t, 10> ragged = {2, 3, 5, 6, 7, 12, 13, 14, 15, 50};
      std::vector<std::uint64_t> fit;
      for (auto r : ragged)
        if (r <= max_axis) fit.push_back(r);
      size = fit.empty() ? 1
                         : fit[std::uniform_int_distribution<std::size_t>(0, fit.size() - 1)(rng_)];
      break;
    }
    default:
      size = std::uniform_int_distribution<std::uint64_t>(1, max_axis)(rng_);
    }
    t.add(ir::Axis{pool[static_cast<std::size_t>(i)], size});
  }
  return t;
}

GeneratedMapping MappingGenerator::next() {
  ir::AxisTable t = random_axes();
  ir::Mapping m = next_over(t);
  return {std::move(t), std::move(m)};
}

ir::Mapping MappingGenerator::next_over(const ir::AxisTable& axes) {
  Builder b(rng_, opts_, axes);
  return b.gen(opts_.max_depth, std::max<std::uint64_t>(1, opts_.max_size));
}

} // namespace tujit::testing
