// resize(L, r) (the first r cells of L) and is_resize_of: docs/mapping.md §6.
#include "ir/mapping/factor.h"

#include "ir/mapping/factor_detail.h"

#include <fmt/format.h>

namespace tujit::ir {

namespace {

FactorList resize_rec(const FactorList& l, std::uint64_t r, int depth) {
  const std::uint64_t size = l.size();
  if (r >= size) return l;
  if (r <= 1) return {};
  // Each recursion works on a strictly smaller list (split_at's outer half); the bound only
  // guards against a bug.
  if (depth > 256) {
    detail::note_internal_error();
    return l;
  }
  const std::vector<std::uint64_t> ext = detail::cumulative_extents(l);
  // The outermost factor j with E_before(j) < r; the factors above it are dropped.
  std::size_t j = l.factors.size();
  while (j > 0 && ext[j - 1] >= r) --j;
  if (j == 0) { // unreachable: E_before(0) = 1 < r
    detail::note_internal_error();
    return {};
  }
  --j;
  const Factor& f = l.factors[j];
  const std::uint64_t a = ext[j];
  FactorList below = detail::slice(l, 0, j);
  if (f.is_pad()) {
    below.factors.push_back(Factor::padding(r, f.pad));
    return normalize(std::move(below));
  }
  if (r % a == 0) {
    Factor g = f;
    g.count = r / a;
    below.factors.push_back(std::move(g));
    return normalize(std::move(below));
  }
  const std::uint64_t g = detail::gcd(a, r);
  if (g > 1) {
    auto s = split_at(detail::slice(l, 0, j + 1), g);
    if (!s.ok()) { // unreachable: g | a | SIZE(L[0..j])
      detail::note_internal_error();
      return l;
    }
    return pair(resize_rec(s->outer, r / g, depth + 1), s->inner);
  }
  // A ragged prefix: the block holding it becomes one composite read by a single digit.
  Factor h = f;
  h.count = r / a + (r % a != 0 ? 1 : 0);
  below.factors.push_back(std::move(h));
  FactorList out;
  out.factors.push_back(Factor::term(Atom::composite(std::move(below)), 1, r));
  return normalize(std::move(out));
}

} // namespace

Result<FactorList> resize(const FactorList& l, std::uint64_t r) {
  const std::uint64_t size = l.size();
  if (r < 1 || r > size)
    return make_error(
        "E-TYPE-322", fmt::format("cannot resize a mapping of SIZE {} to {}", size, r),
        std::nullopt, {"docs/mapping.md §1.3: `x = r` needs 1 <= r <= SIZE(x) (§10 D-6)"});
  return resize_rec(l, r, 0);
}

bool is_resize_of(const FactorList& x, const FactorList& orig) {
  const FactorList nx = normalize(x);
  const std::uint64_t sx = nx.size();
  if (sx > orig.size()) return false;
  auto r = resize(normalize(orig), sx);
  return r.ok() && *r == nx;
}

} // namespace tujit::ir
