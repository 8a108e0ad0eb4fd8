// Division of canonical factor lists (docs/mapping.md §7.1 refine-and-lift, §7.2 match):
// finding the digits of a divisor among the digits of a dividend. Residues, bounds, ranges,
// remainders and the tail are in divide_extents.cpp.
#include "ir/mapping/divide.h"
#include "ir/mapping/factor_detail.h"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace tujit::ir {

namespace {

// Refinement and lifting only ever shrink terms or replace runs by one term, so the fixpoint is
// reached quickly; the cap guards against a pathological ping-pong between the two steps.
constexpr int kMaxRefineRounds = 64;

/// §7.1 step 1: the cut set of one atom, B[x] = {s, s·c} over its terms.
struct CutSet {
  Atom atom;
  std::set<std::uint64_t> cuts;
};

CutSet& cuts_of(std::vector<CutSet>& sets, const Atom& a) {
  for (CutSet& c : sets)
    if (c.atom == a) return c;
  sets.push_back(CutSet{a, {}});
  return sets.back();
}

/// Collects the cuts of every term of `l`, including terms nested in composite atoms.
void collect_cuts(const FactorList& l, std::vector<CutSet>& sets) {
  for (const Factor& f : l.factors) {
    if (!f.is_term()) continue;
    CutSet& c = cuts_of(sets, f.atom);
    c.cuts.insert(f.stride);
    c.cuts.insert(f.stride * f.count);
    if (f.atom.is_composite()) collect_cuts(*f.atom.comp, sets);
  }
}

/// §7.1 step 2: cuts every top-level term at the compatible cuts of its atom, innermost first.
/// An incompatible cut is skipped (D-18), leaving the term coarse.
bool refine_list(FactorList& l, const std::vector<CutSet>& sets) {
  bool changed = false;
  std::vector<Factor> out;
  out.reserve(l.factors.size());
  for (const Factor& f : l.factors) {
    if (!f.is_term()) {
      out.push_back(f);
      continue;
    }
    const CutSet* cs = nullptr;
    for (const CutSet& c : sets)
      if (c.atom == f.atom) cs = &c;
    std::uint64_t stride = f.stride;
    std::uint64_t rest = f.count;
    const std::uint64_t top = f.stride * f.count;
    if (cs != nullptr) {
      for (std::uint64_t t : cs->cuts) {
        if (t <= stride || t >= top) continue;
        if (t % stride != 0) continue;
        const std::uint64_t piece = t / stride;
        if (rest % piece != 0) continue;
        out.push_back(Factor::term(f.atom, stride, piece));
        rest /= piece;
        stride = t;
        changed = true;
      }
    }
    out.push_back(Factor::term(f.atom, stride, rest));
  }
  l.factors = std::move(out);
  return changed;
}

/// The distinct composite atoms of the top-level terms of `l`.
std::vector<Atom> composite_atoms(const FactorList& l) {
  std::vector<Atom> out;
  for (const Factor& f : l.factors) {
    if (!f.is_term() || !f.atom.is_composite()) continue;
    if (std::find(out.begin(), out.end(), f.atom) == out.end()) out.push_back(f.atom);
  }
  return out;
}

/// The run l[j..k] as a standalone list: Pad totals re-based to the run's first extent.
/// Returns false when a Pad total is not a multiple of that extent (then no standalone list
/// reads the same cells).
bool rebased_run(const FactorList& l, std::size_t j, std::size_t k, FactorList& out) {
  const std::uint64_t base = l.extent_before(j);
  out.factors.clear();
  for (std::size_t i = j; i <= k; ++i) {
    Factor f = l.factors[i];
    if (f.is_pad()) {
      if (f.total % base != 0) return false;
      f.total /= base;
    }
    out.factors.push_back(std::move(f));
  }
  return true;
}

/// §7.1 step 3: replaces in `l` every run of factors that reads exactly like the composite
/// `Comp G` (one of `comps`, found in the other list) by the whole-composite term
/// Term(Comp G, 1, SIZE(G)), so that the other list's composite pieces can match it.
bool lift_into(FactorList& l, const std::vector<Atom>& comps) {
  bool changed = false;
  for (const Atom& g : comps) {
    bool again = true;
    while (again) {
      again = false;
      for (std::size_t j = 0; j < l.factors.size() && !again; ++j) {
        const std::uint64_t base = l.extent_before(j);
        for (std::size_t k = j; k < l.factors.size(); ++k) {
          const std::uint64_t ext = l.extent_after(k);
          if (ext % base != 0) continue;
          if (ext / base > g.size) break;
          if (ext / base < g.size) continue;
          // A run already made of this composite's pieces is what the matching wants to see;
          // lifting it again would undo the refinement forever.
          bool uses_g = false;
          for (std::size_t i = j; i <= k; ++i)
            if (l.factors[i].is_term() && l.factors[i].atom == g) uses_g = true;
          if (uses_g) break;
          FactorList run;
          if (!rebased_run(l, j, k, run)) break;
          if (normalize(run) != *g.comp) break;
          l.factors.erase(l.factors.begin() + static_cast<std::ptrdiff_t>(j),
                          l.factors.begin() + static_cast<std::ptrdiff_t>(k + 1));
          l.factors.insert(l.factors.begin() + static_cast<std::ptrdiff_t>(j),
                           Factor::term(g, 1, g.size));
          changed = again = true;
          break;
        }
      }
    }
  }
  return changed;
}

void append_idents(const Atom& a, std::vector<std::string>& out) {
  if (!a.is_composite()) {
    if (std::find(out.begin(), out.end(), a.name) == out.end()) out.push_back(a.name);
    return;
  }
  for (const Factor& f : a.comp->factors)
    if (f.is_term()) append_idents(f.atom, out);
}

/// One §7.2 match: factor indices in the refined dividend and divisor.
struct Match {
  std::size_t d = 0;
  std::size_t v = 0;
};

/// §7.2: the matches, innermost-first over the divisor, each taking the innermost unused
/// dividend digit (D-18). Splits dividend Bcasts in place when a divisor Bcast divides them.
std::vector<Match> match_digits(FactorList& d, const FactorList& v) {
  std::vector<Match> matches;
  std::vector<bool> used(d.factors.size(), false);
  for (std::size_t k = 0; k < v.factors.size(); ++k) {
    const Factor& f = v.factors[k];
    if (f.is_pad()) continue;
    for (std::size_t i = 0; i < d.factors.size(); ++i) {
      if (used[i]) continue;
      const Factor& g = d.factors[i];
      if (f.is_term()) {
        if (!g.is_term() || g.atom != f.atom || g.stride != f.stride || g.count != f.count)
          continue;
      } else {
        if (!g.is_bcast() || g.count % f.count != 0) continue;
        if (g.count != f.count) {
          // Split Bcast(c') into a used inner Bcast(c) and a free outer Bcast(c'/c).
          const std::uint64_t outer = g.count / f.count;
          d.factors[i] = Factor::bcast(f.count);
          d.factors.insert(d.factors.begin() + static_cast<std::ptrdiff_t>(i + 1),
                           Factor::bcast(outer));
          used.insert(used.begin() + static_cast<std::ptrdiff_t>(i + 1), false);
          for (Match& m : matches)
            if (m.d > i) ++m.d;
        }
      }
      used[i] = true;
      matches.push_back(Match{i, k});
      break;
    }
  }
  return matches;
}

/// §7.2 coalescing: two matches adjacent in both lists, in the same order, holding contiguous
/// digits of one atom become one digit (merged back in both working lists).
void coalesce(std::vector<Match>& matches, FactorList& d, FactorList& v) {
  bool merged = true;
  while (merged) {
    merged = false;
    for (std::size_t a = 0; a < matches.size() && !merged; ++a) {
      for (std::size_t b = 0; b < matches.size() && !merged; ++b) {
        const Match inner = matches[a];
        const Match outer = matches[b];
        if (outer.d != inner.d + 1 || outer.v != inner.v + 1) continue;
        const Factor& fi = d.factors[inner.d];
        const Factor& fo = d.factors[outer.d];
        if (!fi.is_term() || !fo.is_term() || fi.atom != fo.atom) continue;
        if (fo.stride != fi.stride * fi.count) continue;
        const Factor joined = Factor::term(fi.atom, fi.stride, fi.count * fo.count);
        d.factors[inner.d] = joined;
        v.factors[inner.v] = joined;
        d.factors.erase(d.factors.begin() + static_cast<std::ptrdiff_t>(outer.d));
        v.factors.erase(v.factors.begin() + static_cast<std::ptrdiff_t>(outer.v));
        matches.erase(matches.begin() + static_cast<std::ptrdiff_t>(b));
        for (Match& m : matches) {
          if (m.d > inner.d) --m.d;
          if (m.v > inner.v) --m.v;
        }
        merged = true;
      }
    }
  }
}

std::vector<UnmatchedDigit> unmatched_digits(const FactorList& l,
                                             const std::vector<bool>& matched) {
  std::vector<UnmatchedDigit> out;
  for (std::size_t j = 0; j < l.factors.size(); ++j) {
    const Factor& f = l.factors[j];
    if (f.is_pad() || matched[j]) continue;
    UnmatchedDigit u;
    u.factor = j;
    u.stride = l.extent_before(j);
    u.count = f.count;
    if (f.is_term()) append_idents(f.atom, u.idents);
    out.push_back(std::move(u));
  }
  return out;
}

/// One digit of a working list, as a kernel author would write it.
std::string digit_text(const Factor& f) {
  return render_text(FactorList{{f}});
}

} // namespace

