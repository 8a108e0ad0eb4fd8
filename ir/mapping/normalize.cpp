// normalize (rules N1–N7), pair, padding and factorize: docs/mapping.md §4.3, §4.4.
#include "ir/mapping/factor.h"

#include "ir/mapping/factor_detail.h"

#include <fmt/format.h>

namespace tujit::ir {

namespace {

// The output of one normalization pass, with the cumulative extent after each factor so that
// N2 and N6 know the extent below the factor being pushed.
struct Builder {
  std::vector<Factor> out;
  std::vector<std::uint64_t> ext{1}; // ext[i] = E_before(i); ext.back() = current extent
  bool changed = false;

  std::uint64_t extent() const { return ext.back(); }
  void append(Factor f) {
    ext.push_back(f.is_pad() ? f.total : ext.back() * f.count);
    out.push_back(std::move(f));
  }
  Factor pop() {
    Factor f = std::move(out.back());
    out.pop_back();
    ext.pop_back();
    return f;
  }

  void push(Factor f) {
    switch (f.kind) {
    case Factor::Kind::Pad:
      // N2: a Pad up to the extent it already has is a no-op. (t < extent cannot occur in a
      // valid list; it is dropped the same way.)
      if (f.total <= extent()) {
        if (f.total < extent()) detail::note_internal_error();
        changed = true;
        return;
      }
      // N3: of two adjacent Pads of one kind only the outer one matters.
      if (!out.empty() && out.back().is_pad() && out.back().pad == f.pad) {
        pop();
        changed = true;
      }
      append(std::move(f));
      return;
    case Factor::Kind::Bcast:
      if (f.count == 1) { // N1
        changed = true;
        return;
      }
      if (!out.empty() && out.back().is_bcast()) { // N5
        out.back().count *= f.count;
        ext.back() *= f.count;
        changed = true;
        return;
      }
      append(std::move(f));
      return;
    case Factor::Kind::Term:
      break;
    }
    if (f.count == 1) { // N1
      changed = true;
      return;
    }
    if (f.atom.is_composite()) {
      const FactorList& g = *f.atom.comp;
      // N7: a composite of a single Term or Bcast is that digit.
      if (g.factors.size() == 1 && g.factors[0].is_term()) {
        const Factor& inner = g.factors[0];
        changed = true;
        push(Factor::term(inner.atom, inner.stride * f.stride, f.count));
        return;
      }
      if (g.factors.size() == 1 && g.factors[0].is_bcast()) {
        changed = true;
        push(Factor::bcast(f.count));
        return;
      }
      // N6: the whole composite in one digit is its list, Pads re-based to the extent below.
      if (f.stride == 1 && f.count == g.size()) {
        changed = true;
        const std::uint64_t below = extent();
        for (const Factor& h : g.factors) {
          Factor copy = h;
          if (copy.is_pad()) copy.total *= below;
          push(std::move(copy));
        }
        return;
      }
    }
    // N4: contiguous digits of one atom merge (inner Term(a,s,c1), outer Term(a,s·c1,c2)).
    if (!out.empty() && out.back().is_term() && out.back().atom == f.atom &&
        out.back().stride * out.back().count == f.stride) {
      Factor merged = pop();
      merged.count *= f.count;
      changed = true;
      push(std::move(merged)); // the merged digit may now be a whole composite (N6)
      return;
    }
    append(std::move(f));
  }
};

// Each pass either changes nothing (the fixpoint) or applies at least one rule; rules only
// shrink the list or remove a composite atom, so a handful of passes suffice. The bound only
// guards against a bug (counted by factor_internal_errors()).
constexpr int kMaxNormalizePasses = 64;

} // namespace

FactorList normalize(FactorList l) {
  for (int pass = 0; pass < kMaxNormalizePasses; ++pass) {
    Builder b;
    for (Factor& f : l.factors) b.push(std::move(f));
    l.factors = std::move(b.out);
    if (!b.changed) return l;
  }
  detail::note_internal_error();
  return l;
}

FactorList pair(const FactorList& outer, const FactorList& inner) {
  if (outer.empty()) return inner;
  if (inner.empty()) return outer;
  // docs/mapping.md §4.4: outer's absolute Pad totals are re-based above the inner extent.
  return normalize(detail::concat(inner, detail::scale_pads(outer, inner.size())));
}

Result<FactorList> padding(const FactorList& l, std::uint64_t t, PaddingKind k) {
  const std::uint64_t size = l.size();
  if (t < size)
    return make_error(
        "E-TYPE-321",
        fmt::format("cannot pad a mapping of SIZE {} to {}: padding must not shrink", size, t),
        std::nullopt, {"docs/mapping.md §1.3: `x # t` needs t >= SIZE(x) (§10 D-6)"});
  if (t == size) return l;
  FactorList r = l;
  r.factors.push_back(Factor::padding(t, k));
  return normalize(std::move(r));
}

FactorList factorize(const Mapping& e) {
  // A Mapping satisfies docs/mapping.md §1.3 by construction, so none of the operations below can
  // fail; if one does it is a bug, counted and answered with the operand unchanged.
  auto take = [](Result<FactorList> r, const FactorList& fallback) {
    if (r.ok()) return std::move(r).value();
    detail::note_internal_error();
    return fallback;
  };
  switch (e.kind()) {
  case Mapping::Kind::Symbol: {
    if (e.axis().size <= 1) return {};
    FactorList l;
    l.factors.push_back(Factor::term(Atom::sym(e.axis()), 1, e.axis().size));
    return l;
  }
  case Mapping::Kind::Broadcast: {
    FactorList l;
    if (e.number() > 1) l.factors.push_back(Factor::bcast(e.number()));
    return l;
  }
  case Mapping::Kind::Pair:
    return pair(factorize(e.lhs()), factorize(e.rhs()));
  case Mapping::Kind::Stride: {
    FactorList x = factorize(e.lhs());
    auto s = split_at(x, e.number());
    if (!s.ok()) return take(std::move(s).take_diagnostics(), x);
    return std::move(s).value().outer;
  }
  case Mapping::Kind::Modulo: {
    FactorList x = factorize(e.lhs());
    auto s = split_at(x, e.number());
    if (!s.ok()) return take(std::move(s).take_diagnostics(), x);
    return std::move(s).value().inner;
  }
  case Mapping::Kind::Resize: {
    FactorList x = factorize(e.lhs());
    return take(resize(x, e.number()), x);
  }
  case Mapping::Kind::Padding: {
    FactorList x = factorize(e.lhs());
    return take(padding(x, e.number(), e.padding_kind()), x);
  }
  }
  detail::note_internal_error();
  return {};
}

} // namespace tujit::ir
