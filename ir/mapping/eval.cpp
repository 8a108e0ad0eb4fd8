// eval(L, p): the cell a canonical list holds at position p, docs/mapping.md §4.2, with the padding
// precedence of §10 D-9 and the overshoot convention of §10 D-5.
#include "ir/mapping/factor.h"

#include "ir/mapping/factor_detail.h"

#include <optional>

namespace tujit::ir {

namespace {

// Raw contributions per atom, in the order atoms were first met (outermost factor first).
struct Raw {
  std::vector<std::pair<Atom, std::uint64_t>> entries;
  void add(const Atom& a, std::uint64_t v) {
    for (auto& [atom, value] : entries) {
      if (atom == a) {
        value += v;
        return;
      }
    }
    entries.emplace_back(a, v);
  }
};

// Visits the factors outermost → innermost (§4.2): digits feed `raw`; the first Pad whose
// live extent the position exceeds decides the cell.
std::optional<PaddingKind> digits(const FactorList& l, std::uint64_t pos, Raw& raw) {
  const std::vector<std::uint64_t> ext = detail::cumulative_extents(l);
  std::uint64_t q = pos;
  for (std::size_t j = l.factors.size(); j-- > 0;) {
    const Factor& f = l.factors[j];
    const std::uint64_t a = ext[j];
    switch (f.kind) {
    case Factor::Kind::Term:
      raw.add(f.atom, (q / a) * f.stride);
      q %= a;
      break;
    case Factor::Kind::Bcast:
      q %= a;
      break;
    case Factor::Kind::Pad:
      if (q >= a) return f.pad;
      break;
    }
  }
  return std::nullopt;
}

bool contains(const FactorList& g, const Atom& x) {
  for (const Factor& f : g.factors) {
    if (!f.is_term() || !f.atom.is_composite()) continue;
    if (f.atom == x || contains(*f.atom.comp, x)) return true;
  }
  return false;
}

constexpr std::size_t kMaxResolutions = 1u << 20;

} // namespace

Cell eval(const FactorList& l, std::uint64_t pos) {
  if (pos >= l.size()) return Cell::out_of_bounds();
  Raw raw;
  if (auto k = digits(l, pos, raw)) return Cell::pad(*k);

  // Resolve composites, outer first (§10 D-9): pick the first pending composite that no other
  // pending composite contains, so that every contribution to it is in before it is read.
  // A composite is never resolved twice (anything added later lies inside a pending one).
  std::optional<Axis> overshoot;
  bool overshoot_without_axis = false;
  for (std::size_t step = 0;; ++step) {
    if (step == kMaxResolutions) {
      detail::note_internal_error();
      break;
    }
    std::size_t pick = raw.entries.size();
    for (std::size_t i = 0; i < raw.entries.size() && pick == raw.entries.size(); ++i) {
      const Atom& c = raw.entries[i].first;
      if (!c.is_composite()) continue;
      bool nested = false;
      for (std::size_t k = 0; k < raw.entries.size() && !nested; ++k) {
        const Atom& other = raw.entries[k].first;
        nested = k != i && other.is_composite() && contains(*other.comp, c);
      }
      if (!nested) pick = i;
    }
    if (pick == raw.entries.size()) break;
    const Atom comp = raw.entries[pick].first;
    const std::uint64_t v = raw.entries[pick].second;
    raw.entries.erase(raw.entries.begin() + static_cast<std::ptrdiff_t>(pick));
    const FactorList& g = *comp.comp;
    if (v >= g.size()) {
      // §4.2: a value beyond the composite's list is an overshoot. A padding found elsewhere
      // still wins, as it does in Mapping::map (combine keeps padding; overshoot is only
      // detected by finalize), so keep resolving the others.
      const std::vector<Axis> axes = detail::referenced_axes(g);
      if (axes.empty())
        overshoot_without_axis = true;
      else if (!overshoot)
        overshoot = axes.front();
      continue;
    }
    if (auto k = digits(g, v, raw)) return Cell::pad(*k);
  }

  Index ix;
  for (const auto& [atom, value] : raw.entries) {
    if (atom.is_composite()) continue; // only after a bug stopped the resolution
    ix[atom.name] += value;
  }
  if (overshoot) {
    // Reported as a coordinate at or past the axis size, which finalize flags (D-5).
    ix[overshoot->name] += overshoot->size;
    return Cell::live(std::move(ix));
  }
  // A composite without axes has nothing to overshoot; D-5: report Bottom.
  if (overshoot_without_axis) return Cell::pad(PaddingKind::Bottom);
  return Cell::live(std::move(ix));
}

} // namespace tujit::ir