std::pair<FactorList, FactorList> refine_and_lift(const FactorList& d, const FactorList& v) {
  FactorList dl = d;
  FactorList vl = v;
  for (int round = 0;; ++round) {
    if (round == kMaxRefineRounds) {
      detail::note_internal_error(); // a bug: §7.1 must reach its fixpoint
      break;
    }
    std::vector<CutSet> sets;
    collect_cuts(dl, sets);
    collect_cuts(vl, sets);
    bool changed = refine_list(dl, sets);
    changed = refine_list(vl, sets) || changed;
    const std::vector<Atom> comps_d = composite_atoms(dl);
    const std::vector<Atom> comps_v = composite_atoms(vl);
    changed = lift_into(vl, comps_d) || changed;
    changed = lift_into(dl, comps_v) || changed;
    if (!changed) break;
  }
  return {std::move(dl), std::move(vl)};
}

Division divide_relaxed(const FactorList& d, const FactorList& v) {
  Division r;
  auto [dl, vl] = refine_and_lift(d, v);
  std::vector<Match> matches = match_digits(dl, vl);
  coalesce(matches, dl, vl);

  r.dividend.matched.assign(dl.factors.size(), false);
  r.divisor.matched.assign(vl.factors.size(), false);
  for (const Match& m : matches) {
    r.dividend.matched[m.d] = true;
    r.divisor.matched[m.v] = true;
  }
  // Outermost first (§7.2); dividend strides are distinct because every digit has >= 2 values.
  std::sort(matches.begin(), matches.end(),
            [](const Match& a, const Match& b) { return a.d > b.d; });
  for (const Match& m : matches) {
    DivideTerm t;
    t.dividend_stride = dl.extent_before(m.d);
    t.divisor_stride = vl.extent_before(m.v);
    t.resize = dl.factors[m.d].count;
    if (dl.factors[m.d].is_term()) append_idents(dl.factors[m.d].atom, t.idents);
    r.terms.push_back(std::move(t));
    r.positions.push_back(Division::Position{m.d, m.v});
  }
  r.dividend.unmatched = unmatched_digits(dl, r.dividend.matched);
  r.divisor.unmatched = unmatched_digits(vl, r.divisor.matched);
  r.dividend.refined = std::move(dl);
  r.divisor.refined = std::move(vl);
  r.dividend.relaxed_residue = relaxed_residue_of(r.dividend);
  r.divisor.relaxed_residue = relaxed_residue_of(r.divisor);
  r.contiguous_tail = contiguous_tail(r);
  return r;
}

