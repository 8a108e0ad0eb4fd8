// split_at(L, n) → (outer, inner): Stride and Modulo on the canonical list, docs/mapping.md §5,
// cases C1–C4 followed literally (C3/C4 heuristics per §10 D-14).
#include "ir/mapping/factor.h"

#include "ir/mapping/factor_detail.h"

namespace tujit::ir {

namespace {

using detail::concat;
using detail::slice;

// `above` of the §5 pseudo-code at index j: the factors L[j+1..], Pad totals divided by n
// (they lie wholly above the cut, so n divides every extent there).
FactorList above_of(const FactorList& l, std::size_t j, std::uint64_t n) {
  return detail::divide_pads(slice(l, j + 1, l.factors.size()), n);
}

FactorList single(Factor f) {
  FactorList r;
  r.factors.push_back(std::move(f));
  return r;
}

// §5 C4: the minimal aligned period — the smallest d >= live with n | d that divides every run
// total >= d. Run totals increase outward; for d in (t[i-1], t[i]] the totals >= d are
// t[i..], so d must divide their gcd. The outermost total always qualifies (n divides it).
std::uint64_t minimal_aligned_period(const std::vector<std::uint64_t>& totals, std::uint64_t live,
                                     std::uint64_t n) {
  for (std::size_t i = 0; i < totals.size(); ++i) {
    std::uint64_t g = 0;
    for (std::size_t k = i; k < totals.size(); ++k) g = detail::gcd(g, totals[k]);
    if (g % n != 0) continue;
    std::uint64_t lo = live;
    if (i > 0 && totals[i - 1] + 1 > lo) lo = totals[i - 1] + 1;
    // d = n·e with e | g/n and e >= ceil(lo/n).
    const std::uint64_t e_min = lo / n + (lo % n != 0 ? 1 : 0);
    if (auto e = detail::smallest_divisor_at_least(g / n, e_min)) {
      const std::uint64_t d = n * *e;
      if (d <= totals[i]) return d;
    }
  }
  detail::note_internal_error(); // unreachable: the outermost total qualifies
  return totals.back();
}

Split split_rec(const FactorList& l, std::uint64_t n) {
  if (n == 1) return Split{l, {}};
  const std::vector<std::uint64_t> ext = detail::cumulative_extents(l);
  const std::size_t count = l.factors.size();
  for (std::size_t jj = count; jj-- > 0;) {
    const Factor& f = l.factors[jj];
    const std::uint64_t a = ext[jj];
    if (a % n == 0) continue; // f lies wholly above the cut: part of `above`
    const FactorList below = slice(l, 0, jj);

    // C1: the cut falls in f's padding.
    if (f.is_pad() && a < n) {
      FactorList outer = concat(single(Factor::padding(f.total / n, f.pad)), above_of(l, jj, n));
      FactorList inner = below;
      inner.factors.push_back(Factor::padding(n, f.pad));
      return Split{normalize(std::move(outer)), normalize(std::move(inner))};
    }
    // C2: the cut splits f's digit.
    if (!f.is_pad() && n % a == 0 && f.count % (n / a) == 0) {
      const std::uint64_t m = n / a;
      Factor hi = f;
      Factor lo = f;
      hi.count = f.count / m;
      lo.count = m;
      if (f.is_term()) hi.stride = f.stride * m;
      FactorList outer = concat(single(std::move(hi)), above_of(l, jj, n));
      FactorList inner = below;
      inner.factors.push_back(std::move(lo));
      return Split{normalize(std::move(outer)), normalize(std::move(inner))};
    }
    // C3: peel the commensurable part first.
    const std::uint64_t g = detail::gcd(n, a);
    if (g > 1) {
      Split first = split_rec(l, g);
      Split second = split_rec(first.outer, n / g);
      return Split{std::move(second.outer), pair(second.inner, first.inner)};
    }
    // C4: a ragged cut; the block up to the cut (with the Pads that close it) becomes one
    // composite atom shared by both halves, so that pair(outer, inner) merges back (N4, N6).
    const std::size_t run_first = f.is_pad() ? jj : jj + 1;
    std::size_t run_end = run_first; // one past the last Pad of the run
    while (run_end < count && l.factors[run_end].is_pad()) ++run_end;
    FactorList g_list;
    std::uint64_t d = 0;
    FactorList outside;
    if (run_end == run_first) {
      g_list = slice(l, 0, jj + 1);
      d = ext[jj + 1];
    } else {
      const std::uint64_t live = ext[run_first];
      std::vector<std::uint64_t> totals;
      for (std::size_t k = run_first; k < run_end; ++k) totals.push_back(l.factors[k].total);
      d = minimal_aligned_period(totals, live, n);
      g_list = slice(l, 0, run_first);
      bool closed = false;
      for (std::size_t k = run_first; k < run_end; ++k) {
        const Factor& p = l.factors[k];
        if (p.total < d) {
          g_list.factors.push_back(p);
        } else {
          if (!closed) g_list.factors.push_back(Factor::padding(d, p.pad));
          closed = true;
          if (p.total > d) outside.factors.push_back(Factor::padding(p.total / n, p.pad));
        }
      }
    }
    // `above` without the run Pads (now held by G or `outside`).
    const FactorList rest = detail::divide_pads(slice(l, run_end, count), n);
    const Atom comp = Atom::composite(std::move(g_list));
    FactorList outer = single(Factor::term(comp, n, d / n));
    outer = concat(concat(std::move(outer), outside), rest);
    return Split{normalize(std::move(outer)), normalize(single(Factor::term(comp, 1, n)))};
  }
  // Every factor lies above the cut: only possible when n divides E_0 = 1, i.e. n = 1.
  detail::note_internal_error();
  return Split{l, {}};
}

} // namespace

Result<Split> split_at(const FactorList& l, std::uint64_t n) {
  const std::uint64_t size = l.size();
  if (n == 0 || size % n != 0) return detail::not_divisible("the split point", size, n);
  return split_rec(l, n);
}

} // namespace tujit::ir
