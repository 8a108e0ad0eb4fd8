#include "ir/verify/outer_util.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace tujit::ir::verify::outer_detail {

std::string mtext(const Mapping& m) {
  return "m![" + m.to_string() + "]";
}

std::string ftext(const FactorList& l) {
  return "m![" + render_text(l) + "]";
}

namespace {

void collect_axis_names(const FactorList& l, std::set<std::string>& out) {
  for (const Factor& f : l.factors) {
    if (!f.is_term()) continue;
    if (f.atom.is_composite())
      collect_axis_names(*f.atom.comp, out);
    else
      out.insert(f.atom.name);
  }
}

std::set<std::string> atom_axes(const Atom& a) {
  std::set<std::string> out;
  if (a.is_composite())
    collect_axis_names(*a.comp, out);
  else
    out.insert(a.name);
  return out;
}

} // namespace

bool digits_overlap(const Factor& a, const Factor& b) {
  if (!a.is_term() || !b.is_term()) return false;
  if (!a.atom.is_composite() && !b.atom.is_composite()) {
    if (a.atom.name != b.atom.name) return false;
    // Digit value ranges [s, s·c) in the axis' positional space intersect.
    const std::uint64_t lo = std::max(a.stride, b.stride);
    const std::uint64_t hi = std::min(a.stride * a.count, b.stride * b.count);
    return lo < hi;
  }
  if (a.atom == b.atom) {
    const std::uint64_t lo = std::max(a.stride, b.stride);
    const std::uint64_t hi = std::min(a.stride * a.count, b.stride * b.count);
    return lo < hi;
  }
  // A composite piece and anything naming one of its axes: treat as overlapping (conservative).
  const std::set<std::string> xa = atom_axes(a.atom);
  const std::set<std::string> xb = atom_axes(b.atom);
  return std::any_of(xa.begin(), xa.end(), [&](const std::string& n) { return xb.count(n) > 0; });
}

bool lists_overlap(const FactorList& a, const FactorList& b, Factor* which) {
  for (const Factor& fa : a.factors) {
    for (const Factor& fb : b.factors) {
      if (digits_overlap(fa, fb)) {
        if (which != nullptr) *which = fa;
        return true;
      }
    }
  }
  return false;
}

bool shares_axis(const Factor& f, const FactorList& l) {
  if (!f.is_term()) return false;
  const std::set<std::string> fa = atom_axes(f.atom);
  std::set<std::string> la;
  collect_axis_names(l, la);
  return std::any_of(fa.begin(), fa.end(), [&](const std::string& n) { return la.count(n) > 0; });
}

bool lists_share_axis(const FactorList& a, const FactorList& b, Factor* which) {
  for (const Factor& f : a.factors) {
    if (shares_axis(f, b)) {
      if (which != nullptr) *which = f;
      return true;
    }
  }
  return false;
}

std::string digit_text(const Factor& f) {
  return render_text(FactorList{{f}});
}

std::string bytes_text(std::uint64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return fmt::format("{} B ({} KiB)", bytes, bytes / 1024);
  return fmt::format("{} B", bytes);
}

} // namespace tujit::ir::verify::outer_detail
