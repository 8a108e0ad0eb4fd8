// The factor-form value types (docs/mapping.md §4.1): atoms, factors, lists, their structural
// equality (§10 D-2), extents and the debugging dump; plus the small list helpers of
// factor_detail.h.
#include "ir/mapping/factor.h"

#include "ir/mapping/factor_detail.h"

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <set>

namespace tujit::ir {

namespace {
std::atomic<std::uint64_t> g_internal_errors{0};
} // namespace

std::uint64_t factor_internal_errors() {
  return g_internal_errors.load();
}
void detail::note_internal_error() {
  g_internal_errors.fetch_add(1);
}

Atom Atom::sym(const Axis& a) {
  return Atom{a.name, a.size, nullptr};
}

Atom Atom::composite(FactorList g) {
  // docs/mapping.md §4.3: "atoms are normalized recursively" — every composite is built from a
  // normalized list, so normalize() itself never needs to descend into atoms.
  FactorList n = normalize(std::move(g));
  Atom a;
  a.size = n.size();
  a.comp = std::make_shared<const FactorList>(std::move(n));
  return a;
}

bool operator==(const Atom& a, const Atom& b) {
  if (a.is_composite() != b.is_composite()) return false;
  if (!a.is_composite()) return a.size == b.size && a.name == b.name;
  if (a.comp == b.comp) return true;
  return a.size == b.size && *a.comp == *b.comp;
}

Factor Factor::term(Atom a, std::uint64_t stride, std::uint64_t count) {
  Factor f;
  f.kind = Kind::Term;
  f.atom = std::move(a);
  f.stride = stride;
  f.count = count;
  return f;
}

Factor Factor::bcast(std::uint64_t count) {
  Factor f;
  f.kind = Kind::Bcast;
  f.count = count;
  return f;
}

Factor Factor::padding(std::uint64_t total, PaddingKind k) {
  Factor f;
  f.kind = Kind::Pad;
  f.total = total;
  f.pad = k;
  return f;
}

bool operator==(const Factor& a, const Factor& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case Factor::Kind::Term:
    return a.stride == b.stride && a.count == b.count && a.atom == b.atom;
  case Factor::Kind::Bcast:
    return a.count == b.count;
  case Factor::Kind::Pad:
    return a.total == b.total && a.pad == b.pad;
  }
  return false;
}

std::uint64_t FactorList::size() const {
  return extent_before(factors.size());
}

std::uint64_t FactorList::extent_before(std::size_t j) const {
  std::uint64_t e = 1;
  const std::size_t end = std::min(j, factors.size());
  for (std::size_t i = 0; i < end; ++i)
    e = factors[i].is_pad() ? factors[i].total : e * factors[i].count;
  return e;
}

std::uint64_t FactorList::extent_after(std::size_t j) const {
  return extent_before(j + 1);
}

bool operator==(const FactorList& a, const FactorList& b) {
  return a.factors == b.factors;
}

namespace {
void dump(const FactorList& l, std::string& out) {
  out += '[';
  for (std::size_t i = 0; i < l.factors.size(); ++i) {
    const Factor& f = l.factors[i];
    if (i) out += ", ";
    switch (f.kind) {
    case Factor::Kind::Term:
      out += "Term(";
      if (f.atom.is_composite())
        dump(*f.atom.comp, out);
      else
        out += f.atom.name;
      out += fmt::format(",{},{})", f.stride, f.count);
      break;
    case Factor::Kind::Bcast:
      out += fmt::format("Bcast({})", f.count);
      break;
    case Factor::Kind::Pad:
      out += fmt::format("Pad({},{})", f.total, to_string(f.pad));
      break;
    }
  }
  out += ']';
}
} // namespace

std::string FactorList::debug_string() const {
  std::string out;
  dump(*this, out);
  return out;
}

namespace detail {

std::vector<std::uint64_t> cumulative_extents(const FactorList& l) {
  std::vector<std::uint64_t> ext(l.factors.size() + 1, 1);
  for (std::size_t i = 0; i < l.factors.size(); ++i) {
    const Factor& f = l.factors[i];
    ext[i + 1] = f.is_pad() ? f.total : ext[i] * f.count;
  }
  return ext;
}

FactorList slice(const FactorList& l, std::size_t first, std::size_t last) {
  FactorList r;
  last = std::min(last, l.factors.size());
  if (first < last)
    r.factors.assign(l.factors.begin() + static_cast<std::ptrdiff_t>(first),
                     l.factors.begin() + static_cast<std::ptrdiff_t>(last));
  return r;
}

FactorList concat(FactorList head, const FactorList& tail) {
  head.factors.insert(head.factors.end(), tail.factors.begin(), tail.factors.end());
  return head;
}

FactorList scale_pads(FactorList l, std::uint64_t k) {
  for (Factor& f : l.factors)
    if (f.is_pad()) f.total *= k;
  return l;
}

FactorList divide_pads(FactorList l, std::uint64_t k) {
  for (Factor& f : l.factors)
    if (f.is_pad()) f.total /= k;
  return l;
}

namespace {
void collect_axes(const FactorList& l, std::set<Axis>& out) {
  for (const Factor& f : l.factors) {
    if (!f.is_term()) continue;
    if (f.atom.is_composite())
      collect_axes(*f.atom.comp, out);
    else
      out.insert(Axis{f.atom.name, f.atom.size});
  }
}
} // namespace

std::vector<Axis> referenced_axes(const FactorList& l) {
  std::set<Axis> s;
  collect_axes(l, s);
  return {s.begin(), s.end()};
}

Diagnostic not_divisible(std::string_view what, std::uint64_t size, std::uint64_t n) {
  return make_error(
      "E-TYPE-320",
      fmt::format("{} {} does not divide the mapping's SIZE {}: not divisible", what, n, size),
      std::nullopt, {"docs/mapping.md §5: split_at(L, n) needs n >= 1 and n dividing SIZE(L)"});
}

} // namespace detail
} // namespace tujit::ir