Result<std::vector<DivideTerm>> divide_exact(const FactorList& d, const FactorList& v,
                                             const DivideNames& names) {
  Division div = divide_relaxed(d, v);
  if (div.exact()) return std::move(div.terms);

  std::string digits;
  for (std::size_t i = 0; i < div.divisor.unmatched.size(); ++i) {
    if (i > 0) digits += ", ";
    digits += fmt::format("`{}`",
                          digit_text(div.divisor.refined.factors[div.divisor.unmatched[i].factor]));
  }
  const bool many = div.divisor.unmatched.size() > 1;
  Diagnostic diag = make_error(
      "E-TYPE-331", fmt::format("{} of the {} `[{}]` {} not {} of the {} `[{}]`", digits,
                                names.divisor, render_text(v), many ? "are" : "is",
                                many ? "factors" : "a factor", names.dividend, render_text(d)));
  diag.stage = "type";
  diag.notes.push_back(fmt::format(
      "rule (docs/mapping.md §7.2): every digit of the {} must be found among the digits of the "
      "{}, "
      "with the same axis, stride and count, after both are cut at common digit boundaries",
      names.divisor, names.dividend));
  for (const UnmatchedDigit& u : div.divisor.unmatched)
    diag.notes.push_back(
        fmt::format("unmatched {} digit `{}`: {} values at position stride {}", names.divisor,
                    digit_text(div.divisor.refined.factors[u.factor]), u.count, u.stride));
  for (const UnmatchedDigit& u : div.dividend.unmatched)
    diag.notes.push_back(
        fmt::format("left-over {} digit `{}`: {} values at position stride {}", names.dividend,
                    digit_text(div.dividend.refined.factors[u.factor]), u.count, u.stride));
  return diag;
}

Division divide_relaxed(const Mapping& d, const Mapping& v) {
  return divide_relaxed(factorize(d), factorize(v));
}

Result<std::vector<DivideTerm>> divide_exact(const Mapping& d, const Mapping& v,
                                             const DivideNames& names) {
  return divide_exact(factorize(d), factorize(v), names);
}

} // namespace tujit::ir
